#pragma once
// The first rows of a matrix: what a trial or an estimate computes and checks in place of all of C.
#include <algorithm>
#include <cstdint>

#include "matcompare/layout.hpp"
#include "matcompare/matrix.hpp"

namespace matcompare {

template <typename T>
Matrix<T> first_rows(const Matrix<T>& x, std::int64_t rows) {
  Matrix<T> part(std::size_t(rows), x.cols());
  std::copy(x.data(), x.data() + std::size_t(rows) * x.cols(), part.data());
  return part;
}

// The first `rows` rows of op(A), stored as A is: the first rows of A, or the first columns of a transposed A (K×M).
inline MatrixF leading_rows_of_a(const MatrixF& a, Layout layout, std::int64_t rows) {
  if (!a_transposed(layout)) return first_rows(a, rows);
  MatrixF part(a.rows(), std::size_t(rows));
  for (std::size_t p = 0; p < a.rows(); ++p) std::copy_n(&a(p, 0), std::size_t(rows), &part(p, 0));
  return part;
}

}  // namespace matcompare
