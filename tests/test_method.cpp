// The measurement method, pinned: each case fails when the property it names breaks (a flush that moves into
// the timed region, a vendor sample reused, an order that always times the vendor first, a ratio taken as a mean
// or as a ratio of medians, a verification that lets a wrong element pass, C left unpoisoned, a sample taken at a
// lowered clock kept).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../src/cpu/cpu_backend.hpp"
#include "logged_backend.hpp"
#include "test_support.hpp"

using namespace matcompare;

using matcompare_test::CallLog;
using matcompare_test::LoggedBackend;

namespace {

std::size_t count(const CallLog& log, const std::string& call) {
  return std::size_t(std::count(log.begin(), log.end(), call));
}

// The log from the first `call` on.
CallLog from_first(const CallLog& log, const std::string& call) {
  return CallLog(std::find(log.begin(), log.end(), call), log.end());
}

BenchmarkOptions quick(int repetitions) {
  BenchmarkOptions o;
  o.repetitions = repetitions;
  o.min_time_s = 0;
  o.flush_cache = false;
  return o;
}

// C = αAB + C whatever β is: a kernel that reads C when β = 0.
void reads_c_always(const cpu::HostGemm& g) {
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) {
      float dot = 0;
      for (std::int64_t p = 0; p < g.k; ++p) dot += g.a[i * g.lda + p] * g.b[p * g.ldb + j];
      g.c[i * g.ldc + j] = g.alpha * dot + g.c[i * g.ldc + j];
    }
}

}  // namespace

TEST_CASE("the cache flush comes once before every timed sample and never inside the timed region") {
  CallLog log;
  LoggedBackend row("row", find_backend("cpu/gold"), log);
  row.flush_sleep_ms = 30;  // far longer than the 16x16x16 product: a flush inside a timed region shows in the time
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  BenchmarkOptions o = quick(4);
  o.flush_cache = true;
  const BenchmarkResult r = measure(row, p, o);
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  CHECK(r.compute.max_ms < 15);
  CHECK(r.total.max_ms < 15);
  // The trial flushes once to time a flush; then the verification run, every compute sample and every end-to-end
  // sample flush once each.
  CHECK(count(log, "row:flush") == std::size_t(1 + 1 + r.compute.samples + r.total.samples));
  // Between two stopwatch starts exactly one flush, and none between a start and its stop.
  int flushes_since_stop = 0;
  bool timing = false;
  int timed_samples = 0;
  for (const std::string& call : from_first(log, "row:poison")) {
    if (call == "row:flush") {
      CHECK_FALSE(timing);
      ++flushes_since_stop;
    } else if (call == "row:start") {
      CHECK(flushes_since_stop == 1);
      timing = true;
      ++timed_samples;
    } else if (call == "row:stop") {
      timing = false;
      flushes_since_stop = 0;
    }
  }
  CHECK(timed_samples == 1 + r.compute.samples);
}

