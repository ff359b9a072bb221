// Seed step: 000 §8.4.3 gemm_use_128 (float4).
// Predecessor: gpu/naive (naive.cu), seed 000's gemmKernel.
// Adds: each thread computes a 4x4 block of C and reads A and B as 128-bit float4s (LDG.128) straight from global
// memory: per step of 4 along k, 8 wide loads (32 floats) feed 64 FMAs: 2 FMAs per loaded float, where the naive
// kernel had half an FMA per float.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 16;  // the block is kThreads x kThreads
constexpr int kTile = 4;      // each thread owns kTile x kTile outputs
constexpr int kBlockTile = kThreads * kTile;

// acc += s * v, the rank-1 piece of one k that a row of the tile receives.
__device__ __forceinline__ void axpy4(float4& acc, float s, const float4& v) {
  acc.x += s * v.x;
  acc.y += s * v.y;
  acc.z += s * v.z;
  acc.w += s * v.w;
}

__global__ void float4_global(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                              float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k_padded) {
  // threadIdx.x walks columns so a warp's float4 loads of B and stores of C are contiguous.
  const int col = (blockIdx.x * kThreads + threadIdx.x) * kTile;
  const int row = (blockIdx.y * kThreads + threadIdx.y) * kTile;
  if (row >= m || col >= n) return;  // no barrier in this kernel, so leaving early is safe

  // Rows past m do not exist: they are read from row m-1 instead and their sums are never stored.
  // col < n and n_padded is a multiple of 4, so the float4 at col lies within B's padded row.
  const float* a_row[kTile];
#pragma unroll
  for (int i = 0; i < kTile; ++i) a_row[i] = a + std::size_t(min(row + i, m - 1)) * lda;
  const float* b_col = b + col;

  float4 acc[kTile];
#pragma unroll
  for (int i = 0; i < kTile; ++i) acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  for (int p = 0; p < k_padded; p += 4, b_col += std::size_t(4) * ldb) {
    float4 bv[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) bv[q] = load4(b_col + std::size_t(q) * ldb);
#pragma unroll
    for (int i = 0; i < kTile; ++i) {
      const float4 av = load4(a_row[i] + p);
      axpy4(acc[i], av.x, bv[0]);
      axpy4(acc[i], av.y, bv[1]);
      axpy4(acc[i], av.z, bv[2]);
      axpy4(acc[i], av.w, bv[3]);
    }
  }

  const ScaledOutput out{c, ldc, m, n, alpha, beta};
#pragma unroll
  for (int i = 0; i < kTile; ++i) out.put4(row + i, col, acc[i]);
}

}  // namespace

void launch_float4_global(const DeviceGemm& g) {
  const dim3 block(kThreads, kThreads);
  const dim3 grid(ceil_div(g.n, kBlockTile), ceil_div(g.m, kBlockTile));
  float4_global<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                              g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
