// Seed step: 002 sgemm_naive (warp shuffle), seed 002's first kernel.
// Predecessor: the one-thread-per-element steps (gpu/naive-coalesced, naive_coalesced.cu).
// Adds: a 256-thread block owns a 32x32 tile of C staged in shared memory; A tiles are stored transposed and each
// warp passes A values between its lanes with warp shuffles, so every loaded value is reused 32 times.
#include <cooperative_groups.h>

#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

namespace cg = cooperative_groups;

constexpr int kTile = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

// Column-major, as the seed: C (m x n, ldc) = alpha * A (m x k, lda) * B (k x n, ldb) + beta * C.
// Out-of-range tile elements are loaded as zeros, so the k loop needs no tail case.
__global__ void __launch_bounds__(kThreads)
    sgemm_warp_shuffle(int m, int n, int k, const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                       float* __restrict__ c, int ldc, float alpha, float beta) {
  __shared__ float sub_a[kTile][kTile + 1];   // sub_a[row][p]: transposed while loading
  __shared__ float sub_b[kTile][kTile];       // sub_b[col][p]
  __shared__ float output[kTile][kTile + 1];  // output[row][col]

  const auto block = cg::this_thread_block();
  const auto warp = cg::tiled_partition<32>(block);
  const int lane = int(warp.thread_rank());
  const int warp_id = int(warp.meta_group_rank());
  const int row0 = blockIdx.x * kTile;
  const int col0 = blockIdx.y * kTile;

  // Every output[i][lane] below is only ever touched by the thread that zeroes it here.
  for (int i = warp_id; i < kTile; i += kWarps) output[i][lane] = 0.0f;

  for (int p0 = 0; p0 < k; p0 += kTile) {
    for (int i = warp_id; i < kTile; i += kWarps) {
      const int row = row0 + lane, p = p0 + i;
      sub_a[lane][i] = (row < m && p < k) ? a[std::size_t(p) * lda + row] : 0.0f;
    }
    for (int i = warp_id; i < kTile; i += kWarps) {
      const int p = p0 + lane, col = col0 + i;
      sub_b[i][lane] = (p < k && col < n) ? b[std::size_t(col) * ldb + p] : 0.0f;
    }
    __syncthreads();
    // Lane l holds A(i, p0 + l); rotating the source lane with j also rotates the sub_b column,
    // so the 32 lanes hit 32 different banks.
    for (int i = warp_id; i < kTile; i += kWarps) {
      const float a_val = sub_a[i][lane];
      float sum = a_val * sub_b[lane][lane];
      for (int j = 1; j < kTile; ++j) {
        const int src = (lane + j) & (kTile - 1);
        sum += warp.shfl(a_val, src) * sub_b[lane][src];
      }
      output[i][lane] += sum;
    }
    // The seed has no barrier here: the next tile would overwrite sub_a/sub_b under slower warps.
    // Since k >= 1 this barrier also makes the finished output tile visible to the store below.
    __syncthreads();
  }

  for (int i = warp_id; i < kTile; i += kWarps) {
    const int row = row0 + lane, col = col0 + i;
    if (row < m && col < n) {
      float* out = c + std::size_t(col) * ldc + row;
      *out = scale_output(alpha, beta, output[lane][i], out);
    }
  }
}

}  // namespace

// Row-major X with stride ldx is the column-major Xᵀ with leading dimension ldx, so the row-major
// C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ: swap the operands and m with n, transpose nothing.
void launch_cg_warp_shuffle(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kTile), ceil_div(g.m, kTile));
  sgemm_warp_shuffle<<<grid, kThreads, 0, g.stream>>>(g.n, g.m, g.k, g.b, g.ldb, g.a, g.lda, g.c, g.ldc, g.alpha,
                                                      g.beta);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