TEST_CASE("every pair times a fresh vendor run, in ABBA order") {
  CallLog log;
  LoggedBackend vendor("vendor", find_backend("cpu/gold"), log), row("row", find_backend("cpu/gold"), log);
  const Problem p = make_problem({16, 16, 16}, 0.5f, 2.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure_paired(row, p, quick(6), vendor);
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  REQUIRE(r.compute.samples == 6);
  CHECK(r.vs_vendor_pairs == 6);
  // The row's first timed run verifies it; the pairs follow: row-vendor, vendor-row, row-vendor, ...
  std::vector<std::string> order;
  for (const std::string& call : from_first(log, "row:start"))
    if (call == "row:start" || call == "vendor:start") order.push_back(call);
  REQUIRE(order.size() >= 1 + 2 * 6);
  order.erase(order.begin());
  for (int pair = 0; pair < 6; ++pair) {
    const bool vendor_first = pair % 2 == 1;
    INFO("pair ", pair);
    CHECK(order[2 * pair] == (vendor_first ? "vendor:start" : "row:start"));
    CHECK(order[2 * pair + 1] == (vendor_first ? "row:start" : "vendor:start"));
  }
  // Each vendor start is a run of its own: a compute between its start and its stop.
  const CallLog vendor_calls = from_first(log, "vendor:start");
  CHECK(count(vendor_calls, "vendor:compute") == 6);
  CHECK(count(vendor_calls, "vendor:start") == 6);
}

TEST_CASE("the paired ratio is the median of per-pair ratios, not a mean of them nor a ratio of medians") {
  CallLog log;
  LoggedBackend vendor("vendor", find_backend("cpu/gold"), log), row("row", find_backend("cpu/gold"), log);
  // The row's first time is its verification run; the five pairs give ratios 1, 0.5, 3, 2, 0.3: their median is 1,
  // quartiles 0.5 and 2, their mean 1.36, the ratio of the medians 12 / 20 = 0.6, of the means 20.4 / 20 = 1.02.
  row.scripted_ms = {10, 10, 20, 10, 20, 40};
  vendor.scripted_ms = {10, 10, 30, 40, 12};
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure_paired(row, p, quick(5), vendor, &vendor);
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  REQUIRE(r.vs_vendor_pairs == 5);
  CHECK(r.vs_vendor == doctest::Approx(1.0));
  CHECK(r.vs_vendor_q1 == doctest::Approx(0.5));
  CHECK(r.vs_vendor_q3 == doctest::Approx(2.0));
  CHECK(r.vs_precision_vendor == doctest::Approx(1.0));
  // The compute figures are the five timed samples, not the verification run.
  CHECK(r.compute.samples == 5);
  CHECK(r.compute.median_ms == doctest::Approx(20));
  CHECK(r.compute.min_ms == doctest::Approx(10));
  CHECK(r.compute.max_ms == doctest::Approx(40));
  CHECK(r.gflops == doctest::Approx(p.shape.flops() / (20 * 1e6)));
}

TEST_CASE("a round read at a lowered clock is dropped with its partners' samples, and the kept clock recorded") {
  CallLog log;
  LoggedBackend vendor("vendor", find_backend("cpu/gold"), log), row("row", find_backend("cpu/gold"), log);
  // The row's first time is its verification run; after it every other round runs 9 ms at 70% of the clock. The
  // vendor's sample in those rounds reads 50 ms: kept, it would pull the ratio (2 in the kept rounds) away.
  row.scripted_ms = {1, 9};
  row.throttled_from_ms = 9;
  vendor.scripted_ms = {50, 2};
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure_paired(row, p, quick(5), vendor, nullptr);
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  CHECK(r.throttled_rounds == 5);
  CHECK(r.compute.samples == 5);
  CHECK(r.compute.max_ms == doctest::Approx(1));
  CHECK(r.vs_vendor_pairs == 5);
  CHECK(r.vs_vendor == doctest::Approx(2));
  CHECK(r.vs_vendor_q3 == doctest::Approx(2));
  CHECK(r.clock_mhz == doctest::Approx(LoggedBackend::kClockMax));
  CHECK(r.clock_max_mhz == doctest::Approx(LoggedBackend::kClockMax));
  CHECK(r.reason.find("clock") == std::string::npos);
}

TEST_CASE("a partner read at a lowered clock drops the round too") {
  CallLog log;
  LoggedBackend vendor("vendor", find_backend("cpu/gold"), log), row("row", find_backend("cpu/gold"), log);
  row.scripted_ms = {1};
  vendor.scripted_ms = {2, 50};
  vendor.throttled_from_ms = 50;
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure_paired(row, p, quick(5), vendor, nullptr);
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  CHECK(r.throttled_rounds >= 4);
  CHECK(r.vs_vendor_q3 == doctest::Approx(2));  // every kept pair holds a 2 ms vendor run, none a 50 ms one
}

TEST_CASE("a clock that stays low gives up dropping after kMaxThrottledInARow rounds and says so") {
  CallLog log;
  LoggedBackend row("row", find_backend("cpu/gold"), log);
  row.scripted_ms = {1};
  row.throttled_from_ms = 1;
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure(row, p, quick(3));
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  CHECK(r.throttled_rounds == 20);
  CHECK(r.compute.samples == 3);
  CHECK(r.reason.find("stayed under 95% of its maximum") != std::string::npos);
  CHECK(r.clock_mhz == doctest::Approx(0.7 * LoggedBackend::kClockMax));
}

TEST_CASE("a device that reports no clock keeps every round and records none") {
  CallLog log;
  LoggedBackend row("row", find_backend("cpu/gold"), log);
  row.report_clock = false;
  const Problem p = make_problem({16, 16, 16}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  const BenchmarkResult r = measure(row, p, quick(3));
  REQUIRE_MESSAGE(r.status == Status::ok, r.reason);
  CHECK(r.throttled_rounds == 0);
  CHECK(r.clock_mhz == 0);
  CHECK(r.clock_max_mhz == 0);
}

TEST_CASE("a wrong element in the last row and column fails a row verified against the full reference") {
  CallLog log;
  LoggedBackend wrong("wrong", find_backend("cpu/gold"), log);
  wrong.spoil_last_element = true;
  for (const GemmShape shape : {GemmShape{1, 1, 1}, GemmShape{17, 33, 65}, GemmShape{127, 253, 61}}) {
    const Problem p = make_problem(shape, 0.5f, 2.0f, matcompare_test::fresh_seed());
    REQUIRE_FALSE(p.sampled());
    const BenchmarkResult r = measure(wrong, p, quick(2));
    INFO(to_string(shape), ": ", r.reason);
    CHECK(r.status == Status::failed);
    CHECK(r.verified);
    CHECK_FALSE(r.errors.passed);
    CHECK(r.reason.find("differs from the float64 reference") != std::string::npos);
  }
}

TEST_CASE("with beta = 0, C is poisoned on every path: a kernel that reads it fails") {
  const std::unique_ptr<Backend> reads_c = cpu::make_cpu_backend(BackendInfo{"test/reads-c"}, reads_c_always);
  const MatrixF a = MatrixF::random(17, 65, matcompare_test::fresh_seed());
  const MatrixF b = MatrixF::random(65, 33, matcompare_test::fresh_seed());
  SUBCASE("Backend::gemm") {
    MatrixF c(17, 33, 0.0f);  // a caller's C of zeros: read as zeros, the wrong kernel would look right
    reads_c->gemm(1.0f, a, b, 0.0f, c);
    CHECK(std::isnan(c(0, 0)));
    CHECK(std::isnan(c(16, 32)));
    const ErrorStats errors = compare_to_reference(c, compute_reference(1.0f, a, b, 0.0f, c), Precision::fp32);
    CHECK_FALSE(errors.passed);
  }
  SUBCASE("the harness") {
    const Problem p = make_problem({17, 33, 65}, 1.0f, 0.0f, matcompare_test::fresh_seed());
    const BenchmarkResult r = measure(*reads_c, p, quick(2));
    CHECK(r.status == Status::failed);
    CHECK(r.reason == "NaN or Inf in the result");
  }
  SUBCASE("a CPU workspace's poison fills every element") {
    auto ws = find_backend("cpu/openblas").prepare({5, 7, 3});
    ws->poison_output({5, 7, 3});
    MatrixF c(5, 7, 1.0f);
    ws->download(c);
    for (std::size_t i = 0; i < c.size(); ++i) CHECK(std::isnan(c.data()[i]));
  }
}
