#pragma once
// The first rows of a matrix: what a trial or an estimate computes and checks in place of all of C.
#include <algorithm>
#include <cstdint>

#include "matcompare/matrix.hpp"

namespace matcompare {

template <typename T>
Matrix<T> first_rows(const Matrix<T>& x, std::int64_t rows) {
  Matrix<T> part(std::size_t(rows), x.cols());
  std::copy(x.data(), x.data() + std::size_t(rows) * x.cols(), part.data());
  return part;
}

}  // namespace matcompare
