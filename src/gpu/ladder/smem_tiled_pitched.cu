// Seed step: 004 matmul5 (padded, cudaMallocPitch).
// Predecessor: gpu/smem-tiled (smem_tiled.cu).
// Adds: the matrices are allocated rounded up to whole 32x32 tiles with zero padding (the spec pads m, n, k to
// 32), so the kernel loops over the padded extents and loads without bounds checks; only the final store keeps to
// the real m x n.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kTile = 32;  // must divide the spec's padding (32)

// blockDim is tile x tile and the grid covers the padded C exactly; k_padded is a multiple of the tile.
__global__ void smem_tiled_pitched_kernel(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                          float* __restrict__ c, int ldc, float alpha, float beta, int m, int n,
                                          int k_padded) {
  extern __shared__ float sh_mem[];
  const int tile = blockDim.x;
  float* as = sh_mem;
  float* bs = sh_mem + tile * tile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  const int idx = ty * tile + tx;

  float s = 0.0f;
  for (int p0 = 0; p0 < k_padded; p0 += tile) {
    as[idx] = a[std::size_t(row) * lda + p0 + tx];
    bs[idx] = b[std::size_t(p0 + ty) * ldb + col];
    __syncthreads();
    for (int p = 0; p < tile; ++p) s += as[ty * tile + p] * bs[p * tile + tx];
    __syncthreads();
  }
  // The padding rows and columns of C exist, but storing there would read C's padding when beta != 0
  // and change memory outside the result; one comparison keeps the store to the real matrix.
  if (row < m && col < n) {
    float* out = c + std::size_t(row) * ldc + col;
    *out = scale_output(alpha, beta, s, out);
  }
}

}  // namespace

void launch_smem_tiled_pitched(const DeviceGemm& g) {
  const dim3 block(kTile, kTile);
  const dim3 grid(unsigned(g.n_padded / kTile), unsigned(g.m_padded / kTile));
  const std::size_t smem = 2 * kTile * kTile * sizeof(float);
  smem_tiled_pitched_kernel<<<grid, block, smem, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m,
                                                             g.n, g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
