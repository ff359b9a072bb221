#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "matcompare/error_metrics.hpp"
#include "matcompare/layout.hpp"

using namespace matcompare;

namespace {

Reference hand_reference() {
  // A = [1 2; 3 4], B = I, C = [1 1; 1 1], α = 2, β = 3: value = 2·A + 3, scale = 2·|A| + 3.
  MatrixF a(2, 2), b = MatrixF::identity(2), c(2, 2, 1.0f);
  a(0, 0) = 1, a(0, 1) = 2, a(1, 0) = 3, a(1, 1) = 4;
  return compute_reference(2.0f, a, b, 3.0f, c);
}

}  // namespace

TEST_CASE("the float64 reference is alpha*A*B + beta*C and its scale is |alpha||A||B| + |beta||C|") {
  const Reference ref = hand_reference();
  CHECK(ref.value(0, 0) == 5);
  CHECK(ref.value(0, 1) == 7);
  CHECK(ref.value(1, 0) == 9);
  CHECK(ref.value(1, 1) == 11);
  CHECK(ref.scale(1, 1) == 11);
  CHECK(ref.k == 2);
  MatrixF a(2, 2, -1.0f), b(2, 2, 1.0f), c(2, 2, -1.0f);
  const Reference negative = compute_reference(-1.0f, a, b, -2.0f, c);
  CHECK(negative.value(0, 0) == 4);   // -1·(-2) + -2·(-1)
  CHECK(negative.scale(0, 0) == 4);   // 1·2 + 2·1
}

TEST_CASE("an exact result has zero error and passes") {
  const Reference ref = hand_reference();
  const MatrixF exact = ref.value.cast<float>();
  const ErrorStats s = compare_to_reference(exact, ref, Precision::fp32);
  CHECK(s.max_abs == 0);
  CHECK(s.sum_abs == 0);
  CHECK(s.rel_frobenius == 0);
  CHECK(s.blas_ratio == 0);
  CHECK(s.passed);
}

TEST_CASE("hand-made errors give the expected max, sum, relative and BLAS-ratio values") {
  const Reference ref = hand_reference();
  MatrixF x = ref.value.cast<float>();
  x(0, 1) += 0.5f;   // scale 7
  x(1, 0) -= 0.25f;  // scale 9
  const ErrorStats s = compare_to_reference(x, ref, Precision::fp32);
  CHECK(s.max_abs == 0.5);
  CHECK(s.sum_abs == 0.75);
  CHECK(s.rel_frobenius == doctest::Approx(std::sqrt(0.25 + 0.0625) / std::sqrt(25.0 + 49 + 81 + 121)));
  CHECK(s.blas_ratio == doctest::Approx(0.5 / (std::ldexp(1.0, -24) * 7)));
  CHECK_FALSE(s.passed);
}

TEST_CASE("NaN or Inf anywhere fails, whatever the other elements") {
  const Reference ref = hand_reference();
  MatrixF x = ref.value.cast<float>();
  x(1, 1) = std::numeric_limits<float>::quiet_NaN();
  ErrorStats s = compare_to_reference(x, ref, Precision::fp32);
  CHECK_FALSE(s.finite);
  CHECK_FALSE(s.passed);
  CHECK(std::isnan(s.max_abs));
  x(1, 1) = std::numeric_limits<float>::infinity();
  s = compare_to_reference(x, ref, Precision::tf32);
  CHECK_FALSE(s.passed);
}

TEST_CASE("thresholds scale with K and the precision") {
  CHECK(blas_ratio_threshold(Precision::fp32, 10) == 12);
  CHECK(blas_ratio_threshold(Precision::fp32, 4096) == 4098);
  CHECK(blas_ratio_threshold(Precision::tf32, 8) == doctest::Approx(4 + 10.0 / 8192));
  CHECK(unit_roundoff(Precision::fp32) == std::ldexp(1.0, -24));
  CHECK(unit_roundoff(Precision::tf32) == std::ldexp(1.0, -11));
  // An error of a few TF32 roundings passes as TF32 and fails as FP32.
  const Reference ref = hand_reference();
  MatrixF x = ref.value.cast<float>();
  x(1, 1) = float(11.0 * (1 + 2 * std::ldexp(1.0, -11)));
  CHECK(compare_to_reference(x, ref, Precision::tf32).passed);
  CHECK_FALSE(compare_to_reference(x, ref, Precision::fp32).passed);
}

TEST_CASE("a result of the wrong shape is rejected") {
  const Reference ref = hand_reference();
  CHECK_THROWS_AS(compare_to_reference(MatrixF(2, 3), ref, Precision::fp32), std::invalid_argument);
}

TEST_CASE("the reference of every layout is that of the operands transposed back, in full and by rows") {
  // A stored transposed is K×M, B N×K; the reference must read them as op(A) M×K and op(B) K×N.
  const std::size_t m = 5, n = 7, k = 3;
  const MatrixF a = MatrixF::random(m, k, 11), b = MatrixF::random(k, n, 12), c = MatrixF::random(m, n, 13);
  MatrixF at(k, m), bt(n, k);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) at(p, i) = a(i, p);
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t j = 0; j < n; ++j) bt(j, p) = b(p, j);
  const Reference nn = compute_reference(0.5f, a, b, 2.0f, c);
  const std::vector<std::int64_t> rows{0, 3, 4};
  const Reference nn_rows = compute_reference_rows(0.5f, a, b, 2.0f, c, rows);
  for (Layout layout : {Layout::nt, Layout::tn, Layout::tt}) {
    CAPTURE(to_string(layout));
    const MatrixF& sa = a_transposed(layout) ? at : a;
    const MatrixF& sb = b_transposed(layout) ? bt : b;
    const Reference full = compute_reference(0.5f, sa, sb, 2.0f, c, layout);
    const Reference by_rows = compute_reference_rows(0.5f, sa, sb, 2.0f, c, rows, layout);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        CHECK(full.value(i, j) == doctest::Approx(nn.value(i, j)).epsilon(1e-12));
        CHECK(full.scale(i, j) == doctest::Approx(nn.scale(i, j)).epsilon(1e-12));
      }
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t j = 0; j < n; ++j) {
        CHECK(by_rows.value(r, j) == doctest::Approx(nn_rows.value(r, j)).epsilon(1e-12));
        CHECK(by_rows.scale(r, j) == doctest::Approx(nn_rows.scale(r, j)).epsilon(1e-12));
      }
    // The operands as NN would store them do not fit a transposing layout (3x5 is not 5x3 when M != K).
    CHECK_THROWS_AS(compute_reference(0.5f, a_transposed(layout) ? a : at, sb, 2.0f, c, layout), std::invalid_argument);
  }
}

TEST_CASE("layouts: names both ways, case-blind, and nothing else") {
  for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) CHECK(parse_layout(to_string(layout)) == layout);
  CHECK(to_string(Layout::nt) == "NT");
  CHECK(parse_layout("tn") == Layout::tn);
  CHECK(a_transposed(Layout::tn));
  CHECK_FALSE(b_transposed(Layout::tn));
  CHECK(b_transposed(Layout::nt));
  CHECK_THROWS_AS(parse_layout("NX"), std::invalid_argument);
  CHECK_THROWS_AS(parse_layout(""), std::invalid_argument);
  CHECK_THROWS_AS(to_string(static_cast<Layout>(7)), std::invalid_argument);
}
