// Seed step: 001 v7 (outer product, float4 shared-memory reads).
// Predecessor: gpu/smem-transposed-a (smem_transposed_a.cu).
// Adds: the 8 A values and 8 B values of each k come from shared memory as two float4s each (4 LDS.128 instead of
// 16 LDS.32 for 64 FMAs), then an 8x8 outer product. A thread's outputs are two 4x4 blocks 64 apart in rows and
// columns, so a warp's float4 reads are contiguous or broadcast.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kTM = 8, kTN = 8;                    // outputs per thread: 2x2 blocks of 4x4
constexpr int kHalfM = kBM / 2, kHalfN = kBN / 2;  // distance between a thread's blocks
constexpr int kThreadCols = kBN / kTN;             // 16 threads across a block tile
static_assert((kBM / kTM) * kThreadCols == kThreads, "the threads cover the block tile");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "one float4 of each tile per thread");

__global__ __launch_bounds__(kThreads) void smem_outer_product(const float* __restrict__ a, int lda,
                                                               const float* __restrict__ b, int ldb,
                                                               float* __restrict__ c, int ldc, float alpha, float beta,
                                                               int m, int n, int k_padded) {
  __shared__ __align__(16) float as[kBK][kBM];
  __shared__ __align__(16) float bs[kBK][kBN];
  const int tid = threadIdx.x;
  const int tx = tid % kThreadCols, ty = tid / kThreadCols;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Two threads cover a row of the A tile, 32 threads a row of the B tile.
  const ATileFloat4<kBK> a_tile(a, lda, m, block_row, tid);
  const BTileFloat4<kBN> b_tile(b, ldb, n, block_col, tid);

  float acc[kTM][kTN] = {};
  for (int k0 = 0; k0 < k_padded; k0 += kBK) {
    store_transposed4(as, a_tile.r, a_tile.c, a_tile.load(k0, k_padded));
    store4(&bs[b_tile.r][b_tile.c], b_tile.load(k0, k_padded));
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float af[kTM], bf[kTN];
      unpack4(load4(&as[kk][ty * 4]), af);
      unpack4(load4(&as[kk][ty * 4 + kHalfM]), af + 4);
      unpack4(load4(&bs[kk][tx * 4]), bf);
      unpack4(load4(&bs[kk][tx * 4 + kHalfN]), bf + 4);
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += af[i] * bf[j];
    }
    __syncthreads();
  }

  // acc[i][j] is row ty*4 + i%4 + 64*(i/4), column tx*4 + j%4 + 64*(j/4) of the block tile.
  const ScaledOutput out{c, ldc, m, n, alpha, beta};
  out.put_blocks(acc, block_row + ty * 4, kHalfM, block_col + tx * 4, kHalfN);
}

}  // namespace

void launch_smem_outer_product(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_outer_product<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                      g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
