// The library refuses misuse with an exception that names the argument, before it reads or writes anything out
// of bounds (issue 28). Each case was a crash, a sanitizer report or a silent nonsense answer; scripts/sanitize.sh
// runs this suite under ASan and UBSan.
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../src/gpu/multi/mp_workspace.hpp"
#include "test_support.hpp"
#include <doctest/doctest.h>

using namespace matcompare;

namespace {

template <typename Enum>
Enum out_of_range(int value) {
  return static_cast<Enum>(value);
}

// A workspace that keeps the default download_rows and poison_output: C lives in a host matrix, and download
// refuses a target of another shape, as every real workspace does.
class HostWorkspace final : public Workspace {
 public:
  explicit HostWorkspace(const GemmShape& s) : c_(std::size_t(s.m), std::size_t(s.n), 1.0f) {}
  void upload(const MatrixF&, const MatrixF&) override {}
  void set_output(const MatrixF& c) override {
    check(c);
    c_ = c;
  }
  void compute(float, float) override {}
  void download(MatrixF& c) override {
    check(c);
    c = c_;
  }
  void flush_cache() override {}
  void synchronize() override {}
  std::unique_ptr<Stopwatch> stopwatch() override { return nullptr; }

 private:
  void check(const MatrixF& c) const {
    if (c.rows() != c_.rows() || c.cols() != c_.cols()) throw std::invalid_argument("C has the wrong shape");
  }
  MatrixF c_;
};

// What every workspace's download_rows must refuse, on an 8x8x8 workspace holding C.
void check_download_rows_refusals(Workspace& ws) {
  const GemmShape shape{8, 8, 8};
  MatrixF one(1, 8), two(2, 8);
  CHECK_THROWS_WITH_AS(ws.download_rows({100}, shape, one),
                       doctest::Contains("rows[0] = 100 is outside the workspace's 8 rows"), std::out_of_range);
  CHECK_THROWS_WITH_AS(ws.download_rows({3, -1}, shape, two), doctest::Contains("rows[1] = -1"), std::out_of_range);
  CHECK_THROWS_WITH_AS(ws.download_rows({8}, shape, one), doctest::Contains("rows[0] = 8"), std::out_of_range);
  CHECK_THROWS_WITH_AS(ws.download_rows({0, 1}, shape, one), doctest::Contains("out is 1x8"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ws.download_rows({50}, {100, 8, 8}, one), doctest::Contains("shape 100x8x8"),
                       std::invalid_argument);
  MatrixF row(1, 8, -7.0f);
  ws.download_rows({7}, shape, row);  // a good request still works
  MatrixF all(8, 8);
  ws.download(all);
  for (std::size_t j = 0; j < 8; ++j) CHECK(row(0, j) == all(7, j));
}

}  // namespace

TEST_CASE("run_benchmarks refuses a null backend, one outside the registry and an empty shape, naming its index") {
  const Backend& gold = find_backend("cpu/gold");
  BenchmarkOptions o;
  o.repetitions = 1;
  o.min_time_s = 0;
  int progress_calls = 0;
  const ProgressFn count = [&](const Progress&) { ++progress_calls; };
  CHECK_THROWS_WITH_AS(run_benchmarks({nullptr}, {{8, 8, 8}}, o, count), doctest::Contains("backends[0] is null"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_benchmarks({&gold, nullptr}, {{8, 8, 8}}, o, count),
                       doctest::Contains("backends[1] is null"), std::invalid_argument);
  struct Stranger final : Backend {
    BackendInfo info_{"test/stranger"};
    const BackendInfo& info() const override { return info_; }
    Availability availability() const override { return {true, ""}; }
    std::unique_ptr<Workspace> prepare(const GemmShape& s) const override { return std::make_unique<HostWorkspace>(s); }
  } stranger;
  CHECK_THROWS_WITH_AS(run_benchmarks({&stranger}, {{8, 8, 8}}, o, count),
                       doctest::Contains("backends[0] ('test/stranger') is not one of all_backends()"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run_benchmarks({&gold}, {{8, 8, 8}, {8, -1, 8}}, o, count),
                       doctest::Contains("shapes[1]: shape must have M, N, K >= 1, got 8x-1x8"), std::invalid_argument);
  CHECK(progress_calls == 0);
}

TEST_CASE("set_threads refuses a negative count or one above kMaxThreads, naming threads and the cap") {
  CHECK_THROWS_WITH_AS(set_threads(100000), doctest::Contains("threads must be 0 (one per logical processor) to 4096"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(set_threads(-1), doctest::Contains("got -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(set_threads(kMaxThreads + 1), doctest::Contains("got 4097"), std::invalid_argument);
  // The cap itself runs: a team of kMaxThreads threads computes a right answer.
  set_threads(kMaxThreads);
  const Backend& omp = find_backend("cpu/gold-omp");
  const MatrixF a = MatrixF::random(4, 3, 1), b = MatrixF::random(3, 2, 2);
  MatrixF c(4, 2);
  omp.gemm(1.0f, a, b, 0.0f, c);
  const Reference ref = compute_reference(1.0f, a, b, 0.0f, MatrixF(4, 2));
  CHECK(compare_to_reference(c, ref, Precision::fp32).passed);
  set_threads(0);
}

TEST_CASE("download_rows refuses rows outside the workspace, a shape not its own and a target of the wrong size") {
  SUBCASE("the default, through download()") {
    HostWorkspace ws({8, 8, 8});
    check_download_rows_refusals(ws);
    MatrixF one(1, 8);
    CHECK_THROWS_WITH_AS(ws.download_rows({0}, {8, -8, 8}, one), doctest::Contains("shape must have M, N, K >= 1"),
                         std::invalid_argument);
  }
  SUBCASE("the CPU workspace") {
    const Backend& gold = find_backend("cpu/gold");
    auto ws = gold.prepare({8, 8, 8});
    ws->upload(MatrixF::random(8, 8, 1), MatrixF::random(8, 8, 2));
    ws->compute(1.0f, 0.0f);
    check_download_rows_refusals(*ws);
    MatrixF one(1, 8);
    // The CPU workspace knows its K too.
    CHECK_THROWS_WITH_AS(ws->download_rows({0}, {8, 8, 9}, one), doctest::Contains("not the workspace's shape 8x8x8"),
                         std::invalid_argument);
  }
  SUBCASE("cuBLASMp's workspace, driven by the fake worker") {
    auto ws = gpu::make_mp_workspace(MATCOMPARE_FAKE_MP_WORKER, {0, 1}, {8, 8, 8});
    ws->upload(MatrixF::random(8, 8, 1), MatrixF::random(8, 8, 2));
    ws->compute(1.0f, 0.0f);
    check_download_rows_refusals(*ws);
  }
  SUBCASE("the GPU workspaces, where a GPU can run them") {
    for (const char* name : {"gpu/cublas-fp32", "gpu/naive", "gpu/cublasxt-fp32"}) {
      const Backend& backend = find_backend(name);
      if (!backend.availability().available) {
        MESSAGE(std::string(name) << " not checked: " << backend.availability().reason);
        continue;
      }
      INFO(std::string(name));
      auto ws = backend.prepare({8, 8, 8});
      const MatrixF a = MatrixF::random(8, 8, 1), b = MatrixF::random(8, 8, 2);
      ws->upload(a, b);
      ws->compute(1.0f, 0.0f);
      ws->synchronize();
      check_download_rows_refusals(*ws);
    }
  }
}

TEST_CASE("the default poison_output refuses an empty or negative shape, naming it") {
  HostWorkspace ws({8, 8, 8});
  CHECK_THROWS_WITH_AS(ws.poison_output({-1, 8, 8}), doctest::Contains("poison_output: shape must have M, N, K >= 1"),
                       std::invalid_argument);
  CHECK_THROWS_AS(ws.poison_output({9, 8, 8}), std::invalid_argument);  // set_output's own check
  ws.poison_output({8, 8, 8});
  MatrixF c(8, 8);
  ws.download(c);
  CHECK(std::isnan(c(7, 7)));
}

TEST_CASE("check_options refuses absurd times, an unknown InputValues and a bad full_reference_max_flops") {
  struct Bad {
    const char* name;
    void (*spoil)(BenchmarkOptions&);
  };
  const Bad cases[] = {
      {"budget_s", [](BenchmarkOptions& o) { o.budget_s = 1e300; }},
      {"budget_s", [](BenchmarkOptions& o) { o.budget_s = kMaxBudgetS * 1.001; }},
      {"time_limit_s", [](BenchmarkOptions& o) { o.time_limit_s = 1e300; }},
      {"time_limit_s", [](BenchmarkOptions& o) { o.time_limit_s = kMaxTimeLimitS + 1; }},
      {"min_time_s", [](BenchmarkOptions& o) { o.min_time_s = 1e300; }},
      {"min_time_s", [](BenchmarkOptions& o) { o.min_time_s = kMaxMinTimeS + 1; }},
      {"input_values", [](BenchmarkOptions& o) { o.input_values = out_of_range<InputValues>(42); }},
      {"input_values", [](BenchmarkOptions& o) { o.input_values = out_of_range<InputValues>(-1); }},
      {"full_reference_max_flops", [](BenchmarkOptions& o) { o.full_reference_max_flops = std::nan(""); }},
      {"full_reference_max_flops", [](BenchmarkOptions& o) { o.full_reference_max_flops = -1; }},
      {"full_reference_max_flops", [](BenchmarkOptions& o) { o.full_reference_max_flops = HUGE_VAL; }},
  };
  const Backend& gold = find_backend("cpu/gold");
  const Problem problem = make_problem({4, 4, 4}, 1, 0, 1);
  for (const Bad& bad : cases) {
    INFO(std::string(bad.name));
    BenchmarkOptions o;
    bad.spoil(o);
    CHECK_THROWS_WITH_AS(check_options(o), doctest::Contains((std::string("BenchmarkOptions::") + bad.name).c_str()),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(measure(gold, problem, o), doctest::Contains(bad.name), std::invalid_argument);
    CHECK_THROWS_WITH_AS(measure_paired(gold, problem, o, gold), doctest::Contains(bad.name), std::invalid_argument);
    CHECK_THROWS_WITH_AS(run_benchmarks({&gold}, {{4, 4, 4}}, o), doctest::Contains(bad.name), std::invalid_argument);
  }
  // The bounds themselves are accepted.
  BenchmarkOptions edge;
  edge.budget_s = kMaxBudgetS;
  edge.time_limit_s = kMaxTimeLimitS;
  edge.min_time_s = kMaxMinTimeS;
  edge.full_reference_max_flops = 0;
  CHECK_NOTHROW(check_options(edge));
}

TEST_CASE("describe_sample and sampled_rows refuse sizes below 1, naming the argument") {
  CHECK_THROWS_WITH_AS(describe_sample(5, -1), doctest::Contains("describe_sample: m must be >= 1, got -1"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(describe_sample(0, 5), doctest::Contains("rows must be from 1 to m = 5, got 0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(describe_sample(6, 5), doctest::Contains("rows must be from 1 to m = 5, got 6"),
                       std::invalid_argument);
  CHECK(describe_sample(5, 5).rfind("5 rows of 5", 0) == 0);
  CHECK_THROWS_WITH_AS(sampled_rows(0), doctest::Contains("sampled_rows: m must be >= 1, got 0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(sampled_rows(-3), doctest::Contains("got -3"), std::invalid_argument);
  CHECK(sampled_rows(1) == std::vector<std::int64_t>{0});
}

TEST_CASE("blas_ratio_threshold, unit_roundoff and to_string refuse a negative k or an enum value out of range") {
  CHECK_THROWS_WITH_AS(blas_ratio_threshold(Precision::fp32, -1),
                       doctest::Contains("blas_ratio_threshold: k must be >= 0, got -1"), std::invalid_argument);
  CHECK(blas_ratio_threshold(Precision::fp32, 0) == 2.0);
  const Precision seven = out_of_range<Precision>(7);
  CHECK_THROWS_WITH_AS(blas_ratio_threshold(seven, 4), doctest::Contains("Precision 7 is neither fp32 nor tf32"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(unit_roundoff(seven), doctest::Contains("unit_roundoff: Precision 7"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(to_string(seven), doctest::Contains("to_string: Precision 7"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(to_string(out_of_range<DeviceKind>(5)), doctest::Contains("DeviceKind 5"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(to_string(out_of_range<Status>(9)), doctest::Contains("Status 9"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(to_string(out_of_range<InputValues>(42)), doctest::Contains("to_string: InputValues 42"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(describe(out_of_range<InputValues>(42)), doctest::Contains("describe: InputValues 42"),
                       std::invalid_argument);
  CHECK(to_string(Precision::tf32) == "tf32");
  CHECK(to_string(DeviceKind::gpu) == "gpu");
}

TEST_CASE("compare_to_reference refuses a reference whose scale or k does not fit") {
  const MatrixF a = MatrixF::random(3, 2, 1), b = MatrixF::random(2, 4, 2), c(3, 4);
  Reference ref = compute_reference(1.0f, a, b, 0.0f, c);
  MatrixF result(3, 4);
  Reference short_scale = ref;
  short_scale.scale = MatrixD(1, 4);  // read past its end, element by element, before
  CHECK_THROWS_WITH_AS(compare_to_reference(result, short_scale, Precision::fp32),
                       doctest::Contains("ref.scale is 1x4 but ref.value is 3x4"), std::invalid_argument);
  Reference negative_k = ref;
  negative_k.k = -1;
  CHECK_THROWS_WITH_AS(compare_to_reference(result, negative_k, Precision::fp32),
                       doctest::Contains("ref.k must be >= 0, got -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(compare_to_reference(result, ref, out_of_range<Precision>(3)), doctest::Contains("Precision 3"),
                       std::invalid_argument);
}

TEST_CASE("host_bytes_needed, verified_on_sample and check_host_memory refuse a shape below 1, naming it") {
  const BenchmarkOptions o;
  CHECK_THROWS_WITH_AS(host_bytes_needed({-1, 8, 8}, 0.0f, o),
                       doctest::Contains("host_bytes_needed: shape must have M, N, K >= 1, got -1x8x8"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(verified_on_sample({8, 8, -2}, o), doctest::Contains("verified_on_sample: shape"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_host_memory({0, 8, 8}), doctest::Contains("check_host_memory: shape"),
                       std::invalid_argument);
  BenchmarkOptions nan_flops;
  nan_flops.full_reference_max_flops = std::nan("");
  CHECK_THROWS_WITH_AS(host_bytes_needed({8, 8, 8}, 0.0f, nan_flops), doctest::Contains("full_reference_max_flops"),
                       std::invalid_argument);
  CHECK(host_bytes_needed({8, 8, 8}, 0.0f, o) > 0);
}

TEST_CASE("make_problem refuses a non-finite alpha or beta and an unknown InputValues, naming the argument") {
  CHECK_THROWS_WITH_AS(make_problem({4, 4, 4}, HUGE_VALF, 0, 1),
                       doctest::Contains("make_problem: alpha must be finite"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_problem({4, 4, 4}, 1, std::nanf(""), 1), doctest::Contains("make_problem: beta"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_problem({4, 4, 4}, 1, 0, 1, out_of_range<InputValues>(42)),
                       doctest::Contains("make_problem: values: InputValues 42"), std::invalid_argument);
  BenchmarkOptions negative_flops;
  negative_flops.full_reference_max_flops = -5;
  CHECK_THROWS_WITH_AS(make_problem({4, 4, 4}, 1, 0, 1, InputValues::uniform, negative_flops),
                       doctest::Contains("full_reference_max_flops"), std::invalid_argument);
}

TEST_CASE("measure and measure_paired refuse a problem whose parts do not fit its shape, naming the part") {
  const Backend& gold = find_backend("cpu/gold");
  BenchmarkOptions o;
  o.repetitions = 1;
  o.min_time_s = 0;
  const Problem good = make_problem({16, 8, 8}, 1, 0, 1);
  struct Bad {
    const char* name;
    void (*spoil)(Problem&);
  };
  const Bad cases[] = {
      {"shape must have M, N, K >= 1", [](Problem& p) { p = Problem{}; }},
      {"Problem::a is 2x8 but must be 16x8", [](Problem& p) { p.a = MatrixF(2, 8); }},
      {"Problem::b is 8x7", [](Problem& p) { p.b = MatrixF(8, 7); }},
      {"Problem::c is 3x3", [](Problem& p) { p.c = MatrixF(3, 3); }},
      {"Problem::alpha must be finite", [](Problem& p) { p.alpha = HUGE_VALF; }},
      {"Problem::reference.value is 4x8", [](Problem& p) { p.reference.value = MatrixD(4, 8); }},
      {"Problem::reference.scale is 16x1", [](Problem& p) { p.reference.scale = MatrixD(16, 1); }},
      {"Problem::reference.k is 9", [](Problem& p) { p.reference.k = 9; }},
      {"Problem::verified_rows[1] = 16 is outside the 16 rows", [](Problem& p) { p.verified_rows = {0, 16}; }},
  };
  for (const Bad& bad : cases) {
    INFO(std::string(bad.name));
    Problem p = good;
    bad.spoil(p);
    CHECK_THROWS_WITH_AS(check_problem(p), doctest::Contains(bad.name), std::invalid_argument);
    CHECK_THROWS_WITH_AS(measure(gold, p, o), doctest::Contains(bad.name), std::invalid_argument);
    CHECK_THROWS_WITH_AS(measure_paired(gold, p, o, gold), doctest::Contains(bad.name), std::invalid_argument);
  }
  // A trial of the first rows of a 64-row problem copies them out of A: from a 1-row A it read past its end.
  Problem wide = make_problem({64, 2048, 2048}, 1, 0, 1);
  wide.a = MatrixF(1, 2048);
  CHECK_THROWS_WITH_AS(measure(gold, wide, o), doctest::Contains("Problem::a is 1x2048"), std::invalid_argument);
  CHECK_NOTHROW(check_problem(good));
  Problem no_c = good;
  no_c.c = MatrixF();  // never read with beta = 0
  CHECK_NOTHROW(check_problem(no_c));
  BenchmarkOptions sample_all = o;
  sample_all.full_reference_max_flops = 0;
  CHECK_NOTHROW(check_problem(make_problem({16, 8, 8}, 1, 0, 1, InputValues::uniform, sample_all)));
  CHECK_NOTHROW(check_problem(make_problem({16, 8, 8}, 1, 2, 1, InputValues::uniform, sample_all)));
}

TEST_CASE("Matrix refuses a size over 2^63 - 1 or one whose bytes overflow, naming rows or cols") {
  const std::size_t negative_one = std::size_t(std::int64_t(-1));
  CHECK_THROWS_WITH_AS(MatrixF(negative_one, 2), doctest::Contains("rows = 18446744073709551615 is over 2^63 - 1"),
                       std::length_error);
  CHECK_THROWS_WITH_AS(MatrixF(2, negative_one), doctest::Contains("cols = 18446744073709551615"), std::length_error);
  CHECK_THROWS_WITH_AS(MatrixF(negative_one, 0), doctest::Contains("rows ="), std::length_error);
  CHECK_THROWS_WITH_AS(MatrixF(std::size_t(1) << 40, std::size_t(1) << 40),
                       doctest::Contains("rows x cols = 1099511627776x1099511627776"), std::length_error);
  // 2^62 floats fit in std::size_t as a count but not as bytes.
  CHECK_THROWS_WITH_AS(MatrixF(std::size_t(1) << 31, std::size_t(1) << 31, 0.0f), doctest::Contains("overflow"),
                       std::length_error);
  CHECK_THROWS_AS(MatrixD::random(std::size_t(1) << 62, 2, 1), std::length_error);
  CHECK_THROWS_AS(MatrixF::identity(negative_one), std::length_error);
  CHECK(MatrixF(0, 5).empty());
}

TEST_CASE("write_results and write_backend_list refuse a Format out of range and a null backend") {
  std::ostringstream out;
  const Format nine = out_of_range<Format>(9);
  CHECK_THROWS_WITH_AS(write_results(out, nine, RunContext{}, {}), doctest::Contains("write_results: Format 9"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(write_backend_list(out, nine, {}), doctest::Contains("write_backend_list: Format 9"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(write_backend_list(out, Format::table, {&find_backend("cpu/gold"), nullptr}),
                       doctest::Contains("backends[1] is null"), std::invalid_argument);
  CHECK(out.str().empty());
}

TEST_CASE("select_gpus refuses an empty list, a negative index and one listed twice") {
  CHECK_THROWS_WITH_AS(select_gpus({}), doctest::Contains("select_gpus: devices: the list of GPUs is empty"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(select_gpus({-1}), doctest::Contains("select_gpus: devices: GPU -1 does not exist"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(select_gpus({gpu_count()}), doctest::Contains("does not exist"), std::invalid_argument);
}
