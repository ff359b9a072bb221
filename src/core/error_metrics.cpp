#include "matcompare/error_metrics.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace matcompare {

namespace {

// Throws unless p is fp32 or tf32: a Precision cast from any other number would otherwise read as TF32.
Precision checked(Precision p, const char* where) {
  if (p != Precision::fp32 && p != Precision::tf32)
    throw std::invalid_argument(std::string(where) + ": Precision " + std::to_string(static_cast<int>(p)) +
                                " is neither fp32 nor tf32");
  return p;
}

}  // namespace

std::string to_string(Precision p) { return checked(p, "to_string") == Precision::fp32 ? "fp32" : "tf32"; }

double unit_roundoff(Precision p) {
  return checked(p, "unit_roundoff") == Precision::fp32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -11);
}

double blas_ratio_threshold(Precision p, std::int64_t k) {
  checked(p, "blas_ratio_threshold");
  if (k < 0) throw std::invalid_argument("blas_ratio_threshold: k must be >= 0, got " + std::to_string(k));
  const double accumulation = double(k) + 2.0;  // γ_{k+2} in units of 2^-24
  if (p == Precision::fp32) return accumulation;
  // Each TF32 input carries up to 2 units of 2^-11 (hardware may truncate rather than round),
  // so a product carries up to 4; the sum then runs in FP32.
  return 4.0 + accumulation * unit_roundoff(Precision::fp32) / unit_roundoff(Precision::tf32);
}

Reference compute_reference(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c) {
  if (a.empty() || b.empty() || a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
    throw std::invalid_argument("reference needs M, N, K >= 1 and matching shapes: A is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) +
                                ", B is " + std::to_string(b.rows()) + "x" + std::to_string(b.cols()) +
                                ", C is " + std::to_string(c.rows()) + "x" + std::to_string(c.cols()));
  const auto m = static_cast<blasint>(a.rows()), n = static_cast<blasint>(b.cols()), k = static_cast<blasint>(a.cols());
  Reference ref;
  ref.k = k;
  ref.value = c.cast<double>();
  ref.scale = c.cast<double>();
  for (std::size_t i = 0; i < ref.scale.size(); ++i) ref.scale.data()[i] = std::fabs(ref.scale.data()[i]);

  MatrixD a64 = a.cast<double>(), b64 = b.cast<double>();
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a64.data(), k, b64.data(), n, beta,
              ref.value.data(), n);
  for (std::size_t i = 0; i < a64.size(); ++i) a64.data()[i] = std::fabs(a64.data()[i]);
  for (std::size_t i = 0; i < b64.size(); ++i) b64.data()[i] = std::fabs(b64.data()[i]);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, std::fabs(double(alpha)), a64.data(), k,
              b64.data(), n, std::fabs(double(beta)), ref.scale.data(), n);
  return ref;
}

Reference compute_reference_rows(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c,
                                 const std::vector<std::int64_t>& rows) {
  if (a.empty() || b.empty() || a.cols() != b.rows() || rows.empty() ||
      (beta != 0.0f && (c.rows() != a.rows() || c.cols() != b.cols())))
    throw std::invalid_argument("reference of rows needs M, N, K >= 1, matching shapes and at least one row");
  const std::size_t n = b.cols(), k = a.cols(), s = rows.size();
  for (std::int64_t row : rows)
    if (row < 0 || std::size_t(row) >= a.rows())
      throw std::invalid_argument("reference row " + std::to_string(row) + " is outside A's " +
                                  std::to_string(a.rows()) + " rows");
  Reference ref;
  ref.k = std::int64_t(k);
  ref.value = MatrixD(s, n);
  ref.scale = MatrixD(s, n);
  MatrixD a_rows(s, k), a_abs(s, k);
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      a_rows(i, p) = a(std::size_t(rows[i]), p);
      a_abs(i, p) = std::fabs(a_rows(i, p));
    }
  if (beta != 0.0f)
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        ref.value(i, j) = double(beta) * c(std::size_t(rows[i]), j);
        ref.scale(i, j) = std::fabs(double(beta)) * std::fabs(c(std::size_t(rows[i]), j));
      }
  // A panel of B's columns in float64 at a time: K x 256 doubles, where a float64 copy of B could be 128 GiB.
  constexpr std::size_t kPanel = 256;
  MatrixD panel(k, std::min(kPanel, n)), panel_abs(k, std::min(kPanel, n));
  for (std::size_t j0 = 0; j0 < n; j0 += kPanel) {
    const std::size_t width = std::min(kPanel, n - j0);
#pragma omp parallel for schedule(static)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < width; ++j) {
        panel(p, j) = b(p, j0 + j);
        panel_abs(p, j) = std::fabs(panel(p, j));
      }
    const auto rows_i = static_cast<blasint>(s), width_i = static_cast<blasint>(width), k_i = static_cast<blasint>(k);
    const auto ld = static_cast<blasint>(panel.cols()), ldc = static_cast<blasint>(n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows_i, width_i, k_i, alpha, a_rows.data(), k_i,
                panel.data(), ld, 1.0, ref.value.data() + j0, ldc);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows_i, width_i, k_i, std::fabs(double(alpha)),
                a_abs.data(), k_i, panel_abs.data(), ld, 1.0, ref.scale.data() + j0, ldc);
  }
  return ref;
}

ErrorStats compare_to_reference(const MatrixF& result, const Reference& ref, Precision precision) {
  checked(precision, "compare_to_reference");
  if (ref.scale.rows() != ref.value.rows() || ref.scale.cols() != ref.value.cols())
    throw std::invalid_argument("compare_to_reference: ref.scale is " + std::to_string(ref.scale.rows()) + "x" +
                                std::to_string(ref.scale.cols()) + " but ref.value is " +
                                std::to_string(ref.value.rows()) + "x" + std::to_string(ref.value.cols()));
  if (ref.k < 0) throw std::invalid_argument("compare_to_reference: ref.k must be >= 0, got " + std::to_string(ref.k));
  if (result.rows() != ref.value.rows() || result.cols() != ref.value.cols())
    throw std::invalid_argument("result is " + std::to_string(result.rows()) + "x" + std::to_string(result.cols()) +
                                " but the reference is " + std::to_string(ref.value.rows()) + "x" +
                                std::to_string(ref.value.cols()));
  const double eps = unit_roundoff(precision);
  ErrorStats s;
  double diff_sq = 0, ref_sq = 0;
  for (std::size_t i = 0; i < result.size(); ++i) {
    const double x = result.data()[i], r = ref.value.data()[i];
    if (!std::isfinite(x)) {
      s.finite = false;
      continue;
    }
    const double d = std::fabs(x - r);
    s.max_abs = std::max(s.max_abs, d);
    s.sum_abs += d;
    diff_sq += d * d;
    ref_sq += r * r;
    const double bound = eps * ref.scale.data()[i];
    // A zero bound means the exact answer is representable: any difference is an error.
    const double ratio = bound > 0 ? d / bound : (d > 0 ? INFINITY : 0.0);
    s.blas_ratio = std::max(s.blas_ratio, ratio);
  }
  s.rel_frobenius = ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : std::sqrt(diff_sq);
  if (!s.finite) {
    s.max_abs = s.sum_abs = s.rel_frobenius = s.blas_ratio = NAN;
  }
  s.passed = s.finite && s.blas_ratio <= blas_ratio_threshold(precision, ref.k);
  return s;
}

}  // namespace matcompare
