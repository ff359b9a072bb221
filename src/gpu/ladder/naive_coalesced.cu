// Seed step: 003 matrixMul_naive; 004 GPU3 (naive, coalesced).
// Predecessor: gpu/naive (naive.cu).
// Adds: the thread mapping turned around. threadIdx.x walks the columns of C, so the threads of a warp read
// neighbouring elements of a row of B and write neighbouring elements of C: coalesced.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

__global__ void naive_col_per_x(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k) {
  // Row tiles ride on grid x like in naive.cu: gridDim.y caps at 65535 and tall matrices are common.
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int col = blockIdx.y * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  const float* a_row = a + std::size_t(row) * lda;
  float dot = 0.0f;
  for (int p = 0; p < k; ++p) dot += a_row[p] * b[std::size_t(p) * ldb + col];
  float* out = c + std::size_t(row) * ldc + col;
  *out = scale_output(alpha, beta, dot, out);
}

}  // namespace

void launch_naive_coalesced(const DeviceGemm& g) {
  const dim3 block(16, 16);
  const dim3 grid(ceil_div(g.m, block.y), ceil_div(g.n, block.x));
  naive_col_per_x<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n, g.k);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
