// Seed step: 004 matmul7 (Volkov outer product, after Volkov & Demmel 2008).
// Predecessor: gpu/smem-tiled-template (smem_tiled_template.cu).
// Adds: C is built from outer products instead of dot products. A thread owns one column of a 16x64 C tile in 16
// registers; only the A tile goes through shared memory, while each B element is read once, straight into a
// register.
#include "../runtime/device_gemm.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kM = 16;  // rows of the C tile and of the A tile
constexpr int kK = 32;  // columns of the A tile: the k step
constexpr int kN = 64;  // columns of the C tile = threads per block

static_assert(kN % kK == 0 && kM % (kN / kK) == 0, "the A tile is loaded in whole passes of the block");

// The spec pads m to 16, n to 64 and k to 32 with zeros, so the grid covers the padded C exactly and
// the main loop reads whole tiles without bounds checks. Row tiles ride on grid x: gridDim.y caps at 65535.
__global__ void __launch_bounds__(kN)
    volkov_outer_product_kernel(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb,
                                float* __restrict__ c, int ldc, float alpha, float beta, int m, int n, int k_padded) {
  __shared__ float as[kM * kK];  // as[r * kK + p]
  const int tx = threadIdx.x;
  const int row0 = blockIdx.x * kM;
  const int col = blockIdx.y * kN + tx;

  float s[kM] = {};
  for (int p0 = 0; p0 < k_padded; p0 += kK) {
    // The block covers kN / kK rows of the A tile per pass, a warp reading one 128-byte row segment.
#pragma unroll
    for (int r = 0; r < kM; r += kN / kK)
      as[r * kK + tx] = a[std::size_t(row0 + r + tx / kK) * lda + p0 + tx % kK];
    __syncthreads();
    const float* b_ptr = b + std::size_t(p0) * ldb + col;
#pragma unroll
    for (int p = 0; p < kK; ++p, b_ptr += ldb) {
      const float b_val = *b_ptr;
#pragma unroll
      for (int r = 0; r < kM; ++r) s[r] += as[r * kK + p] * b_val;
    }
    __syncthreads();
  }
  // C's padding rows and columns exist, but the store keeps to the real matrix (see smem_tiled_pitched.cu).
#pragma unroll
  for (int r = 0; r < kM; ++r) {
    const int row = row0 + r;
    if (row < m && col < n) {
      float* out = c + std::size_t(row) * ldc + col;
      *out = scale_output(alpha, beta, s[r], out);
    }
  }
}

}  // namespace

void launch_volkov_outer_product(const DeviceGemm& g) {
  const dim3 grid(unsigned(g.m_padded / kM), unsigned(g.n_padded / kN));
  volkov_outer_product_kernel<<<grid, kN, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                         g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
