// Seeds 000 gemm_use_smem / 001 v5: over smem_remapped_loads, 256 threads each compute 8x8 outputs of a
// 128x128 block tile (each shared value read now serves 8 FMAs, not 4), each thread moves its share of the
// 128x8 A tile and the 8x128 B tile with one float4 load and one float4 shared store, and C is written as float4s.
#include "device_gemm.cuh"
#include "kernels.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kTM = 8, kTN = 8;         // outputs per thread
constexpr int kThreadCols = kBN / kTN;  // 16 threads across a block tile
static_assert((kBM / kTM) * kThreadCols == kThreads, "the threads cover the block tile");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "one float4 of each tile per thread");

__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

// The scale_output rule for 4 adjacent outputs; C is not read when beta == 0.
__device__ __forceinline__ void store_scaled4(float alpha, float beta, const float* dot, float* out) {
  float4 r = make_float4(alpha * dot[0], alpha * dot[1], alpha * dot[2], alpha * dot[3]);
  if (beta != 0.0f) {
    const float4 old = load4(out);
    r.x += beta * old.x;
    r.y += beta * old.y;
    r.z += beta * old.z;
    r.w += beta * old.w;
  }
  *reinterpret_cast<float4*>(out) = r;
}

__global__ __launch_bounds__(kThreads) void smem_float4(const float* __restrict__ a, int lda,
                                                        const float* __restrict__ b, int ldb, float* __restrict__ c,
                                                        int ldc, float alpha, float beta, int m, int n, int k_padded) {
  __shared__ __align__(16) float as[kBM][kBK];
  __shared__ __align__(16) float bs[kBK][kBN];
  const int tid = threadIdx.x;
  const int tx = tid % kThreadCols, ty = tid / kThreadCols;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Two threads cover a row of the A tile, 32 threads a row of the B tile.
  const int a_r = tid / (kBK / 4), a_c = tid % (kBK / 4) * 4;
  const int b_r = tid / (kBN / 4), b_c = tid % (kBN / 4) * 4;
  const int a_row = block_row + a_r;
  const int b_col = block_col + b_c;
  const float* a_ptr = a + std::size_t(a_row < m ? a_row : 0) * lda + a_c;
  const float* b_ptr = b + std::size_t(b_r) * ldb + b_col;
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  float acc[kTM][kTN] = {};
  for (int k0 = 0; k0 < k_padded; k0 += kBK) {
    // k_padded and n_padded are multiples of 4, so a float4 that starts in range lies wholly in range;
    // whatever lies outside the matrices is stored as 0.
    *reinterpret_cast<float4*>(&as[a_r][a_c]) = a_row < m && k0 + a_c < k_padded ? load4(a_ptr + k0) : zero;
    *reinterpret_cast<float4*>(&bs[b_r][b_c]) =
        k0 + b_r < k_padded && b_col < n ? load4(b_ptr + std::size_t(k0) * ldb) : zero;
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

  // A float4 of C is stored when its first column is < n; it then ends inside n_padded.
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = block_row + ty * kTM + i;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int col = block_col + tx * kTN + j;
      if (col < n) store_scaled4(alpha, beta, &acc[i][j], c + std::size_t(row) * ldc + col);
    }
  }
}

}  // namespace

void launch_smem_float4(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  smem_float4<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                               g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
