// Seed step: 002 sgemm_thread_tile (2x2).
// Predecessor: gpu/cg-register-outputs (cg_register_outputs.cu).
// Adds: each thread computes a 2x2 block of C, so every value it reads from shared memory feeds two FMAs; both
// tiles are padded to [32][33], and C is staged through shared memory so the transposed result still leaves in
// coalesced stores.
#include <cooperative_groups.h>

#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

namespace cg = cooperative_groups;

constexpr int kTile = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kThreadsPerCol = kTile / 2;  // 16 x 16 threads, 2 x 2 outputs each

// Column-major, as the seed: C (m x n, ldc) = alpha * A (m x k, lda) * B (k x n, ldb) + beta * C.
__global__ void __launch_bounds__(kThreads)
    sgemm_thread_tile(int m, int n, int k, const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                      float* __restrict__ c, int ldc, float alpha, float beta) {
  __shared__ float sub_a[kTile][kTile + 1];  // sub_a[p][row]; afterwards the C tile as [col][row]
  __shared__ float sub_b[kTile][kTile + 1];  // sub_b[col][p]

  const auto block = cg::this_thread_block();
  const auto warp = cg::tiled_partition<32>(block);
  const int lane = int(warp.thread_rank());
  const int warp_id = int(warp.meta_group_rank());
  const int row0 = blockIdx.x * kTile;
  const int col0 = blockIdx.y * kTile;
  const int tile_row = 2 * (int(block.thread_rank()) / kThreadsPerCol);
  const int tile_col = 2 * (int(block.thread_rank()) % kThreadsPerCol);

  // output[i][r] is C(row0 + tile_row + r, col0 + tile_col + i).
  float output[2][2] = {};

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
    for (int i = 0; i < 2; ++i) {
#pragma unroll 8
      for (int j = 0; j < kTile; ++j) {
        const float b_val = sub_b[tile_col + i][j];
        output[i][0] += sub_a[j][tile_row] * b_val;
        output[i][1] += sub_a[j][tile_row + 1] * b_val;
      }
    }
    // Missing in the seed: without it the next tile's loads race with this tile's reads, and the
    // staging below could overwrite sub_a while other warps still multiply with it.
    __syncthreads();
  }

  sub_a[tile_col][tile_row] = output[0][0];
  sub_a[tile_col][tile_row + 1] = output[0][1];
  sub_a[tile_col + 1][tile_row] = output[1][0];
  sub_a[tile_col + 1][tile_row + 1] = output[1][1];
  __syncthreads();
  for (int i = warp_id; i < kTile; i += kWarps) {
    const int row = row0 + lane, col = col0 + i;
    if (row < m && col < n) {
      float* out = c + std::size_t(col) * ldc + row;
      *out = scale_output(alpha, beta, sub_a[i][lane], out);
    }
  }
}

}  // namespace

// Row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ on the same memory (see cg_warp_shuffle.cu).
void launch_cg_thread_tile(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kTile), ceil_div(g.m, kTile));
  sgemm_thread_tile<<<grid, kThreads, 0, g.stream>>>(g.n, g.m, g.k, g.b, g.ldb, g.a, g.lda, g.c, g.ldc, g.alpha,
                                                     g.beta);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
