#include "json_fields.hpp"

#include <cmath>
#include <string>

namespace matcompare {
namespace {

using json = nlohmann::ordered_json;

json number_or_null(double x, bool known) { return known && std::isfinite(x) ? json(x) : json(nullptr); }

json gpu_json(const GpuContext& g) {
  json j = {{"index", g.index},
            {"name", g.name},
            {"compute_capability", g.compute_capability},
            {"multiprocessors", g.multiprocessors},
            {"l2_mib", g.l2_mib},
            {"memory_gib", g.memory_gib},
            {"sm_clock_max_mhz", g.sm_clock_max_mhz},
            {"memory_clock_max_mhz", g.memory_clock_max_mhz},
            {"memory_bus_bits", g.memory_bus_bits}};
  if (!g.pci_bus_id.empty()) j["pci_bus_id"] = g.pci_bus_id;
  return j;
}

}  // namespace

json context_json(const RunContext& c) {
  json j;
  j["tool"] = "matcompare";
  j["version"] = c.matcompare_version;
  j["git_commit"] = c.git_commit;
  j["build_type"] = c.build_type;
  j["cxx_compiler"] = c.cxx_compiler;
  j["cuda_compiler"] = c.cuda_compiler;
  j["hostname"] = c.hostname;
  j["cpu_model"] = c.cpu_model;
  j["cpu_cores"] = c.cpu_cores;
  j["omp_threads"] = c.omp_threads;
  j["openblas"] = {{"config", c.openblas_config},
                   {"core", c.openblas_core},
                   {"parallel", c.openblas_parallel},
                   {"threads", c.openblas_threads}};
  j["cpu_blis"] = c.cpu_blis;
  j["vendors"] = json::array();
  for (const VendorContext& v : c.vendors)
    j["vendors"].push_back({{"backend", v.backend},
                            {"library", v.library},
                            {"available", v.available},
                            {"version", v.version},
                            {"build", v.build},
                            {"kernel_path", v.kernel_path},
                            {"threads", v.threads},
                            {"plugin", v.plugin},
                            {"unavailable_reason", v.unavailable_reason}});
  j["host_cache_policy"] = c.host_cache_policy;
  j["thread_waits"] = c.thread_waits;
  if (c.gpu) {
    const GpuContext& g = *c.gpu;
    json gpu = gpu_json(g);
    gpu["sm_clock_observed_mhz"] = g.sm_clock_observed_mhz;
    gpu["driver_version"] = g.driver_version;
    gpu["runtime_version"] = g.runtime_version;
    gpu["cublas_version"] = g.cublas_version;
    gpu["cache_policy"] = g.cache_policy;
    j["gpu"] = gpu;
  } else {
    j["gpu"] = nullptr;
  }
  j["gpu_unavailable_reason"] = c.gpu_unavailable_reason;
  j["gpus"] = json::array();
  for (const GpuContext& g : c.gpus) j["gpus"].push_back(gpu_json(g));
  j["multi_gpu_devices"] = c.multi_gpu_devices;
  j["cublasxt_block_dim"] = c.cublasxt_block_dim > 0 ? json(c.cublasxt_block_dim) : json(nullptr);
  j["cublasmp"] = c.cublasmp;
  j["peaks"] = json::array();
  for (const Peak& p : c.peaks)
    j["peaks"].push_back({{"device", to_string(p.device)},
                          {"name", p.name},
                          {"fp32_gflops", number_or_null(p.fp32_gflops, p.fp32_gflops > 0)},
                          {"tf32_gflops", number_or_null(p.tf32_gflops, p.tf32_gflops > 0)},
                          {"bandwidth_gbs", number_or_null(p.bandwidth_gbs, p.bandwidth_gbs > 0)},
                          {"basis", p.basis}});
  const BenchmarkOptions& o = c.options;
  j["timing"] = {{"repetitions", o.repetitions},
                 {"min_time_s", o.min_time_s},
                 {"time_limit_s", o.time_limit_s},
                 {"budget_s", o.budget_s},
                 {"run_s", number_or_null(c.run_s, c.run_s > 0)},
                 {"budget", "the whole run fits budget_s of wall time: each shape gets an equal share of what is "
                            "left, each row what it needs or an equal share of the rest, at most time_limit_s; a "
                            "row whose one full run does not fit is estimated from its first rows of C"},
                 {"flush_cache", o.flush_cache},
                 {"compute", "median of samples after a verification run; GPU by CUDA events, CPU by steady_clock"},
                 {"total", "host steady_clock around upload + compute + download"},
                 {"vs_vendor", "median over pairs of vendor time / row time, the vendor and the row timed in turn "
                               "(ABBA) on the same inputs and cache policy; q1, q3: quartiles of the pair ratios; "
                               "pairs go on past repetitions and min_time_s while 0.93 x IQR / sqrt(pairs) is over 1% "
                               "of the median, up to 8 x min_time_s and the row's share of the budget"},
                 {"speedup", "multi-GPU rows: the single-GPU vendor's time on the same shape in this run / the "
                             "row's time; end-to-end (vendor total_ms) for host-resident rows, compute (vendor "
                             "median_ms) otherwise; efficiency = speedup / devices"},
                 {"full_reference_max_flops", o.full_reference_max_flops},
                 {"sampled_verification", "problems of more flops than full_reference_max_flops are verified on "
                                          "rows of C spread evenly from the first to the last (row floor(s*(M-1)/"
                                          "(S-1))), at most " + std::to_string(kSampledRowSpacing) + " apart where "
                                          "their reference (4*S*N*K flops) stays within full_reference_max_flops, "
                                          "never fewer than " + std::to_string(kSampledRows) + ", against a float64 "
                                          "reference of those rows only; each result's verification_sample says "
                                          "which"}};
  j["input_seed"] = o.seed;
  j["input_values"] = to_string(o.input_values);
  j["input_values_description"] = describe(o.input_values);
  j["command_line"] = c.command_line;
  j["timestamp_utc"] = c.timestamp_utc;
  if (!c.suite.name.empty()) {
    json shapes = json::array();
    for (const SuiteShape& s : c.suite.shapes)
      shapes.push_back({{"m", s.shape.m}, {"n", s.shape.n}, {"k", s.shape.k}, {"layout", to_string(s.shape.layout)},
                        {"name", s.name}});
    j["suite"] = {{"name", c.suite.name}, {"title", c.suite.title}, {"path", c.suite.path}, {"shapes", shapes}};
  }
  return j;
}

json result_json(const BenchmarkResult& r) {
  const bool timed = r.status == Status::ok;
  const bool estimated = r.status == Status::estimated;
  const bool figure = timed || estimated;
  const bool checked = r.verified && r.errors.finite;
  json j;
  j["backend"] = r.backend.name;
  j["device"] = to_string(r.backend.device);
  j["seed"] = r.backend.seed;
  j["idea"] = r.backend.idea;
  j["precision"] = to_string(r.backend.precision);
  j["vendor"] = r.backend.vendor;
  j["vendor_library"] = r.backend.vendor_library;
  j["multi_gpu"] = r.backend.multi_gpu;
  j["host_resident"] = r.backend.host_resident;
  j["m"] = r.shape.m;
  j["n"] = r.shape.n;
  j["k"] = r.shape.k;
  j["layout"] = to_string(r.shape.layout);
  j["alpha"] = r.alpha;
  j["beta"] = r.beta;
  j["status"] = to_string(r.status);
  j["reason"] = r.reason;
  j["median_ms"] = number_or_null(r.compute.median_ms, figure);
  j["min_ms"] = number_or_null(r.compute.min_ms, timed);
  j["max_ms"] = number_or_null(r.compute.max_ms, timed);
  j["cv"] = number_or_null(r.compute.cv, timed);
  j["samples"] = r.compute.samples;
  j["total_ms"] = number_or_null(r.total.median_ms, timed && r.total.samples > 0);
  j["total_min_ms"] = number_or_null(r.total.min_ms, timed && r.total.samples > 0);
  j["total_samples"] = r.total.samples;
  j["gflops"] = number_or_null(r.gflops, figure);
  j["vs_vendor"] = number_or_null(r.vs_vendor, figure && r.vs_vendor > 0);
  j["vs_vendor_q1"] = number_or_null(r.vs_vendor_q1, timed && r.vs_vendor_pairs > 0);
  j["vs_vendor_q3"] = number_or_null(r.vs_vendor_q3, timed && r.vs_vendor_pairs > 0);
  j["vs_vendor_pairs"] = r.vs_vendor_pairs;
  j["vs_precision_vendor"] = number_or_null(r.vs_precision_vendor, figure && r.vs_precision_vendor > 0);
  const bool best_known = figure && r.vs_best_vendor > 0;
  j["vs_best_vendor"] = number_or_null(r.vs_best_vendor, best_known);
  j["best_vendor"] = best_known ? json(r.best_vendor) : json(nullptr);
  j["vs_best_vendor_pairs"] = r.vs_best_vendor_pairs;
  j["kernel"] = r.kernel.empty() ? json(nullptr) : json(r.kernel);
  j["clock_mhz"] = number_or_null(r.clock_mhz, timed && r.clock_mhz > 0);
  j["clock_max_mhz"] = number_or_null(r.clock_max_mhz, timed && r.clock_max_mhz > 0);
  j["throttled_rounds"] = r.throttled_rounds;
  j["estimated_run_s"] = number_or_null(r.estimated_run_s, r.estimated_run_s > 0);
  j["estimate_rows"] = estimated ? json(r.estimate_rows) : json(nullptr);
  j["estimate_subset_ms"] = number_or_null(r.estimate_subset_ms, estimated);
  j["estimate_ms_per_row"] = number_or_null(r.estimate_ms_per_row, estimated);
  j["budget_s"] = number_or_null(r.budget_s, r.status != Status::unavailable);
  j["spent_s"] = number_or_null(r.spent_s, r.status != Status::unavailable);
  j["max_abs_error"] = number_or_null(r.errors.max_abs, checked);
  j["sum_abs_error"] = number_or_null(r.errors.sum_abs, checked);
  j["rel_error"] = number_or_null(r.errors.rel_frobenius, checked);
  j["blas_ratio"] = number_or_null(r.errors.blas_ratio, checked);
  j["passed"] = r.verified ? json(r.errors.passed) : json(nullptr);
  j["verified_rows"] = r.verified ? json(r.verified_rows) : json(nullptr);
  j["verification_sample"] = r.verification_sample.empty() ? json(nullptr) : json(r.verification_sample);
  j["devices"] = r.devices > 0 ? json(r.devices) : json(nullptr);
  const bool multi = r.backend.multi_gpu;
  j["speedup"] = number_or_null(r.speedup, multi && r.speedup > 0);
  j["efficiency"] = number_or_null(r.efficiency, multi && r.efficiency > 0);
  j["speedup_basis"] = multi ? json(r.speedup_basis) : json(nullptr);
  return j;
}

}  // namespace matcompare
