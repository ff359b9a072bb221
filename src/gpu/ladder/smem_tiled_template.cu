// Seed step: 004 matmul6 (templated tile).
// Predecessor: gpu/smem-tiled-pitched (smem_tiled_pitched.cu).
// Adds: the tile size becomes a template parameter, so the shared arrays are static, the index arithmetic folds
// into constant offsets and the inner product over a tile is fully unrolled. Same zero-padded layout, no bounds
// checks in the loads.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kTile = 32;  // must divide the spec's padding (32)

// blockDim is T x T and the grid covers the padded C exactly; k_padded is a multiple of T.
template <int T>
__global__ void __launch_bounds__(T * T)
    smem_tiled_template_kernel(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                               float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k_padded) {
  __shared__ float as[T * T];
  __shared__ float bs[T * T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty;
  const int col = blockIdx.x * T + tx;
  const int idx = ty * T + tx;

  float s = 0.0f;
  for (int p0 = 0; p0 < k_padded; p0 += T) {
    as[idx] = a[std::size_t(row) * lda + p0 + tx];
    bs[idx] = b[std::size_t(p0 + ty) * ldb + col];
    __syncthreads();
#pragma unroll
    for (int p = 0; p < T; ++p) s += as[ty * T + p] * bs[p * T + tx];
    __syncthreads();
  }
  // As in smem_tiled_pitched.cu, the store keeps to the real matrix.
  if (row < m && col < n) {
    float* out = c + std::size_t(row) * ldc + col;
    *out = scale_output(alpha, beta, s, out);
  }
}

}  // namespace

void launch_smem_tiled_template(const DeviceGemm& g) {
  const dim3 block(kTile, kTile);
  const dim3 grid(unsigned(g.n_padded / kTile), unsigned(g.m_padded / kTile));
  smem_tiled_template_kernel<kTile><<<grid, block, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta,
                                                                  g.m, g.n, g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
