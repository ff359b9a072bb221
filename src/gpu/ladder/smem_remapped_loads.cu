// Seed step: 001 v4 (remapped loads).
// Predecessor: gpu/smem-thread-tile (smem_thread_tile.cu).
// Adds: the tile loads use the linear thread index tid = tx + 32*ty, so all 1024 threads load exactly one element
// of each tile (v3 left 3/4 of them idle), a warp reads A as 4 rows of 8 adjacent floats and B as 32 adjacent
// floats of one row: coalesced. The compute part is unchanged.
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
static_assert(kBM * kBK == kThreads && kBK * kBN == kThreads, "one element of each tile per thread");

__global__ __launch_bounds__(kThreads) void smem_remapped_loads(const float* __restrict__ a, int lda,
                                                                const float* __restrict__ b, int ldb,
                                                                float* __restrict__ c, int ldc, float alpha, float beta,
                                                                int m, int n, int k_padded) {
  __shared__ float as[kBM][kBK];
  __shared__ float bs[kBK][kBN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = tx + ty * kDim;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Consecutive tids walk along the rows of each tile, which are contiguous in global memory.
  const int a_r = tid / kBK, a_c = tid % kBK;
  const int b_r = tid / kBN, b_c = tid % kBN;
  const int a_row = block_row + a_r;
  const int b_col = block_col + b_c;
  const float* a_ptr = a + std::size_t(a_row < m ? a_row : 0) * lda + a_c;
  const float* b_ptr = b + std::size_t(b_r) * ldb + b_col;

  float acc[kTM][kTN] = {};
  for (int k0 = 0; k0 < k_padded; k0 += kBK) {
    // Out-of-range elements become 0 and add nothing.
    as[a_r][a_c] = a_row < m && k0 + a_c < k_padded ? a_ptr[k0] : 0.0f;
    bs[b_r][b_c] = k0 + b_r < k_padded && b_col < n ? b_ptr[std::size_t(k0) * ldb] : 0.0f;
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

void launch_smem_remapped_loads(const DeviceGemm& g) {
  const dim3 block(kDim, kDim);
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_remapped_loads<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                    g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
