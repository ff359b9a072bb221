// Seed 000 gemm_hide_smem_latency: over smem_outer_product, the fragments are double-buffered in registers:
// the shared loads for k+1 are issued before the FMAs of k, which do not depend on them, so the FMAs no
// longer stall on shared-memory latency (the seed's "Stall Short Scoreboard").
#include "device_gemm.cuh"
#include "kernels.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kTM = 8, kTN = 8;                    // outputs per thread: 2x2 blocks of 4x4
constexpr int kHalfM = kBM / 2, kHalfN = kBN / 2;  // distance between a thread's blocks
constexpr int kThreadCols = kBN / kTN;             // 16 threads across a block tile
static_assert((kBM / kTM) * kThreadCols == kThreads, "the threads cover the block tile");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "one float4 of each tile per thread");

__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

__device__ __forceinline__ void unpack4(const float4& v, float* dst) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// The 8 A values and 8 B values a thread needs at one k: two float4s from a row of each tile.
__device__ __forceinline__ void load_fragments(const float* as_k, const float* bs_k, int tx, int ty, float* af,
                                               float* bf) {
  unpack4(load4(as_k + ty * 4), af);
  unpack4(load4(as_k + ty * 4 + kHalfM), af + 4);
  unpack4(load4(bs_k + tx * 4), bf);
  unpack4(load4(bs_k + tx * 4 + kHalfN), bf + 4);
}

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

__global__ __launch_bounds__(kThreads) void register_prefetch(const float* __restrict__ a, int lda,
                                                              const float* __restrict__ b, int ldb,
                                                              float* __restrict__ c, int ldc, float alpha, float beta,
                                                              int m, int n, int k_padded) {
  __shared__ __align__(16) float as[kBK][kBM];
  __shared__ __align__(16) float bs[kBK][kBN];
  const int tid = threadIdx.x;
  const int tx = tid % kThreadCols, ty = tid / kThreadCols;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

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
    const float4 av = a_row < m && k0 + a_c < k_padded ? load4(a_ptr + k0) : zero;
    as[a_c + 0][a_r] = av.x;
    as[a_c + 1][a_r] = av.y;
    as[a_c + 2][a_r] = av.z;
    as[a_c + 3][a_r] = av.w;
    *reinterpret_cast<float4*>(&bs[b_r][b_c]) =
        k0 + b_r < k_padded && b_col < n ? load4(b_ptr + std::size_t(k0) * ldb) : zero;
    __syncthreads();
    float af[2][kTM], bf[2][kTN];
    load_fragments(as[0], bs[0], tx, ty, af[0], bf[0]);
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      if (kk + 1 < kBK) load_fragments(as[kk + 1], bs[kk + 1], tx, ty, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += af[kk % 2][i] * bf[kk % 2][j];
    }
    __syncthreads();
  }

  // acc[i][j] is row ty*4 + i%4 + 64*(i/4), column tx*4 + j%4 + 64*(j/4) of the block tile. A float4 of C
  // is stored when its first column is < n; it then ends inside n_padded.
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = block_row + ty * 4 + i % 4 + i / 4 * kHalfM;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < kTN; j += 4) {
      const int col = block_col + tx * 4 + j / 4 * kHalfN;
      if (col < n) store_scaled4(alpha, beta, &acc[i][j], c + std::size_t(row) * ldc + col);
    }
  }
}

}  // namespace

void launch_register_prefetch(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  register_prefetch<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                     g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
