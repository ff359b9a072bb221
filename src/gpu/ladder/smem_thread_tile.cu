// Seed step: 001 v3 (128x128x8, 4x4 per thread).
// Predecessor: gpu/smem-tiled (smem_tiled.cu), 001 v1/v2's square shared-memory tiles.
// Adds: the block stages a 128x8 tile of A and an 8x128 tile of B and each of its 32x32 threads computes 4x4
// outputs from them, so one shared value read into a register serves 4 FMAs. Tile loads keep the seed's 2D
// mapping, so only a quarter of the threads load.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kDim = 32;  // the block is kDim x kDim threads
constexpr int kThreads = kDim * kDim;
constexpr int kTM = 4;           // outputs per thread along m
constexpr int kTN = 4;           // and along n
constexpr int kBM = kDim * kTM;  // 128
constexpr int kBN = kDim * kTN;  // 128
constexpr int kBK = 8;

__global__ __launch_bounds__(kThreads) void smem_thread_tile(const float* __restrict__ a, int lda,
                                                             const float* __restrict__ b, int ldb,
                                                             float* __restrict__ c, int ldc, float alpha, float beta,
                                                             int m, int n, int k_padded) {
  __shared__ float as[kBM][kBK];
  __shared__ float bs[kBK][kBN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  float acc[kTM][kTN] = {};
  for (int k0 = 0; k0 < k_padded; k0 += kBK) {
    // The seed's mapping: threadIdx.x is the k of the A tile and threadIdx.y the k of the B tile. The tiles are
    // only kBK wide along k, so only threads with that index below kBK load (the seed's loops overran them).
    // Out-of-range elements become 0 and add nothing.
    if (tx < kBK) {
      const int col = k0 + tx;
      for (int r = ty; r < kBM; r += kDim) {
        const int row = block_row + r;
        as[r][tx] = row < m && col < k_padded ? a[std::size_t(row) * lda + col] : 0.0f;
      }
    }
    if (ty < kBK) {
      const int row = k0 + ty;
      for (int cc = tx; cc < kBN; cc += kDim) {
        const int col = block_col + cc;
        bs[ty][cc] = row < k_padded && col < n ? b[std::size_t(row) * ldb + col] : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float af[kTM], bf[kTN];
#pragma unroll
      for (int i = 0; i < kTM; ++i) af[i] = as[ty * kTM + i][kk];
#pragma unroll
      for (int j = 0; j < kTN; ++j) bf[j] = bs[kk][tx * kTN + j];
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += af[i] * bf[j];
    }
    __syncthreads();
  }

  const ScaledOutput out{c, ldc, m, n, alpha, beta};
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) out.put(block_row + ty * kTM + i, block_col + tx * kTN + j, acc[i][j]);
}

}  // namespace

void launch_smem_thread_tile(const DeviceGemm& g) {
  const dim3 block(kDim, kDim);
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_thread_tile<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                 g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
