// Seed step: 000 §8.4.5 gemm_transpose_smem; 001 v6 (transposed A tile).
// Predecessor: gpu/smem-float4 (smem_float4.cu).
// Adds: the A tile is stored transposed in shared memory ([k][m]), so for each k the A values a thread needs are
// one row of the tile: the 2-way bank conflict of reading 8 rows of a [m][k] tile goes away, at the price of 4
// scalar shared stores per load.
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

__global__ __launch_bounds__(kThreads) void smem_transposed_a(const float* __restrict__ a, int lda,
                                                              const float* __restrict__ b, int ldb,
                                                              float* __restrict__ c, int ldc, float alpha, float beta,
                                                              int m, int n, int k_padded) {
  __shared__ float as[kBK][kBM];
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
#pragma unroll
      for (int i = 0; i < kTM; ++i) af[i] = as[kk][ty * kTM + i];
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

void launch_smem_transposed_a(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_transposed_a<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                     g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
