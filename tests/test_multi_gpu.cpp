// Issue 10's parts that need no GPU: --devices parsing, the host-memory rule, verification on a sample of
// rows of C, and the multi-GPU rows' fields on a machine where they cannot run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "../src/core/host_memory.hpp"
#include "test_support.hpp"

using namespace matcompare;

TEST_CASE("--devices: a list or all, each GPU once and existing, else one message naming the problem") {
  CHECK(parse_device_list("0,1", 2) == std::vector<int>{0, 1});
  CHECK(parse_device_list("1", 2) == std::vector<int>{1});
  CHECK(parse_device_list("1,0", 4) == std::vector<int>{1, 0});
  CHECK(parse_device_list("all", 3) == std::vector<int>{0, 1, 2});
  CHECK_THROWS_WITH_AS(parse_device_list("0,0", 2), doctest::Contains("GPU 0 is listed twice"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_device_list("0,1", 1), doctest::Contains("GPU 1 does not exist: this machine has 1 GPU"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_device_list("0", 0), doctest::Contains("this machine has no GPU"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_device_list("all", 0), doctest::Contains("no GPU"), std::invalid_argument);
  for (const char* bad : {"", "a", "0,", ",1", "0,,1", "-1", "1.5", " 0", "0x1", "9999999999"})
    CHECK_THROWS_WITH_AS(parse_device_list(bad, 8), doctest::Contains("is not a GPU index"), std::invalid_argument);
}

TEST_CASE("host memory: the larger of MemTotal and the cgroup limit, or the override") {
  const double gib = double(1ull << 30);
  const std::string balloon = "MemTotal:       32505856 kB\nMemFree:  1000 kB\nMemAvailable: 2000 kB\n";  // 31 GiB
  CHECK(host_memory_bytes(balloon, "274877906944\n", nullptr) == 256 * gib);  // the cgroup's 256 GiB wins
  CHECK(host_memory_bytes(balloon, "max\n", nullptr) == 31 * gib);
  CHECK(host_memory_bytes(balloon, "", nullptr) == 31 * gib);                 // no cgroup v2 file
  CHECK(host_memory_bytes(balloon, "1073741824", nullptr) == 31 * gib);       // a smaller limit does not lower it
  CHECK(host_memory_bytes(balloon, "max", "512") == 512 * gib);
  CHECK(host_memory_bytes("", "", "0.5") == 0.5 * gib);
  CHECK_THROWS_WITH_AS(host_memory_bytes(balloon, "max", "lots"), doctest::Contains(kHostMemoryOverrideVariable),
                       std::invalid_argument);
  CHECK_THROWS_AS(host_memory_bytes(balloon, "max", "-4"), std::invalid_argument);
  CHECK_THROWS_AS(host_memory_bytes("", "max", nullptr), std::runtime_error);
  CHECK(host_memory_bytes() > 0);  // this machine's own files
}

TEST_CASE("a problem verified on a sample needs A, B and one C-sized buffer, not a float64 reference of all") {
  const GemmShape huge{131072, 131072, 131072};
  const BenchmarkOptions o;
  REQUIRE(verified_on_sample(huge, o));
  CHECK_FALSE(verified_on_sample({4096, 4096, 4096}, o));
  const double matrix = 4.0 * 131072.0 * 131072.0;  // 64 GiB
  const double beta_zero = host_bytes_needed(huge, 0.0f, o);
  CHECK(beta_zero >= 3 * matrix);
  CHECK(beta_zero < 3.02 * matrix);  // A, B and one C: no NaN copy, no full reference
  CHECK(host_bytes_needed(huge, 1.0f, o) - beta_zero == doctest::Approx(matrix));  // C itself when beta reads it
  CHECK_THROWS_WITH_AS(check_host_memory({1 << 22, 1 << 22, 1 << 22}), doctest::Contains("GiB of host memory"),
                       std::runtime_error);
}

TEST_CASE("sampled rows are spread evenly from the first row to the last") {
  const auto rows = sampled_rows(131072);
  REQUIRE(rows.size() == std::size_t(kSampledRows));
  CHECK(rows.front() == 0);
  CHECK(rows.back() == 131071);
  CHECK(std::is_sorted(rows.begin(), rows.end()));
  CHECK(std::adjacent_find(rows.begin(), rows.end()) == rows.end());
  CHECK(sampled_rows(5) == std::vector<std::int64_t>{0, 1, 2, 3, 4});
  CHECK(sampled_rows(1) == std::vector<std::int64_t>{0});
  CHECK(describe_sample(64, 131072).find("64 rows of 131072") == 0);
  CHECK(sampled_rows(1000, 3) == std::vector<std::int64_t>{0, 499, 999});
  CHECK_THROWS_WITH_AS(sampled_rows(10, 0), doctest::Contains("count must be >= 1, got 0"), std::invalid_argument);
}

namespace {
// The largest gap between consecutive checked rows (they start at the first row and end at the last).
std::int64_t widest_gap(const std::vector<std::int64_t>& rows) {
  std::int64_t gap = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) gap = std::max(gap, rows[i] - rows[i - 1]);
  return gap;
}
}  // namespace

TEST_CASE("a sampled verification checks a row in every 64-row band where its reference's cost allows") {
  const BenchmarkOptions o;
  CHECK_FALSE(verified_on_sample({4096, 4096, 4096}, o));  // a full reference: 2.7e11 flops on the host
  CHECK(verified_on_sample({8192, 8192, 8192}, o));
  CHECK(sampled_row_count({8192, 8192, 8192}, o) == 129);
  CHECK(widest_gap(sampled_rows(8192, 129)) <= kSampledRowSpacing);
  for (const GemmShape shape : {GemmShape{8192, 4096, 14336}, GemmShape{16384, 6144, 4096}, GemmShape{700, 700, 1000000}}) {
    CAPTURE(shape.m);
    const std::int64_t rows = sampled_row_count(shape, o);
    CHECK(widest_gap(sampled_rows(shape.m, rows)) <= kSampledRowSpacing);
    CHECK(4.0 * double(rows) * double(shape.n) * double(shape.k) <= o.full_reference_max_flops);
  }
  // Where the spacing would cost more than a full reference may, as many rows as that allows, at least 64.
  const std::int64_t lm_head = sampled_row_count({16384, 128256, 4096}, o);
  CHECK(lm_head == 237);
  CHECK(4.0 * double(lm_head) * 128256 * 4096 <= o.full_reference_max_flops);
  CHECK(sampled_row_count({131072, 131072, 131072}, o) == kSampledRows);
  // The host memory planned for a sampled problem holds that many rows' reference.
  const double n = 8192;
  CHECK(host_bytes_needed({8192, 8192, 8192}, 0.0f, o) ==
        doctest::Approx(4 * (2 * n * n) + 4 * n * n + 129 * (16 * n + 16 * n) + 16 * n * 256));
  CHECK(sampled_row_count({40, 1 << 20, 1 << 20}, o) == 40);  // all rows, however costly
  // A problem made on such a sample carries those rows and their reference.
  BenchmarkOptions small = o;
  small.full_reference_max_flops = 4.0 * 300 * 64 * 64;  // room for 300 rows of a 64 x 64 product
  const Problem p = make_problem({20000, 64, 64}, 1.0f, 0.0f, 7, InputValues::uniform, small);
  REQUIRE(p.sampled());
  CHECK(p.verified_rows == sampled_rows(20000, 300));
  CHECK(p.reference.value.rows() == 300);
  CHECK(widest_gap(p.verified_rows) == 67);  // 300 rows over 20000 cannot be 64 apart
}

TEST_CASE("the reference of some rows equals those rows of the full reference") {
  const GemmShape shape{97, 300, 70};  // N over one B panel of 256 columns: the panels' seam is checked
  const Problem full = make_problem(shape, -0.75f, 1.5f, matcompare_test::fresh_seed());
  const std::vector<std::int64_t> rows{0, 13, 50, 96};
  const Reference part = compute_reference_rows(full.alpha, full.a, full.b, full.beta, full.c, rows);
  REQUIRE(part.value.rows() == rows.size());
  REQUIRE(part.value.cols() == std::size_t(shape.n));
  CHECK(part.k == shape.k);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < std::size_t(shape.n); ++j) {
      CHECK(part.value(i, j) == doctest::Approx(full.reference.value(std::size_t(rows[i]), j)).epsilon(1e-12));
      CHECK(part.scale(i, j) == doctest::Approx(full.reference.scale(std::size_t(rows[i]), j)).epsilon(1e-12));
    }
  CHECK_THROWS_AS(compute_reference_rows(1, full.a, full.b, 0, MatrixF(), {97}), std::invalid_argument);
}

namespace {

BenchmarkOptions forced_to_sample() {
  BenchmarkOptions o;
  o.full_reference_max_flops = 1;  // every problem is verified on a sample
  o.repetitions = 2;
  o.min_time_s = 0;
  return o;
}

// cpu/openblas with one element of C's last row off by a little more than the pass rule allows.
class WrongLastRow final : public Backend {
 public:
  explicit WrongLastRow(const Backend& inner) : inner_(inner) {
    info_ = inner.info();
    info_.name = "test/wrong-last-row";
    info_.vendor = info_.precision_vendor = false;
  }
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override { return inner_.availability(); }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    return std::make_unique<Wrong>(inner_.prepare(shape), shape);
  }

 private:
  struct Wrong final : Workspace {
    Wrong(std::unique_ptr<Workspace> inner, GemmShape shape) : inner(std::move(inner)), shape(shape) {}
    void upload(const MatrixF& a, const MatrixF& b) override { inner->upload(a, b); }
    void set_output(const MatrixF& c) override { inner->set_output(c); }
    void compute(float alpha, float beta) override { inner->compute(alpha, beta); }
    void download(MatrixF& c) override {
      inner->download(c);
      c(c.rows() - 1, c.cols() / 2) += 1e-2f;
    }
    void flush_cache() override { inner->flush_cache(); }
    void synchronize() override { inner->synchronize(); }
    std::unique_ptr<Stopwatch> stopwatch() override { return inner->stopwatch(); }
    std::unique_ptr<Workspace> inner;
    GemmShape shape;
  };
  const Backend& inner_;
  BackendInfo info_;
};

}  // namespace

