#pragma once
// How far a result is from the float64 reference, in the measures the seeds use
// (Σ|x−ref| from seed 003, max |x−ref| from seed 000) plus two that scale with the problem.
#include <cstdint>
#include <string>
#include <vector>

#include "matcompare/layout.hpp"
#include "matcompare/matrix.hpp"

namespace matcompare {

enum class Precision { fp32, tf32 };
// Every function here that takes a Precision throws std::invalid_argument for one that is neither fp32 nor tf32.
std::string to_string(Precision p);

// Unit roundoff of the arithmetic a backend uses for its products: 2^-24 for FP32,
// 2^-11 for TF32 inputs (10 explicit mantissa bits, round to nearest).
double unit_roundoff(Precision p);

// The largest blas_ratio a correct backend can produce for inner dimension k. The ratio is
// measured in units of the precision's roundoff; FP32 accumulation adds (k + 2)·2^-24 and TF32
// adds the conversion of both inputs (up to 4 units, truncation included) on top of it. Throws std::invalid_argument
// naming k when it is negative.
double blas_ratio_threshold(Precision p, std::int64_t k);

struct ErrorStats {
  double max_abs = 0;        // max |x − ref|
  double sum_abs = 0;        // Σ |x − ref|
  double rel_frobenius = 0;  // ‖x − ref‖_F / ‖ref‖_F (0 when both are 0)
  // max_ij |x − ref| / (ε·(|α|·Σ_k|a_ik||b_kj| + |β|·|c_ij|)): 1 means "one rounding error".
  double blas_ratio = 0;
  bool finite = true;        // no NaN or Inf in x
  bool passed = false;       // finite and blas_ratio within blas_ratio_threshold
};

// The float64 product a backend is judged against, plus the error scale each element may carry.
struct Reference {
  MatrixD value;   // α·A·B + β·C in float64
  MatrixD scale;   // |α|·|A|·|B| + |β|·|C|
  std::int64_t k = 0;
};

// Computes the reference with OpenBLAS dgemm (once per shape and inputs).
// A and B are stored as `layout` says (layout.hpp): A is K×M where it is transposed, B N×K.
Reference compute_reference(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c,
                            Layout layout = Layout::nn);

// The reference of the given rows of C only (rows.size() x N), without a float64 copy of A or B: B is
// converted a panel of columns at a time. For problems too large for a full reference. c may be empty when
// beta is 0.
Reference compute_reference_rows(float alpha, const MatrixF& a, const MatrixF& b, float beta, const MatrixF& c,
                                 const std::vector<std::int64_t>& rows, Layout layout = Layout::nn);

// Throws std::invalid_argument when the shapes differ, when ref.scale's is not ref.value's, or when ref.k is
// negative.
ErrorStats compare_to_reference(const MatrixF& result, const Reference& ref, Precision precision);

}  // namespace matcompare
