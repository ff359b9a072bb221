// Over single packing: a 4x4 block of C lives in registers, so every loaded value of A is used
// four times and every value of B four times (seed 003 D_packing). Edge blocks use the same
// loop with fewer rows or columns.
#include <algorithm>

#include "kernels.hpp"

namespace matcompare::cpu {
namespace {

constexpr std::int64_t kBlock = 4;

template <bool Full>
void block_4x4(const HostGemm& g, std::int64_t i0, std::int64_t j0) {
  const std::int64_t rows = Full ? kBlock : std::min(kBlock, g.m - i0);
  const std::int64_t cols = Full ? kBlock : std::min(kBlock, g.n - j0);
  float acc[kBlock][kBlock] = {};
  for (std::int64_t p = 0; p < g.k; ++p) {
    const float* b = g.b + p * g.ldb + j0;
    for (std::int64_t r = 0; r < rows; ++r) {
      const float a = g.a[(i0 + r) * g.lda + p];
      for (std::int64_t c = 0; c < cols; ++c) acc[r][c] += a * b[c];
    }
  }
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      float* out = g.c + (i0 + r) * g.ldc + j0 + c;
      *out = scale_output(g, acc[r][c], *out);
    }
}

}  // namespace

void gemm_double_packing(const HostGemm& g) {
  const std::int64_t row_blocks = (g.m + kBlock - 1) / kBlock, col_blocks = (g.n + kBlock - 1) / kBlock;
#pragma omp parallel for collapse(2) schedule(dynamic, 16)
  for (std::int64_t bi = 0; bi < row_blocks; ++bi)
    for (std::int64_t bj = 0; bj < col_blocks; ++bj) {
      const std::int64_t i0 = bi * kBlock, j0 = bj * kBlock;
      if (i0 + kBlock <= g.m && j0 + kBlock <= g.n)
        block_4x4<true>(g, i0, j0);
      else
        block_4x4<false>(g, i0, j0);
    }
}

}  // namespace matcompare::cpu
