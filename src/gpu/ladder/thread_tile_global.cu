// Seed step: 000 §8.4.3 gemm_use_tile (thread tile).
// Predecessor: gpu/float4-global (float4_global.cu).
// Adds: each thread owns an 8x8 tile of C made of 2x2 of the 4x4 float4 blocks, placed 64 rows and 64 columns
// apart so every float4 load of a warp stays contiguous. 16 wide loads per k-step of 4 now feed 256 FMAs; still no
// shared memory.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 16;             // the block is kThreads x kThreads
constexpr int kQuad = 4;                 // one float4 block is kQuad x kQuad
constexpr int kSpan = kThreads * kQuad;  // distance between a thread's two blocks along m and n
constexpr int kBlockTile = 2 * kSpan;    // 128 x 128 outputs per block

__device__ __forceinline__ void axpy4(float4& acc, float s, const float4& v) {
  acc.x += s * v.x;
  acc.y += s * v.y;
  acc.z += s * v.z;
  acc.w += s * v.w;
}

__global__ void thread_tile_global(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                   float* __restrict__ c, int ldc, float alpha, float beta, int m, int n,
                                   int k_padded) {
  const int col0 = blockIdx.x * kBlockTile + threadIdx.x * kQuad;
  const int row0 = blockIdx.y * kBlockTile + threadIdx.y * kQuad;
  if (row0 >= m || col0 >= n) return;  // no barrier in this kernel, so leaving early is safe

  // Rows past m read row m-1 and a second column block past n reads the first one instead:
  // valid memory, and those sums are never stored.
  const float* a_row[2 * kQuad];
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int i = 0; i < kQuad; ++i) a_row[h * kQuad + i] = a + std::size_t(min(row0 + h * kSpan + i, m - 1)) * lda;
  const int col1 = col0 + kSpan < n ? col0 + kSpan : col0;
  const float* b_col[2] = {b + col0, b + col1};

  float4 acc[2 * kQuad][2];  // [row of the tile][column block]
#pragma unroll
  for (int r = 0; r < 2 * kQuad; ++r) acc[r][0] = acc[r][1] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  for (int p = 0; p < k_padded; p += 4) {
    float4 bv[4][2];
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int w = 0; w < 2; ++w) bv[q][w] = load4(b_col[w] + std::size_t(p + q) * ldb);
#pragma unroll
    for (int r = 0; r < 2 * kQuad; ++r) {
      const float4 av = load4(a_row[r] + p);
#pragma unroll
      for (int w = 0; w < 2; ++w) {
        axpy4(acc[r][w], av.x, bv[0][w]);
        axpy4(acc[r][w], av.y, bv[1][w]);
        axpy4(acc[r][w], av.z, bv[2][w]);
        axpy4(acc[r][w], av.w, bv[3][w]);
      }
    }
  }

  const ScaledOutput out{c, ldc, m, n, alpha, beta};
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int i = 0; i < kQuad; ++i) {
      const int row = row0 + h * kSpan + i;
      if (row >= m) continue;
      out.put4(row, col0, acc[h * kQuad + i][0]);
      out.put4(row, col0 + kSpan, acc[h * kQuad + i][1]);
    }
}

}  // namespace

void launch_thread_tile_global(const DeviceGemm& g) {
  const dim3 block(kThreads, kThreads);
  const dim3 grid(ceil_div(g.n, kBlockTile), ceil_div(g.m, kBlockTile));
  thread_tile_global<<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                   g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
