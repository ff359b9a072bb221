// Seed step: 002 sgemm_shared (register outputs).
// Predecessor: gpu/cg-warp-shuffle (cg_warp_shuffle.cu).
// Adds: the output tile moves from shared memory into registers, four outputs per thread, and the shuffles go:
// a warp computes whole columns of the C tile, reading the A tile along its rows (one bank per lane) and the B
// tile by broadcast.
#include <cooperative_groups.h>

#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

namespace cg = cooperative_groups;

constexpr int kTile = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kOutputsPerThread = kTile * kTile / kThreads;

// Column-major, as the seed: C (m x n, ldc) = alpha * A (m x k, lda) * B (k x n, ldb) + beta * C.
__global__ void __launch_bounds__(kThreads)
    sgemm_register_outputs(int m, int n, int k, const float* __restrict__ a, int lda, const float* __restrict__ b,
                           int ldb, float* __restrict__ c, int ldc, float alpha, float beta) {
  __shared__ float sub_a[kTile][kTile];  // sub_a[p][row]
  __shared__ float sub_b[kTile][kTile];  // sub_b[col][p]

  const auto block = cg::this_thread_block();
  const auto warp = cg::tiled_partition<32>(block);
  const int lane = int(warp.thread_rank());
  const int warp_id = int(warp.meta_group_rank());
  const int row0 = blockIdx.x * kTile;
  const int col0 = blockIdx.y * kTile;

  // output[i] is C(row0 + lane, col0 + warp_id + i * kWarps).
  float output[kOutputsPerThread] = {};

  for (int p0 = 0; p0 < k; p0 += kTile) {
    for (int i = warp_id; i < kTile; i += kWarps) {
      const int row = row0 + lane, p = p0 + i;
      sub_a[i][lane] = (row < m && p < k) ? a[std::size_t(p) * lda + row] : 0.0f;
    }
    for (int i = warp_id; i < kTile; i += kWarps) {
      const int p = p0 + lane, col = col0 + i;
      sub_b[i][lane] = (p < k && col < n) ? b[std::size_t(col) * ldb + p] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kOutputsPerThread; ++i)
      for (int j = 0; j < kTile; ++j) output[i] += sub_a[j][lane] * sub_b[warp_id + i * kWarps][j];
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kOutputsPerThread; ++i) {
    const int row = row0 + lane, col = col0 + warp_id + i * kWarps;
    if (row < m && col < n) {
      float* out = c + std::size_t(col) * ldc + row;
      *out = scale_output(alpha, beta, output[i], out);
    }
  }
}

}  // namespace

// Row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ on the same memory (see cg_warp_shuffle.cu).
void launch_cg_register_outputs(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kTile), ceil_div(g.m, kTile));
  sgemm_register_outputs<<<grid, kThreads, 0, g.stream>>>(g.n, g.m, g.k, g.b, g.ldb, g.a, g.lda, g.c, g.ldc, g.alpha,
                                                          g.beta);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