TEST_CASE("a problem forced to be verified on a sample: the sampled rows pass, and a wrong sampled row fails") {
  const BenchmarkOptions o = forced_to_sample();
  for (float beta : {0.0f, 2.0f}) {
    CAPTURE(beta);
    const Problem p = make_problem({150, 90, 70}, 0.5f, beta, matcompare_test::fresh_seed(), InputValues::uniform, o);
    REQUIRE(p.sampled());
    CHECK(p.verified_rows == sampled_rows(150));
    CHECK(p.reference.value.rows() == std::size_t(kSampledRows));
    CHECK(p.c.empty() == (beta == 0.0f));  // never read with beta = 0, so never drawn
    const BenchmarkResult r = measure(find_backend("cpu/tiling"), p, o);
    CHECK_MESSAGE(r.status == Status::ok, r.reason);
    CHECK(r.errors.passed);
    CHECK(r.verified_rows == kSampledRows);
    CHECK(r.verification_sample == describe_sample(kSampledRows, 150));
    CHECK(r.total.samples > 0);
    const BenchmarkResult wrong = measure(WrongLastRow(find_backend("cpu/openblas")), p, o);
    CHECK(wrong.status == Status::failed);
    CHECK(wrong.reason.find("blas ratio") != std::string::npos);
  }
  // A full reference covers every row and says so.
  const Problem whole = make_problem({40, 30, 20}, 1, 0, 1);
  CHECK_FALSE(whole.sampled());
  const BenchmarkResult r = measure(find_backend("cpu/tiling"), whole, BenchmarkOptions{});
  CHECK(r.verified_rows == 40);
  CHECK(r.verification_sample.empty());
}

