// Seed step: 003 matrixMul_coalescing (dot products against transposed B).
// Predecessor: gpu/naive-coalesced (naive_coalesced.cu). Seed 003 shows it after matrixMul_tiling, but its kernel
// is the one-thread-per-element dot product, not a tiled one.
// Adds: B is transposed on the device first, so each thread's dot product reads a row of A and a row of Bᵀ, both
// at unit stride like the CPU transposed-b step.
// Both kernels run on the stream and count as compute time.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kTile = 32;      // transpose tile edge
constexpr int kTileRows = 8;   // the transpose block is kTile x kTileRows threads, 4 elements each

// Bᵀ (n x k, leading dimension k) from B (k x n, stride ldb). Going through a shared tile lets a warp
// read a row segment of B and write a row segment of Bᵀ; the +1 column keeps the column-wise tile
// reads free of bank conflicts.
__global__ void transpose_b(const float* __restrict__ b, int ldb, float* __restrict__ bt, int k, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int col0 = blockIdx.x * kTile;  // columns of B = rows of Bᵀ
  const int row0 = blockIdx.y * kTile;  // rows of B = columns of Bᵀ
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const int row = row0 + r, col = col0 + threadIdx.x;
    if (row < k && col < n) tile[r][threadIdx.x] = b[std::size_t(row) * ldb + col];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const int j = col0 + r, p = row0 + threadIdx.x;
    if (j < n && p < k) bt[std::size_t(j) * k + p] = tile[threadIdx.x][r];
  }
}

// As in the seed, threadIdx.x walks the columns j, so a warp reads 32 different rows of Bᵀ per step:
// each thread streams along its own row, relying on the caches rather than on coalescing.
__global__ void dot_rows(const float* __restrict__ a, int lda, const float* __restrict__ bt, float* __restrict__ c,
                         int ldc, float alpha, float beta, int m, int n, int k) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int col = blockIdx.y * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  const float* a_row = a + std::size_t(row) * lda;
  const float* bt_row = bt + std::size_t(col) * k;
  float dot = 0.0f;
  for (int p = 0; p < k; ++p) dot += a_row[p] * bt_row[p];
  float* out = c + std::size_t(row) * ldc + col;
  *out = scale_output(alpha, beta, dot, out);
}

}  // namespace

void launch_dot_transposed_b(const DeviceGemm& g) {
  float* bt = static_cast<float*>(g.scratch);
  const dim3 tblock(kTile, kTileRows);
  const dim3 tgrid(ceil_div(g.n, kTile), ceil_div(g.k, kTile));
  transpose_b<<<tgrid, tblock, 0, g.stream>>>(g.b, g.ldb, bt, g.k, g.n);
  MC_CHECK_LAUNCH();

  const dim3 block(16, 16);
  const dim3 grid(ceil_div(g.m, block.y), ceil_div(g.n, block.x));
  dot_rows<<<grid, block, 0, g.stream>>>(g.a, g.lda, bt, g.c, g.ldc, g.alpha, g.beta, g.m, g.n, g.k);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
