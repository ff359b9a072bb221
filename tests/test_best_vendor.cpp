// "x best vendor": each row against the fastest vendor library of its precision on its device, timed against it;
// a vendor library's own ratio composed through the baseline vendor that every vendor library is paired with.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../src/core/best_vendor.hpp"
#include "../src/core/measurement.hpp"
#include "../src/core/run.hpp"
#include "logged_backend.hpp"
#include "test_support.hpp"

using namespace matcompare;
using matcompare_test::CallLog;
using matcompare_test::LoggedBackend;

namespace {

BenchmarkResult result(const std::string& name, Precision precision, Status status, double vs_precision_vendor,
                       bool vendor_library, bool baseline = false) {
  BenchmarkResult r;
  r.backend.name = name;
  r.backend.device = DeviceKind::gpu;
  r.backend.precision = precision;
  r.backend.vendor_library = vendor_library;
  r.backend.precision_vendor = baseline;
  r.status = status;
  r.vs_precision_vendor = vs_precision_vendor;
  return r;
}

const BenchmarkResult& named(const std::vector<BenchmarkResult>& results, const std::string& name) {
  for (const BenchmarkResult& r : results)
    if (r.backend.name == name) return r;
  FAIL("no result named " << name);
  return results.front();
}

}  // namespace

TEST_CASE("the best vendor of each precision is the fastest vendor library measured in full, and ratios compose") {
  std::vector<BenchmarkResult> shape{
      result("fp32-baseline", Precision::fp32, Status::ok, 1.0, true, true),
      result("fp32-faster", Precision::fp32, Status::ok, 1.25, true),
      result("fp32-estimated", Precision::fp32, Status::estimated, 3.0, true),  // an estimate does not compete
      result("fp32-failed", Precision::fp32, Status::failed, 0, true),
      result("fp32-row", Precision::fp32, Status::ok, 1.1, false),
      result("tf32-baseline", Precision::tf32, Status::ok, 1.0, true, true),
      result("tf32-slower", Precision::tf32, Status::ok, 0.8, true),
      result("tf32-row", Precision::tf32, Status::estimated, 0.9, false),
  };
  BenchmarkResult multi = result("multi", Precision::fp32, Status::ok, 0, false);
  multi.backend.multi_gpu = true;
  multi.speedup = 1.9;
  shape.push_back(multi);
  set_best_vendors(shape);
  CHECK(named(shape, "fp32-row").best_vendor == "fp32-faster");
  CHECK(named(shape, "fp32-row").vs_best_vendor == doctest::Approx(1.1 / 1.25));
  CHECK(named(shape, "fp32-baseline").vs_best_vendor == doctest::Approx(1 / 1.25));
  CHECK(named(shape, "fp32-faster").vs_best_vendor == doctest::Approx(1.0));
  CHECK(named(shape, "fp32-estimated").vs_best_vendor == doctest::Approx(3.0 / 1.25));
  CHECK(named(shape, "fp32-failed").vs_best_vendor == 0);
  CHECK(named(shape, "fp32-failed").best_vendor.empty());
  CHECK(named(shape, "tf32-row").best_vendor == "tf32-baseline");
  CHECK(named(shape, "tf32-row").vs_best_vendor == doctest::Approx(0.9));
  CHECK(named(shape, "tf32-slower").vs_best_vendor == doctest::Approx(0.8));
  CHECK(named(shape, "multi").vs_best_vendor == 0);
}

TEST_CASE("a run brings every vendor library of the selected precision and names the fastest, paired through the "
          "baseline") {
  CallLog log;
  // Scripted times: the baseline 20 ms, vendor A 10 ms, vendor B 40 ms, the row 25 ms, in every sample.
  LoggedBackend baseline("test/baseline", find_backend("cpu/gold"), log), a("test/vendor-a", find_backend("cpu/gold"), log),
      b("test/vendor-b", find_backend("cpu/gold"), log), row("test/row", find_backend("cpu/gold"), log),
      other("test/other-device", find_backend("cpu/gold"), log);
  baseline.make_vendor_library(true);
  a.make_vendor_library(false);
  b.make_vendor_library(false);
  baseline.scripted_ms = {20};
  a.scripted_ms = {10};
  b.scripted_ms = {40};
  row.scripted_ms = {25};
  a.kernel_name = "algo 3, tile 64x64";  // a backend that chooses among kernels says which it ran
  BenchmarkOptions o;
  o.repetitions = 3;
  o.min_time_s = 0;
  o.flush_cache = false;
  const std::vector<const Backend*> universe{&baseline, &a, &b, &row};
  const auto results = run_benchmarks_among(universe, {&row}, {{24, 20, 16}}, o);
  REQUIRE(results.size() == 4);  // the vendor libraries came along with the one row selected
  for (const BenchmarkResult& r : results) {
    INFO(r.backend.name, ": ", r.reason);
    REQUIRE(r.status == Status::ok);
    CHECK(r.best_vendor == "test/vendor-a");
  }
  CHECK(named(results, "test/vendor-a").vs_precision_vendor == doctest::Approx(2.0));
  CHECK(named(results, "test/vendor-b").vs_precision_vendor == doctest::Approx(0.5));
  CHECK(named(results, "test/row").vs_best_vendor == doctest::Approx(10.0 / 25));
  CHECK(named(results, "test/baseline").vs_best_vendor == doctest::Approx(0.5));
  CHECK(named(results, "test/vendor-a").vs_best_vendor == doctest::Approx(1.0));
  CHECK(named(results, "test/vendor-b").vs_best_vendor == doctest::Approx(0.25));
  CHECK(named(results, "test/vendor-a").kernel == "algo 3, tile 64x64");
  CHECK(named(results, "test/vendor-b").kernel.empty());
}

