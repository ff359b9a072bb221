#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "matcompare/error_metrics.hpp"

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
