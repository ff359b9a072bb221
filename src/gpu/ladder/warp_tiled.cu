// Seed step: none; one step beyond the seeds (siboehm's SGEMM kernel 10, "warptiling"), after 000 gemm_final /
// 001 v8.
// Predecessor: gpu/double-buffered (double_buffered.cu).
// Adds: each warp owns a 64x32 warp tile that its lanes cover as 2x2 sub-tiles of 32x16, so a warp's fragment
// reads touch 8 float4s of A and 4 of B (one wavefront each) instead of 16 of B. BK = 16, and the next B tile moves
// by cp.async, freeing its registers.
#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kBM = 128, kBN = 128, kBK = 16;
constexpr int kWM = 64, kWN = 32;                            // warp tile: 2 x 4 warps cover the block tile
constexpr int kLaneRows = 8, kLaneCols = 4;                  // the lanes of a warp, as a grid over a warp sub-tile
constexpr int kSubM = kLaneRows * 4, kSubN = kLaneCols * 4;  // 32 x 16: each lane computes 4x4 of it
constexpr int kTM = 2 * 4, kTN = 2 * 4;                      // outputs per thread: the 2x2 sub-tiles' 4x4 pieces
constexpr int kSlab = 8;  // the tiles move as two 8-deep slabs, each loaded like double_buffered's whole tile
// The transposed A tile's rows are padded by 4 floats: the two threads that load one row of an A slab then store
// their 4+4 values to different banks, and every row still starts 16-byte aligned for the float4 reads.
constexpr int kLdA = kBM + 4;
static_assert((kBM / kWM) * (kBN / kWN) * 32 == kThreads, "one warp tile per warp");
static_assert(kLaneRows * kLaneCols == 32 && kWM == 2 * kSubM && kWN == 2 * kSubN, "2x2 sub-tiles per warp");
static_assert(kBM * kSlab == 4 * kThreads && kSlab * kBN == 4 * kThreads, "one float4 of each slab per thread");
static_assert(kBK == 2 * kSlab, "two slabs per tile; kBK even, so a tile's first k uses fragment buffer 0");

// The 8 A values and 8 B values a thread needs at one k: two float4s from a row of each tile, a sub-tile apart.
__device__ __forceinline__ void load_fragments(const float* as_k, const float* bs_k, int a_off, int b_off, float* af,
                                               float* bf) {
  unpack4(load4(as_k + a_off), af);
  unpack4(load4(as_k + a_off + kSubM), af + 4);
  unpack4(load4(bs_k + b_off), bf);
  unpack4(load4(bs_k + b_off + kSubN), bf + 4);
}

__device__ __forceinline__ void outer_product(float (&acc)[kTM][kTN], const float* af, const float* bf) {
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) acc[i][j] += af[i] * bf[j];
}

// Two blocks per SM (128 registers a thread at most) so one block's barrier wait overlaps the other's FMAs.
__global__ __launch_bounds__(kThreads, 2) void warp_tiled(const float* __restrict__ a, int lda,
                                                          const float* __restrict__ b, int ldb, float* __restrict__ c,
                                                          int ldc, float alpha, float beta, int m, int n,
                                                          int k_padded) {
  __shared__ __align__(16) float as[2][kBK][kLdA];
  __shared__ __align__(16) float bs[2][kBK][kBN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = warp / (kBN / kWN) * kWM, warp_col = warp % (kBN / kWN) * kWN;
  const int lane_row = lane / kLaneCols, lane_col = lane % kLaneCols;
  const int a_off = warp_row + lane_row * 4, b_off = warp_col + lane_col * 4;  // in a row of each tile
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // A goes through registers because it is transposed on its way to shared memory; B is copied as it is, so
  // cp.async moves it without registers. Slab s is k0 + s*kSlab.. of the tile.
  const ATileFloat4<kSlab> a_tile(a, lda, m, block_row, tid);
  const BTileFloat4<kBN> b_tile(b, ldb, n, block_col, tid);
  float4 ga[2];  // the next A tile, held in registers while this one is multiplied
  auto load_a = [&](int k0) {
#pragma unroll
    for (int s = 0; s < 2; ++s) ga[s] = a_tile.load(k0 + s * kSlab, k_padded);
  };
  auto store_a = [&](int buf) {
#pragma unroll
    for (int s = 0; s < 2; ++s) store_transposed4(as[buf], a_tile.r, a_tile.c + s * kSlab, ga[s]);
  };
  // Rows past k_padded and columns past n are zero-filled; their source then only has to be a valid address.
  auto copy_b = [&](int k0, int buf) {
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const int k = k0 + s * kSlab;
      const bool in = b_tile.in_range(k, k_padded);
      copy16_async(&bs[buf][b_tile.r + s * kSlab][b_tile.c], in ? b_tile.src + std::size_t(k) * ldb : b, in);
    }
    commit_copies();
  };

  const int num_tiles = (k_padded + kBK - 1) / kBK;
  load_a(0);
  copy_b(0, 0);
  store_a(0);
  wait_copies();
  __syncthreads();

  float acc[kTM][kTN] = {};
  float af[2][kTM], bf[2][kTN];
  load_fragments(as[0][0], bs[0][0], a_off, b_off, af[0], bf[0]);
  for (int t = 0; t < num_tiles; ++t) {
    const int cur = t % 2;
    const bool has_next = t + 1 < num_tiles;
    // Nobody reads the other buffer any more: its last readers passed the previous tile's barrier.
    if (has_next) {
      load_a((t + 1) * kBK);
      copy_b((t + 1) * kBK, cur ^ 1);
    }
#pragma unroll
    for (int kk = 0; kk < kBK - 1; ++kk) {
      load_fragments(as[cur][kk + 1], bs[cur][kk + 1], a_off, b_off, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
      outer_product(acc, af[kk % 2], bf[kk % 2]);
    }
    if (has_next) store_a(cur ^ 1);
    // This thread's copies of the next B tile have landed; after the barrier everyone's have.
    wait_copies();
    __syncthreads();
    if (has_next) load_fragments(as[cur ^ 1][0], bs[cur ^ 1][0], a_off, b_off, af[0], bf[0]);
    outer_product(acc, af[(kBK - 1) % 2], bf[(kBK - 1) % 2]);
  }

  // acc[i][j] is row a_off + i%4 + 32*(i/4), column b_off + j%4 + 16*(j/4) of the block tile.
  const ScaledOutput out{c, ldc, m, n, alpha, beta};
  out.put_blocks(acc, block_row + a_off, kSubM, block_col + b_off, kSubN);
}

}  // namespace

void launch_warp_tiled(const DeviceGemm& g) {
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  warp_tiled<<<grid, kThreads, 0, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                              g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
