// Over double packing: cache blocking (seed 003 Tiling). C is scaled by beta once, then updated
// block by block; inside a block the loops run i-k-j so the innermost loop streams a row of B and
// a row of C with unit stride, while the B block stays in cache for every row of the C block.
#include <algorithm>

#include "kernels.hpp"

namespace matcompare::cpu {
namespace {

// A 64x256 block of C and a 256x256 block of B: 320 KiB, sized to stay in a core's L2.
constexpr std::int64_t kRows = 64, kDepth = 256, kCols = 256;

}  // namespace

void gemm_tiling(const HostGemm& g) {
  const std::int64_t row_blocks = (g.m + kRows - 1) / kRows, col_blocks = (g.n + kCols - 1) / kCols;
  // Threads share (row block, column block) pairs, so a few rows of C still occupy every core.
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (std::int64_t bi = 0; bi < row_blocks; ++bi)
    for (std::int64_t bj = 0; bj < col_blocks; ++bj) {
      const std::int64_t i0 = bi * kRows, i1 = std::min(g.m, i0 + kRows);
      const std::int64_t j0 = bj * kCols, j1 = std::min(g.n, j0 + kCols);
      for (std::int64_t i = i0; i < i1; ++i) {
        float* c_row = g.c + i * g.ldc;
        for (std::int64_t j = j0; j < j1; ++j) c_row[j] = g.beta == 0.0f ? 0.0f : g.beta * c_row[j];
      }
      for (std::int64_t p0 = 0; p0 < g.k; p0 += kDepth) {
        const std::int64_t p1 = std::min(g.k, p0 + kDepth);
        for (std::int64_t i = i0; i < i1; ++i) {
          float* c_row = g.c + i * g.ldc;
          for (std::int64_t p = p0; p < p1; ++p) {
            const float a = g.alpha * g.a[i * g.lda + p];
            const float* b_row = g.b + p * g.ldb;
            for (std::int64_t j = j0; j < j1; ++j) c_row[j] += a * b_row[j];
          }
        }
      }
    }
}

}  // namespace matcompare::cpu
