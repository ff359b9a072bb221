#include "saved_run.hpp"

#include <fstream>
#include <stdexcept>

#include "matcompare/reporters.hpp"

matcompare::SavedResults read_run_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::invalid_argument(path + ": cannot be read");
  try {
    return matcompare::read_results_json(file);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

SavedRun load_saved_run(const std::string& path) {
  const matcompare::SavedResults saved = read_run_file(path);
  SavedRun run;
  run.path = path;
  run.git_commit = saved.context.git_commit;
  run.hostname = saved.context.hostname;
  run.timestamp_utc = saved.context.timestamp_utc;
  run.machine = saved.context.gpu ? saved.context.gpu->name : saved.context.cpu_model;
  for (const matcompare::BenchmarkResult& r : saved.results) {
    SavedRow row;
    row.backend = r.backend.name;
    row.precision = matcompare::to_string(r.backend.precision);
    row.status = matcompare::to_string(r.status);
    row.m = r.shape.m;
    row.n = r.shape.n;
    row.k = r.shape.k;
    row.layout = matcompare::to_string(r.shape.layout);
    row.alpha = r.alpha;
    row.beta = r.beta;
    row.median_ms = r.compute.median_ms;
    row.min_ms = r.compute.min_ms;
    row.max_ms = r.compute.max_ms;
    row.samples = r.compute.samples;
    row.gflops = r.gflops;
    row.vs_vendor = r.vs_vendor;
    row.vs_vendor_q1 = r.vs_vendor_q1;
    row.vs_vendor_q3 = r.vs_vendor_q3;
    row.vs_vendor_pairs = r.vs_vendor_pairs;
    row.verified = r.verified;
    row.passed = r.errors.passed;
    run.rows.push_back(std::move(row));
  }
  return run;
}