TEST_CASE("multi-GPU rows: listed once, after the single-GPU vendor, and unavailable with a reason where they cannot run") {
  const Backend& xt = find_backend("gpu/cublasxt-fp32");
  const Backend& mp = find_backend("gpu/cublasmp-fp32");
  CHECK(xt.info().multi_gpu);
  CHECK(xt.info().host_resident);
  CHECK(mp.info().multi_gpu);
  CHECK_FALSE(mp.info().host_resident);
  BenchmarkOptions o;
  o.repetitions = 1;
  o.min_time_s = 0;
  const auto results = run_benchmarks(select_backends("cublasxt,cublasmp"), {{64, 64, 64}}, o);
  std::vector<std::string> names;
  for (const auto& r : results) names.push_back(r.backend.name);
  // The single-GPU vendor comes along, so each multi-GPU row has its speedup baseline in the same run.
  CHECK(names == std::vector<std::string>{"gpu/cublas-fp32", "gpu/cublasxt-fp32", "gpu/cublasmp-fp32"});
  for (const auto& r : results) {
    CHECK(r.devices >= 1);
    if (!r.backend.multi_gpu) continue;
    CHECK(r.speedup_basis == (r.backend.host_resident ? "end-to-end" : "compute"));
    CHECK(r.vs_vendor_pairs == 0);  // compared by speedup, not paired
    // Where the rows run, test_gpu_backends checks their speedup.
    if (r.status != Status::unavailable) continue;
    CHECK_FALSE(r.reason.empty());
    CHECK(r.speedup == 0);
  }
}
