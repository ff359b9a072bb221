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

namespace {

// op(A) and op(B) of a layout: dimensions, and the element at (i, p) / (p, j) of the operand as stored.
struct Operands {
  const MatrixF& a;
  const MatrixF& b;
  bool ta, tb;
  std::size_t m() const { return ta ? a.cols() : a.rows(); }
  std::size_t k() const { return ta ? a.rows() : a.cols(); }
  std::size_t b_k() const { return tb ? b.cols() : b.rows(); }
  std::size_t n() const { return tb ? b.rows() : b.cols(); }
  float op_a(std::size_t i, std::size_t p) const { return ta ? a(p, i) : a(i, p); }
  float op_b(std::size_t p, std::size_t j) const { return tb ? b(j, p) : b(p, j); }
};

std::string dims_text(const MatrixF& x) { return std::to_string(x.rows()) + "x" + std::to_string(x.cols()); }

}  // namespace

Reference compute_reference(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c,
                            Layout layout) {
  const Operands ops{a, b, a_transposed(layout), b_transposed(layout)};
  if (a.empty() || b.empty() || ops.k() != ops.b_k() || c.rows() != ops.m() || c.cols() != ops.n())
    throw std::invalid_argument("reference needs M, N, K >= 1 and matching shapes for layout " + to_string(layout) +
                                ": A is " + dims_text(a) + ", B is " + dims_text(b) + ", C is " + dims_text(c));
  const auto m = static_cast<blasint>(ops.m()), n = static_cast<blasint>(ops.n()), k = static_cast<blasint>(ops.k());
  Reference ref;
  ref.k = k;
  ref.value = c.cast<double>();
  ref.scale = c.cast<double>();
  for (std::size_t i = 0; i < ref.scale.size(); ++i) ref.scale.data()[i] = std::fabs(ref.scale.data()[i]);

  // The operands as stored, with OpenBLAS told which are transposed: their leading dimension is their own width.
  const CBLAS_TRANSPOSE trans_a = ops.ta ? CblasTrans : CblasNoTrans, trans_b = ops.tb ? CblasTrans : CblasNoTrans;
  const auto lda = static_cast<blasint>(a.cols()), ldb = static_cast<blasint>(b.cols());
  MatrixD a64 = a.cast<double>(), b64 = b.cast<double>();
  cblas_dgemm(CblasRowMajor, trans_a, trans_b, m, n, k, alpha, a64.data(), lda, b64.data(), ldb, beta,
              ref.value.data(), n);
  for (std::size_t i = 0; i < a64.size(); ++i) a64.data()[i] = std::fabs(a64.data()[i]);
  for (std::size_t i = 0; i < b64.size(); ++i) b64.data()[i] = std::fabs(b64.data()[i]);
  cblas_dgemm(CblasRowMajor, trans_a, trans_b, m, n, k, std::fabs(double(alpha)), a64.data(), lda, b64.data(), ldb,
              std::fabs(double(beta)), ref.scale.data(), n);
  return ref;
}

Reference compute_reference_rows(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c,
                                 const std::vector<std::int64_t>& rows, Layout layout) {
  const Operands ops{a, b, a_transposed(layout), b_transposed(layout)};
  if (a.empty() || b.empty() || ops.k() != ops.b_k() || rows.empty() ||
      (beta != 0.0f && (c.rows() != ops.m() || c.cols() != ops.n())))
    throw std::invalid_argument("reference of rows needs M, N, K >= 1, matching shapes and at least one row");
  const std::size_t n = ops.n(), k = ops.k(), s = rows.size();
  for (std::int64_t row : rows)
    if (row < 0 || std::size_t(row) >= ops.m())
      throw std::invalid_argument("reference row " + std::to_string(row) + " is outside A's " +
                                  std::to_string(ops.m()) + " rows");
  Reference ref;
  ref.k = std::int64_t(k);
  ref.value = MatrixD(s, n);
  ref.scale = MatrixD(s, n);
  MatrixD a_rows(s, k), a_abs(s, k);
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t p = 0; p < k; ++p) {
      a_rows(i, p) = ops.op_a(std::size_t(rows[i]), p);
      a_abs(i, p) = std::fabs(a_rows(i, p));
    }
  if (beta != 0.0f)
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        ref.value(i, j) = double(beta) * c(std::size_t(rows[i]), j);
        ref.scale(i, j) = std::fabs(double(beta)) * std::fabs(c(std::size_t(rows[i]), j));
      }
  // A panel of op(B)'s columns in float64 at a time: K x 256 doubles, where a float64 copy of B could be 128 GiB.
  constexpr std::size_t kPanel = 256;
  MatrixD panel(k, std::min(kPanel, n)), panel_abs(k, std::min(kPanel, n));
  for (std::size_t j0 = 0; j0 < n; j0 += kPanel) {
    const std::size_t width = std::min(kPanel, n - j0);
#pragma omp parallel for schedule(static)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < width; ++j) {
        panel(p, j) = ops.op_b(p, j0 + j);
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