TEST_CASE("a row's ratio to the best vendor is timed against that vendor, not composed through a baseline slowed "
          "beside the row") {
  CallLog log;
  // The baseline reads 20 ms, but 80 ms while the row has a workspace (slowed beside the row alone, as OpenBLAS ran
  // beside cpu/blis on the H200's host); vendor A 10 ms, the row 25 ms. Through the baseline the row would read
  // (80 / 25) / (20 / 10) = 1.6 x the best; timed against A it is 10 / 25.
  LoggedBackend row("test/row", find_backend("cpu/gold"), log);
  LoggedBackend baseline("test/baseline", find_backend("cpu/gold"), log);
  LoggedBackend a("test/vendor-a", find_backend("cpu/gold"), log);
  baseline.make_vendor_library(true);
  a.make_vendor_library(false);
  baseline.scripted_ms = {20};
  a.scripted_ms = {10};
  row.scripted_ms = {25};
  baseline.slowed_beside = &row;
  baseline.slowed_factor = 4;
  BenchmarkOptions o;
  o.repetitions = 3;
  o.min_time_s = 0;
  o.flush_cache = false;
  // The row listed first: the vendor libraries are measured before it all the same.
  const auto results = run_benchmarks_among({&row, &baseline, &a}, {&row}, {{24, 20, 16}}, o);
  REQUIRE(results.size() == 3);
  const BenchmarkResult& r = named(results, "test/row");
  INFO(r.reason);
  REQUIRE(r.status == Status::ok);
  CHECK(r.best_vendor == "test/vendor-a");
  CHECK(r.vs_best_vendor == doctest::Approx(10.0 / 25));
  CHECK(r.vs_best_vendor_pairs == r.compute.samples);
  CHECK(r.vs_precision_vendor == doctest::Approx(80.0 / 25));  // the baseline as slowed beside the row
  const BenchmarkResult& vendor = named(results, "test/vendor-a");
  CHECK(vendor.vs_precision_vendor == doctest::Approx(2.0));
  CHECK(vendor.vs_best_vendor == doctest::Approx(1.0));
  CHECK(vendor.vs_best_vendor_pairs == 0);  // a vendor library's own ratio composes through the baseline
}

TEST_CASE("set_ratios: the best vendor's ratio comes from its own samples, paired, or for an estimate from its "
          "median") {
  const Backend& baseline = find_backend("cpu/openblas");
  const Backend& best = find_backend("cpu/gold");  // any other backend stands for the best library here
  const Partners partners{&baseline, &baseline, &best};
  REQUIRE(partners.distinct() == std::vector<const Backend*>{&baseline, &best});
  BenchmarkResult paired;
  set_ratios(paired, partners, {{10, 10, 10}, {5, 6, 7}}, {20, 20, 20}, true);
  CHECK(paired.vs_vendor == doctest::Approx(0.5));
  CHECK(paired.vs_precision_vendor == doctest::Approx(0.5));
  CHECK(paired.best_vendor == "cpu/gold");
  CHECK(paired.vs_best_vendor == doctest::Approx(0.3));
  CHECK(paired.vs_best_vendor_pairs == 3);
  BenchmarkResult estimate;  // one extrapolated figure for the row, the partners' full-size runs
  set_ratios(estimate, partners, {{10}, {6, 8}}, {20}, false);
  CHECK(estimate.vs_best_vendor == doctest::Approx(7.0 / 20));
  CHECK(estimate.vs_best_vendor_pairs == 0);
  // Three partners, as a TF32 row's on the GPU (cuBLAS FP32, cuBLAS TF32, cuBLASLt TF32): each ratio its own.
  const Backend& precision = find_backend("cpu/gold-omp");
  const Partners three{&baseline, &precision, &best};
  REQUIRE(three.distinct() == std::vector<const Backend*>{&baseline, &precision, &best});
  BenchmarkResult tf32_like;
  set_ratios(tf32_like, three, {{40, 40}, {10, 10}, {8, 8}}, {20, 20}, true);
  CHECK(tf32_like.vs_vendor == doctest::Approx(2.0));
  CHECK(tf32_like.vs_precision_vendor == doctest::Approx(0.5));
  CHECK(tf32_like.vs_best_vendor == doctest::Approx(0.4));
  BenchmarkResult baseline_best;  // the baseline itself the best: no partner more, the same ratio
  set_ratios(baseline_best, Partners{&baseline, &baseline, &baseline}, {{10, 12, 14}}, {20, 20, 20}, true);
  CHECK(baseline_best.vs_best_vendor == doctest::Approx(baseline_best.vs_vendor));
  CHECK(baseline_best.vs_best_vendor_pairs == 3);
}
