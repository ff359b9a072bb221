// Seed step: 000 §8.4.4 gemm_use_smem; 001 v5 (float4 loads into shared memory).
// Predecessor: gpu/smem-remapped-loads (smem_remapped_loads.cu, 001 v4); in seed 000, gpu/thread-tile-global
// (thread_tile_global.cu, gemm_use_tile).
// Adds: 256 threads each compute 8x8 outputs of a 128x128 block tile (each shared value read now serves 8 FMAs,
// not 4), each thread moves its share of the 128x8 A tile and the 8x128 B tile with one float4 load and one float4
// shared store, and C is written as float4s.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kTM = 8, kTN = 8;         // outputs per thread
constexpr int kThreadCols = kBN / kTN;  // 16 threads across a block tile
static_assert((kBM / kTM) * kThreadCols == kThreads, "the threads cover the block tile");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "one float4 of each tile per thread");

__global__ __launch_bounds__(kThreads) void smem_float4(const float* __restrict__ a, int lda,
                                                        const float* __restrict__ b, int ldb, float* __restrict__ c,
                                                        int ldc, float alpha, float beta, int m, int n, int k_padded) {
  __shared__ __align__(16) float as[kBM][kBK];
  __shared__ __align__(16) float bs[kBK][kBN];
  const int tid = threadIdx.x;
  const int tx = tid % kThreadCols, ty = tid / kThreadCols;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Two threads cover a row of the A tile, 32 threads a row of the B tile.
  const ATileFloat4<kBK> a_tile(a, lda, m, block_row, tid);
  const BTileFloat4<kBN> b_tile(b, ldb, n, block_col, tid);

  float acc[kTM][kTN] = {};
  for (int k0 = 0; k0 < k_padded; k0 += kBK) {
    store4(&as[a_tile.r][a_tile.c], a_tile.load(k0, k_padded));
    store4(&bs[b_tile.r][b_tile.c], b_tile.load(k0, k_padded));
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
  out.put_blocks(acc, block_row + ty * kTM, 4, block_col + tx * kTN, 4);
}

}  // namespace

void launch_smem_float4(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_float4<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                               g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
