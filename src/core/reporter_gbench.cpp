#include "reporter_gbench.hpp"

#include <cctype>
#include <map>
#include <string>

#include "json_fields.hpp"
#include "number_text.hpp"

namespace matcompare {
namespace {

using json = nlohmann::ordered_json;

std::string benchmark_name(const BenchmarkResult& r) {
  const GemmShape& s = r.shape;
  std::string name = r.backend.name + "/" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  if (s.layout != Layout::nn) name += "/" + to_string(s.layout);
  if (r.alpha != 1.0f || r.beta != 0.0f) name += "/alpha:" + format("%g", r.alpha) + "/beta:" + format("%g", r.beta);
  return name;
}

std::string lowercase(std::string text) {
  for (char& ch : text) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

}  // namespace

void write_gbench(std::ostream& out, const RunContext& c, const std::vector<BenchmarkResult>& results) {
  json j;
  j["context"] = {{"date", c.timestamp_utc},
                  {"host_name", c.hostname},
                  {"executable", "matcompare"},
                  {"num_cpus", c.cpu_cores},
                  {"library_build_type", lowercase(c.build_type)},
                  {"json_schema_version", 1},
                  {"matcompare_version", c.matcompare_version},
                  {"git_commit", c.git_commit},
                  {"cpu_model", c.cpu_model},
                  {"gpu", c.gpu ? json(c.gpu->name) : json(nullptr)},
                  {"command_line", c.command_line}};
  j["benchmarks"] = json::array();
  // Google Benchmark's families are its registered functions, instances their arguments: here backends and shapes.
  std::map<std::string, int> family, instances;
  for (const BenchmarkResult& r : results) {
    const int family_index = family.emplace(r.backend.name, int(family.size())).first->second;
    const int instance = instances[r.backend.name]++;
    const std::string name = benchmark_name(r);
    json b = {{"name", name},
              {"family_index", family_index},
              {"per_family_instance_index", instance},
              {"run_name", name},
              {"run_type", "iteration"},
              {"repetitions", 1},
              {"repetition_index", 0},
              {"threads", 1}};
    const bool figure = r.status == Status::ok || r.status == Status::estimated;
    if (!figure) {  // failed (a wrong result among them) or unavailable
      b["error_occurred"] = true;
      b["error_message"] = to_string(r.status) + ": " + r.reason;
      // Times of 0, as Google Benchmark's own writer gives an error: its compare.py reads them from every benchmark.
      b["iterations"] = 0;
      b["real_time"] = 0.0;
      b["cpu_time"] = 0.0;
      b["time_unit"] = "us";
      j["benchmarks"].push_back(b);
      continue;
    }
    b["iterations"] = r.compute.samples;
    // Microseconds: its compare.py prints times as whole numbers of the unit.
    b["real_time"] = r.compute.median_ms * 1000;
    b["cpu_time"] = r.compute.median_ms * 1000;
    b["time_unit"] = "us";
    b["GFLOPS"] = r.gflops;
    if (r.vs_vendor > 0) b["x_vendor"] = r.vs_vendor;
    if (r.vs_best_vendor > 0) b["x_best_vendor"] = r.vs_best_vendor;
    if (r.verified && r.errors.finite) b["rel_error"] = r.errors.rel_frobenius;
    if (r.status == Status::estimated)
      b["label"] = "estimated from the first " + std::to_string(r.estimate_rows) + " rows of C";
    j["benchmarks"].push_back(b);
  }
  out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace matcompare
