// Seed step: 000 §8.4.7 gemm_final; 001 v8 (double-buffered shared memory, global prefetch).
// Predecessor: gpu/register-prefetch (register_prefetch.cu); in seed 001, gpu/smem-outer-product
// (smem_outer_product.cu, v7).
// Adds: two shared buffers per tile: the next tile's global loads are issued into registers before this tile's
// FMAs and stored to the other buffer just before its last k, so global latency hides behind compute and one
// __syncthreads per tile suffices.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
// BK = 16 would halve the barriers, but its second prefetched float4 per operand spills under the 128-register
// cap that keeps 2 blocks per SM.
constexpr int kBM = 128, kBN = 128, kBK = 8;
constexpr int kTM = 8, kTN = 8;                    // outputs per thread: 2x2 blocks of 4x4
constexpr int kHalfM = kBM / 2, kHalfN = kBN / 2;  // distance between a thread's blocks
constexpr int kThreadCols = kBN / kTN;             // 16 threads across a block tile
// The transposed A tile's rows are padded by 4 floats: the two threads that load one row of A then store
// their 4+4 values to different banks, and every row still starts 16-byte aligned for the float4 reads.
constexpr int kLdA = kBM + 4;
static_assert((kBM / kTM) * kThreadCols == kThreads, "the threads cover the block tile");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "one float4 of each tile per thread");
static_assert(kBK % 2 == 0, "the fragment buffer of a tile's first k is buffer 0");

// The 8 A values and 8 B values a thread needs at one k: two float4s from a row of each tile.
__device__ __forceinline__ void load_fragments(const float* as_k, const float* bs_k, int tx, int ty, float* af,
                                               float* bf) {
  unpack4(load4(as_k + ty * 4), af);
  unpack4(load4(as_k + ty * 4 + kHalfM), af + 4);
  unpack4(load4(bs_k + tx * 4), bf);
  unpack4(load4(bs_k + tx * 4 + kHalfN), bf + 4);
}

__device__ __forceinline__ void outer_product(float (&acc)[kTM][kTN], const float* af, const float* bf) {
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) acc[i][j] += af[i] * bf[j];
}

// Two blocks per SM (128 registers a thread at most) so one block's barrier wait overlaps the other's FMAs.
__global__ __launch_bounds__(kThreads, 2) void double_buffered(const float* __restrict__ a, int lda,
                                                               const float* __restrict__ b, int ldb,
                                                               float* __restrict__ c, int ldc, float alpha, float beta,
                                                               int m, int n, int k_padded) {
  __shared__ __align__(16) float as[2][kBK][kLdA];
  __shared__ __align__(16) float bs[2][kBK][kBN];
  const int tid = threadIdx.x;
  const int tx = tid % kThreadCols, ty = tid / kThreadCols;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Two threads cover a row of the A tile, 32 threads a row of the B tile.
  const ATileFloat4<kBK> a_tile(a, lda, m, block_row, tid);
  const BTileFloat4<kBN> b_tile(b, ldb, n, block_col, tid);
  float4 ga, gb;  // the next tile, held in registers while this one is multiplied
  auto load_tile = [&](int k0) {
    ga = a_tile.load(k0, k_padded);
    gb = b_tile.load(k0, k_padded);
  };
  auto store_tile = [&](int buf) {
    store_transposed4(as[buf], a_tile.r, a_tile.c, ga);
    store4(&bs[buf][b_tile.r][b_tile.c], gb);
  };

  const int num_tiles = (k_padded + kBK - 1) / kBK;
  load_tile(0);
  store_tile(0);
  __syncthreads();

  float acc[kTM][kTN] = {};
  float af[2][kTM], bf[2][kTN];
  load_fragments(as[0][0], bs[0][0], tx, ty, af[0], bf[0]);
  for (int t = 0; t < num_tiles; ++t) {
    const int cur = t % 2;
    const bool has_next = t + 1 < num_tiles;
    if (has_next) load_tile((t + 1) * kBK);
#pragma unroll
    for (int kk = 0; kk < kBK - 1; ++kk) {
      load_fragments(as[cur][kk + 1], bs[cur][kk + 1], tx, ty, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
      outer_product(acc, af[kk % 2], bf[kk % 2]);
    }
    // Nobody reads the other buffer any more: its last readers passed the previous tile's barrier.
    if (has_next) store_tile(cur ^ 1);
    __syncthreads();
    if (has_next) load_fragments(as[cur ^ 1][0], bs[cur ^ 1][0], tx, ty, af[0], bf[0]);
    outer_product(acc, af[(kBK - 1) % 2], bf[(kBK - 1) % 2]);
  }

  // acc[i][j] is row ty*4 + i%4 + 64*(i/4), column tx*4 + j%4 + 64*(j/4) of the block tile.
  const ScaledOutput out{c, ldc, m, n, alpha, beta};
  out.put_blocks(acc, block_row + ty * 4, kHalfM, block_col + tx * 4, kHalfN);
}

}  // namespace

void launch_double_buffered(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  double_buffered<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                   g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
