// Accuracy as a measured axis (issue 31): every row's relative error on a fixed shape against the documented target
// of its precision (docs/accuracy.md), on both value distributions. The BLAS bound every run checks (K + 2 units of
// roundoff per element) is what a correct summation can never exceed; this target is what a good one achieves, so a
// row that silently drops bits, while staying inside the bound, fails here.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "test_support.hpp"

using namespace matcompare;

namespace {

// The fixed shape: K deep enough for the accumulation to show, M and N small enough for the ladder's slowest rows.
constexpr GemmShape kShape{256, 256, 4096};

// docs/accuracy.md, "Targets": an FP32 row's relative Frobenius error is at most half of sqrt(K) unit roundoffs; a
// sequential sum measures 0.30 of them on the 2-core VM, blocked ones 0.02–0.12.
double fp32_target(std::int64_t k) { return 0.5 * std::sqrt(double(k)) * unit_roundoff(Precision::fp32); }

// Rows whose documented target is not met yet, with where the measured miss is written down. gpu/tensor-core-3xtf32
// is sold as FP32-accurate and measured 12 times less accurate than FP32 at 8192^3 (issue 31). Rows of several GPUs
// start worker processes per call: the single-GPU rows they are built on are checked.
bool exempt(const BackendInfo& info) { return info.name == "gpu/tensor-core-3xtf32" || info.multi_gpu; }

}  // namespace

std::string matcompare_test::skip_reason() { return ""; }

TEST_CASE("every FP32 row is as accurate as its documented target on both value distributions") {
  int checked = 0;
  for (InputValues values : {InputValues::uniform, InputValues::reals_1_100}) {
    const std::uint64_t seed = matcompare_test::fresh_seed();
    const Problem p = make_problem(kShape, 1.0f, 0.0f, seed, values);
    for (const Backend* backend : all_backends()) {
      const BackendInfo& info = backend->info();
      if (info.precision != Precision::fp32 || exempt(info) || !backend->availability().available) continue;
      MatrixF c(kShape.m, kShape.n);
      backend->gemm(p.alpha, p.a, p.b, p.beta, c);
      const ErrorStats e = compare_to_reference(c, p.reference, info.precision);
      INFO(info.name, " on ", to_string(values), " seed=", seed, ": relative error ", e.rel_frobenius, ", target ",
           fp32_target(kShape.k));
      CHECK(e.passed);
      CHECK(e.rel_frobenius <= fp32_target(kShape.k));
      ++checked;
    }
  }
  CHECK(checked >= 2 * 14);  // the CPU rows at least: 12 of the ladder, cpu/blis and cpu/openblas
}
