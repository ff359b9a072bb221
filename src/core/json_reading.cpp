// A run saved as JSON, read back into the types the reporters print (reporters.hpp: read_results_json): the inverse
// of json_fields.cpp for every field a reporter shows. Fields added after a run was saved (layout, peaks) may be
// absent; a field that is present must have its type, and each required one must be there.
#include <cfloat>
#include <cmath>
#include <istream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "matcompare/reporters.hpp"

namespace matcompare {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

const json* field(const json& object, const std::string& where, const char* key, bool required) {
  if (!object.contains(key) || object.at(key).is_null()) {
    if (required) fail(where + "." + key + " is missing");
    return nullptr;
  }
  return &object.at(key);
}

// An array or an object, when present.
const json* array(const json& object, const std::string& where, const char* key) {
  const json* v = field(object, where, key, false);
  if (v && !v->is_array()) fail(where + "." + key + " must be an array");
  return v;
}

const json* object_at(const json& object, const std::string& where, const char* key) {
  const json* v = field(object, where, key, false);
  if (v && !v->is_object()) fail(where + "." + key + " must be an object");
  return v;
}

std::string text(const json& object, const std::string& where, const char* key, bool required = false) {
  const json* v = field(object, where, key, required);
  if (!v) return "";
  if (!v->is_string()) fail(where + "." + key + " must be a string");
  return v->get<std::string>();
}

double number(const json& object, const std::string& where, const char* key, bool required = false) {
  const json* v = field(object, where, key, required);
  if (!v) return 0;
  if (!v->is_number()) fail(where + "." + key + " must be a number or null");
  return v->get<double>();
}

std::int64_t whole(const json& object, const std::string& where, const char* key, bool required = false) {
  const json* v = field(object, where, key, required);
  if (!v) return 0;
  if (!v->is_number_integer()) fail(where + "." + key + " must be a whole number");
  return v->get<std::int64_t>();
}

bool flag(const json& object, const std::string& where, const char* key) {
  const json* v = field(object, where, key, false);
  if (!v) return false;
  if (!v->is_boolean()) fail(where + "." + key + " must be true, false or null");
  return v->get<bool>();
}

DeviceKind device_named(const std::string& name, const std::string& where) {
  if (name == "cpu") return DeviceKind::cpu;
  if (name == "gpu") return DeviceKind::gpu;
  fail(where + " must be cpu or gpu, not '" + name + "'");
}

GpuContext gpu_from(const json& g, const std::string& where) {
  if (!g.is_object()) fail(where + " must be an object");
  GpuContext gpu;
  gpu.index = int(whole(g, where, "index"));
  gpu.name = text(g, where, "name");
  gpu.compute_capability = text(g, where, "compute_capability");
  gpu.multiprocessors = int(whole(g, where, "multiprocessors"));
  gpu.l2_mib = number(g, where, "l2_mib");
  gpu.memory_gib = number(g, where, "memory_gib");
  gpu.sm_clock_max_mhz = int(whole(g, where, "sm_clock_max_mhz"));
  gpu.sm_clock_observed_mhz = int(whole(g, where, "sm_clock_observed_mhz"));
  gpu.memory_clock_max_mhz = int(whole(g, where, "memory_clock_max_mhz"));
  gpu.memory_bus_bits = int(whole(g, where, "memory_bus_bits"));
  gpu.driver_version = text(g, where, "driver_version");
  gpu.runtime_version = text(g, where, "runtime_version");
  gpu.cublas_version = text(g, where, "cublas_version");
  gpu.cache_policy = text(g, where, "cache_policy");
  gpu.pci_bus_id = text(g, where, "pci_bus_id");
  return gpu;
}

RunContext context_from(const json& c) {
  const std::string where = "context";
  RunContext context;
  context.matcompare_version = text(c, where, "version");
  context.git_commit = text(c, where, "git_commit");
  context.build_type = text(c, where, "build_type");
  context.cxx_compiler = text(c, where, "cxx_compiler");
  context.cuda_compiler = text(c, where, "cuda_compiler");
  context.hostname = text(c, where, "hostname");
  context.cpu_model = text(c, where, "cpu_model");
  context.cpu_cores = int(whole(c, where, "cpu_cores"));
  context.omp_threads = int(whole(c, where, "omp_threads"));
  if (const json* o = object_at(c, where, "openblas")) {
    context.openblas_config = text(*o, where + ".openblas", "config");
    context.openblas_core = text(*o, where + ".openblas", "core");
    context.openblas_parallel = text(*o, where + ".openblas", "parallel");
    context.openblas_threads = int(whole(*o, where + ".openblas", "threads"));
  }
  context.cpu_blis = text(c, where, "cpu_blis");
  context.host_cache_policy = text(c, where, "host_cache_policy");
  context.thread_waits = text(c, where, "thread_waits");
  if (const json* g = object_at(c, where, "gpu")) context.gpu = gpu_from(*g, where + ".gpu");
  context.gpu_unavailable_reason = text(c, where, "gpu_unavailable_reason");
  if (const json* gpus = array(c, where, "gpus"))
    for (std::size_t i = 0; i < gpus->size(); ++i)
      context.gpus.push_back(gpu_from(gpus->at(i), where + ".gpus[" + std::to_string(i) + "]"));
  if (const json* devices = array(c, where, "multi_gpu_devices"))
    for (const json& d : *devices) {
      if (!d.is_number_integer()) fail(where + ".multi_gpu_devices must hold GPU indices");
      context.multi_gpu_devices.push_back(d.get<int>());
    }
  context.cublasxt_block_dim = int(whole(c, where, "cublasxt_block_dim"));
  context.cublasmp = text(c, where, "cublasmp");
  const json* peaks = array(c, where, "peaks");
  // A run saved before peaks were recorded: its GPU's follow from the properties it kept; the CPU's were never measured.
  if (!peaks && context.gpu) context.peaks.push_back(gpu_peak(*context.gpu));
  if (peaks)
    for (std::size_t i = 0; i < peaks->size(); ++i) {
      const std::string at = where + ".peaks[" + std::to_string(i) + "]";
      const json& p = peaks->at(i);
      Peak peak;
      peak.device = device_named(text(p, at, "device", true), at + ".device");
      peak.name = text(p, at, "name");
      peak.fp32_gflops = number(p, at, "fp32_gflops");
      peak.tf32_gflops = number(p, at, "tf32_gflops");
      peak.bandwidth_gbs = number(p, at, "bandwidth_gbs");
      peak.basis = text(p, at, "basis");
      context.peaks.push_back(peak);
    }
  if (const json* vendors = array(c, where, "vendors"))
    for (std::size_t i = 0; i < vendors->size(); ++i) {
      const std::string at = where + ".vendors[" + std::to_string(i) + "]";
      const json& v = vendors->at(i);
      VendorContext vendor;
      vendor.backend = text(v, at, "backend");
      vendor.library = text(v, at, "library");
      vendor.available = flag(v, at, "available");
      vendor.version = text(v, at, "version");
      vendor.build = text(v, at, "build");
      vendor.kernel_path = text(v, at, "kernel_path");
      vendor.threads = int(whole(v, at, "threads"));
      vendor.plugin = text(v, at, "plugin");
      vendor.unavailable_reason = text(v, at, "unavailable_reason");
      context.vendors.push_back(vendor);
    }
  if (const json* timing = object_at(c, where, "timing")) {
    const std::string at = where + ".timing";
    BenchmarkOptions& o = context.options;
    o.repetitions = int(whole(*timing, at, "repetitions"));
    o.min_time_s = number(*timing, at, "min_time_s");
    o.time_limit_s = number(*timing, at, "time_limit_s");
    o.budget_s = number(*timing, at, "budget_s");
    context.run_s = number(*timing, at, "run_s");
    o.flush_cache = flag(*timing, at, "flush_cache");
    o.full_reference_max_flops = number(*timing, at, "full_reference_max_flops");
  }
  if (const json* suite = object_at(c, where, "suite")) {
    const std::string at = where + ".suite";
    context.suite.name = text(*suite, at, "name");
    context.suite.title = text(*suite, at, "title");
    context.suite.path = text(*suite, at, "path");
    if (const json* shapes = array(*suite, at, "shapes"))
      for (std::size_t i = 0; i < shapes->size(); ++i) {
        const std::string s_at = at + ".shapes[" + std::to_string(i) + "]";
        const json& one = shapes->at(i);
        SuiteShape shape;
        shape.shape.m = whole(one, s_at, "m", true);
        shape.shape.n = whole(one, s_at, "n", true);
        shape.shape.k = whole(one, s_at, "k", true);
        const std::string layout = text(one, s_at, "layout");
        if (!layout.empty()) shape.shape.layout = parse_layout(layout);
        shape.name = text(one, s_at, "name");
        context.suite.shapes.push_back(shape);
      }
  }
  context.options.seed = std::uint64_t(whole(c, where, "input_seed"));
  const std::string values = text(c, where, "input_values");
  if (!values.empty()) context.options.input_values = parse_input_values(values);
  context.command_line = text(c, where, "command_line");
  context.timestamp_utc = text(c, where, "timestamp_utc");
  return context;
}

BenchmarkResult result_from(const json& r, const std::string& where) {
  if (!r.is_object()) fail(where + " must be an object");
  BenchmarkResult result;
  result.backend.name = text(r, where, "backend", true);
  result.backend.device = device_named(text(r, where, "device", true), where + ".device");
  result.backend.seed = text(r, where, "seed");
  result.backend.idea = text(r, where, "idea");
  const std::string precision = text(r, where, "precision", true);
  if (precision != "fp32" && precision != "tf32") fail(where + ".precision must be fp32 or tf32");
  result.backend.precision = precision == "tf32" ? Precision::tf32 : Precision::fp32;
  result.backend.vendor = flag(r, where, "vendor");
  result.backend.vendor_library = flag(r, where, "vendor_library");
  result.shape.m = whole(r, where, "m", true);
  result.shape.n = whole(r, where, "n", true);
  result.shape.k = whole(r, where, "k", true);
  if (result.shape.m < 1 || result.shape.n < 1 || result.shape.k < 1) fail(where + ": m, n and k must be >= 1");
  const std::string layout = text(r, where, "layout");
  if (layout == "NN" || layout == "NT" || layout == "TN" || layout == "TT") result.shape.layout = parse_layout(layout);
  else if (!layout.empty()) fail(where + ".layout must be NN, NT, TN or TT, not '" + layout + "'");
  const double alpha = number(r, where, "alpha"), beta = number(r, where, "beta");
  if (std::fabs(alpha) > FLT_MAX || std::fabs(beta) > FLT_MAX) fail(where + ": alpha and beta must be floats");
  result.alpha = float(alpha);
  result.beta = float(beta);
  const std::string status = text(r, where, "status", true);
  if (status == "ok") result.status = Status::ok;
  else if (status == "estimated") result.status = Status::estimated;
  else if (status == "failed") result.status = Status::failed;
  else if (status == "unavailable" || status == "skipped") result.status = Status::unavailable;
  else fail(where + ".status must be ok, estimated, failed, unavailable or skipped, not '" + status + "'");
  result.reason = text(r, where, "reason");
  // Runs saved before --budget marked a row that did not fit --time-limit "skipped": not measured.
  if (status == "skipped") result.reason = "skipped (not measured within --time-limit): " + result.reason;
  result.compute.median_ms = number(r, where, "median_ms");
  result.compute.min_ms = number(r, where, "min_ms");
  result.compute.max_ms = number(r, where, "max_ms");
  result.compute.cv = number(r, where, "cv");
  result.compute.samples = int(whole(r, where, "samples"));
  result.total.median_ms = number(r, where, "total_ms");
  result.total.min_ms = number(r, where, "total_min_ms");
  result.total.samples = int(whole(r, where, "total_samples"));
  result.gflops = number(r, where, "gflops");
  result.vs_vendor = number(r, where, "vs_vendor");
  result.vs_vendor_q1 = number(r, where, "vs_vendor_q1");
  result.vs_vendor_q3 = number(r, where, "vs_vendor_q3");
  result.vs_vendor_pairs = int(whole(r, where, "vs_vendor_pairs"));
  result.vs_precision_vendor = number(r, where, "vs_precision_vendor");
  result.vs_best_vendor = number(r, where, "vs_best_vendor");
  result.best_vendor = text(r, where, "best_vendor");
  result.vs_best_vendor_pairs = int(whole(r, where, "vs_best_vendor_pairs"));  // absent before 2026-11-29: 0
  result.kernel = text(r, where, "kernel");
  result.clock_mhz = number(r, where, "clock_mhz");
  result.clock_max_mhz = number(r, where, "clock_max_mhz");
  result.throttled_rounds = int(whole(r, where, "throttled_rounds"));
  result.estimated_run_s = number(r, where, "estimated_run_s");
  result.budget_s = number(r, where, "budget_s");
  result.spent_s = number(r, where, "spent_s");
  result.estimate_rows = whole(r, where, "estimate_rows");
  result.estimate_subset_ms = number(r, where, "estimate_subset_ms");
  result.estimate_ms_per_row = number(r, where, "estimate_ms_per_row");
  result.errors.max_abs = number(r, where, "max_abs_error");
  result.errors.sum_abs = number(r, where, "sum_abs_error");
  result.errors.rel_frobenius = number(r, where, "rel_error");
  result.errors.blas_ratio = number(r, where, "blas_ratio");
  const json* passed = field(r, where, "passed", false);
  if (passed && !passed->is_boolean()) fail(where + ".passed must be true, false or null");
  result.verified = passed != nullptr;
  result.errors.passed = passed && passed->get<bool>();
  // A verified row without errors had NaN or Inf in its output (json_fields.cpp writes them as null).
  if (result.verified && !field(r, where, "rel_error", false)) {
    result.errors.finite = false;
    result.errors.max_abs = result.errors.sum_abs = result.errors.rel_frobenius = result.errors.blas_ratio = NAN;
  } else if (result.verified && !field(r, where, "blas_ratio", false)) {
    result.errors.blas_ratio = INFINITY;  // finite output, an error over a zero scale
  }
  result.verified_rows = whole(r, where, "verified_rows");
  result.verification_sample = text(r, where, "verification_sample");
  result.devices = int(whole(r, where, "devices"));
  result.speedup = number(r, where, "speedup");
  result.efficiency = number(r, where, "efficiency");
  result.speedup_basis = text(r, where, "speedup_basis");
  // Runs saved before these two were written: a speedup basis is only a multi-GPU row's.
  result.backend.multi_gpu = r.contains("multi_gpu") ? flag(r, where, "multi_gpu") : !result.speedup_basis.empty();
  result.backend.host_resident = flag(r, where, "host_resident");
  if ((result.status == Status::ok || result.status == Status::estimated) && !(result.compute.median_ms > 0))
    fail(where + ".median_ms must be positive for a row of status " + status);
  return result;
}

}  // namespace

SavedResults read_results_json(std::istream& in) {
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error&) {
    fail("is not a JSON run of matcompare (matcompare --format json writes one)");
  }
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].is_object() || !doc.contains("results") ||
      !doc["results"].is_array())
    fail("is not a JSON run of matcompare: it needs a \"context\" object and a \"results\" array");
  SavedResults saved;
  saved.context = context_from(doc["context"]);
  for (std::size_t i = 0; i < doc["results"].size(); ++i)
    saved.results.push_back(result_from(doc["results"][i], "results[" + std::to_string(i) + "]"));
  return saved;
}

}  // namespace matcompare
