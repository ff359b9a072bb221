#pragma once
// Checks the library's entry points share, each throwing std::invalid_argument that names the function and the
// argument.
#include <stdexcept>
#include <string>

#include "matcompare/backend.hpp"
#include "matcompare/benchmark.hpp"

namespace matcompare {

// "where: shape must have M, N, K >= 1, got 0x4x4"
inline void check_shape(const GemmShape& shape, const char* where) {
  if (shape.m < 1 || shape.n < 1 || shape.k < 1)
    throw std::invalid_argument(std::string(where) + ": shape must have M, N, K >= 1, got " + to_string(shape));
}

inline bool known(InputValues v) {
  switch (v) {
    case InputValues::uniform:
    case InputValues::integers_1_100:
    case InputValues::reals_1_100: return true;
  }
  return false;
}

// "where: InputValues 42 is none of uniform, integers_1_100, reals_1_100"
[[noreturn]] inline void unknown(InputValues v, const char* where) {
  throw std::invalid_argument(std::string(where) + ": InputValues " + std::to_string(static_cast<int>(v)) +
                              " is none of uniform, integers_1_100, reals_1_100");
}

inline void check_known(InputValues v, const char* where) {
  if (!known(v)) unknown(v, where);
}

}  // namespace matcompare
