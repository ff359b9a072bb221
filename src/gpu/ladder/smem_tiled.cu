// Seed step: 001 v1/v2; 003 matrixMul_tiling; 004 matmul4 (run-time tile, dynamic shared memory).
// Predecessor: the one-thread-per-element steps (gpu/naive-coalesced, naive_coalesced.cu: 003 matrixMul_naive and
// 004 GPU3 come just before it; seed 001 opens with it).
// Adds: square tiles of A and B are staged in shared memory, so each element fetched from global memory serves a
// whole row or column of the tile. The tile size is a run-time value (blockDim) in one dynamic array.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kTile = 32;

// blockDim is tile x tile; the dynamic shared memory holds the A tile followed by the B tile.
// Threads outside C still load (zeros) and reach every barrier; only their store is skipped.
__global__ void smem_tiled_kernel(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                  float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k) {
  extern __shared__ float sh_mem[];
  const int tile = blockDim.x;
  float* as = sh_mem;
  float* bs = sh_mem + tile * tile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  const int idx = ty * tile + tx;

  float s = 0.0f;
  for (int p0 = 0; p0 < k; p0 += tile) {
    const int pa = p0 + tx, pb = p0 + ty;
    as[idx] = (row < m && pa < k) ? a[std::size_t(row) * lda + pa] : 0.0f;
    bs[idx] = (pb < k && col < n) ? b[std::size_t(pb) * ldb + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < tile; ++p) s += as[ty * tile + p] * bs[p * tile + tx];
    __syncthreads();
  }
  if (row < m && col < n) {
    float* out = c + std::size_t(row) * ldc + col;
    *out = scale_output(alpha, beta, s, out);
  }
}

}  // namespace

void launch_smem_tiled(const DeviceGemm& g) {
  const dim3 block(kTile, kTile);
  const dim3 grid(ceil_div(g.n, kTile), ceil_div(g.m, kTile));
  const std::size_t smem = 2 * kTile * kTile * sizeof(float);
  smem_tiled_kernel<<<grid, block, smem, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                     g.k);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
