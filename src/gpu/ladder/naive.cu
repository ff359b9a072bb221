// Seed step: 000 §8.4.2 gemmKernel (naive, uncoalesced mapping).
// Predecessor: none: step 1 of every GPU ladder.
// Adds: one thread per element of C, each a K-long dot product read straight from global memory.
// Seed 000 gemmKernel maps threadIdx.x to the row m, so the 32 threads of a warp read 32 different rows of A and
// write 32 rows of C: uncoalesced.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

__global__ void naive_row_per_x(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float dot = 0.0f;
  for (int p = 0; p < k; ++p) dot += a[std::size_t(row) * lda + p] * b[std::size_t(p) * ldb + col];
  float* out = c + std::size_t(row) * ldc + col;
  *out = scale_output(alpha, beta, dot, out);
}

}  // namespace

void launch_naive(const DeviceGemm& g) {
  const dim3 block(16, 16);
  const dim3 grid(ceil_div(g.m, block.x), ceil_div(g.n, block.y));
  naive_row_per_x<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n, g.k);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
