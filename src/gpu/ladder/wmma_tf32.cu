// Seed step: 001 v10 (tensor cores, WMMA TF32).
// Predecessor: gpu/double-buffered (double_buffered.cu, 001 v8; 001 v9 is cuBLAS, the gpu/cublas-fp32 row).
// Adds: tensor cores through WMMA: each warp multiplies 16x8 by 8x16 TF32 fragments (m16n16k8, float accumulators)
// into a 64x32 warp tile of a 128x128 block tile. The A and B tiles (BK = 32) stay double-buffered, now copied
// global->shared by cp.async with zero fill, so no registers hold the next tile and the 64 accumulator registers
// still leave room for 2 blocks per SM. C is staged through shared memory so the alpha/beta epilogue and the edge
// guards are plain per-element code.
#include <mma.h>

#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "ladder.hpp"

namespace matcompare::gpu {
namespace {

using namespace nvcuda;

constexpr int kThreads = 256;  // 8 warps
constexpr int kBM = 128, kBN = 128, kBK = 32;
constexpr int kWM = 64, kWN = 32;           // warp tile: 2 x 4 warps cover the block tile
constexpr int kFM = 16, kFN = 16, kFK = 8;  // the TF32 WMMA shape
constexpr int kFragsM = kWM / kFM, kFragsN = kWN / kFN;
// Rows padded by 4 floats: fragment loads of neighbouring rows fall in different banks, while every
// fragment still starts 32-byte aligned and ldm stays a multiple of 4 as WMMA requires.
constexpr int kLdA = kBK + 4, kLdB = kBN + 4, kLdC = kBN + 4;
constexpr int kTileFloats = kBM * kLdA + kBK * kLdB;  // one A tile and one B tile
constexpr int kLoadsA = kBM * kBK / 4 / kThreads;     // 16-byte copies per thread per tile
constexpr int kLoadsB = kBK * kBN / 4 / kThreads;
constexpr int kRowsA = kThreads / (kBK / 4), kRowsB = kThreads / (kBN / 4);  // tile rows one pass covers
constexpr int kStores = kBM * kBN / 4 / kThreads;
constexpr int kStageFloats = kBM * kLdC;  // the C staging tile reuses the tile buffers
constexpr int kSmemFloats = 2 * kTileFloats > kStageFloats ? 2 * kTileFloats : kStageFloats;
constexpr std::size_t kSmemBytes = sizeof(float) * kSmemFloats;  // 70656
static_assert((kBM / kWM) * (kBN / kWN) * 32 == kThreads, "one warp tile per warp");
static_assert(kLoadsA * kRowsA == kBM && kLoadsB * kRowsB == kBK, "copies cover the tiles");
static_assert((kBM * kLdA) % 8 == 0 && kTileFloats % 8 == 0, "tiles start 32-byte aligned");

using FragA = wmma::fragment<wmma::matrix_a, kFM, kFN, kFK, wmma::precision::tf32, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, kFM, kFN, kFK, wmma::precision::tf32, wmma::row_major>;
using FragC = wmma::fragment<wmma::accumulator, kFM, kFN, kFK, float>;

template <typename Frag>
__device__ __forceinline__ void round_to_tf32(Frag& f) {
#pragma unroll
  for (int e = 0; e < f.num_elements; ++e) f.x[e] = wmma::__float_to_tf32(f.x[e]);
}

__global__ __launch_bounds__(kThreads, 2) void wmma_tf32(const float* __restrict__ a, int lda,
                                                         const float* __restrict__ b, int ldb, float* __restrict__ c,
                                                         int ldc, float alpha, float beta, int m, int n, int k_padded) {
  extern __shared__ __align__(128) float smem[];  // [2][A tile, B tile], at the end the C staging tile
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_row = warp / (kBN / kWN) * kWM, warp_col = warp % (kBN / kWN) * kWN;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

  // Copy l of a thread is A tile row a_r + l*kRowsA at column a_c, and B tile row b_r + l*kRowsB at
  // column b_c: a warp reads whole 128-byte row segments. k_padded and n_padded are multiples of 4, so a
  // 16-byte piece that starts in range lies wholly in range; the rest of the tiles is zero-filled.
  const int a_r = tid / (kBK / 4), a_c = tid % (kBK / 4) * 4;
  const int b_r = tid / (kBN / 4), b_c = tid % (kBN / 4) * 4;
  const bool b_col_in = block_col + b_c < n;
  auto copy_tile = [&](int k0, int buf) {
    float* as = smem + buf * kTileFloats;
    float* bs = as + kBM * kLdA;
#pragma unroll
    for (int l = 0; l < kLoadsA; ++l) {
      const int row = block_row + a_r + l * kRowsA, col = k0 + a_c;
      const bool in = row < m && col < k_padded;
      copy16_async(as + (a_r + l * kRowsA) * kLdA + a_c, in ? a + std::size_t(row) * lda + col : a, in);
    }
#pragma unroll
    for (int l = 0; l < kLoadsB; ++l) {
      const int row = k0 + b_r + l * kRowsB, col = block_col + b_c;
      const bool in = b_col_in && row < k_padded;
      copy16_async(bs + (b_r + l * kRowsB) * kLdB + b_c, in ? b + std::size_t(row) * ldb + col : b, in);
    }
    commit_copies();
  };

  FragC acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const int num_tiles = (k_padded + kBK - 1) / kBK;
  copy_tile(0, 0);
  for (int t = 0; t < num_tiles; ++t) {
    const int cur = t % 2;
    // This thread's copies of tile t have landed; after the barrier everyone's have, and everyone has
    // finished reading tile t-1, whose buffer the copies of tile t+1 then overwrite during this tile's mma.
    wait_copies();
    __syncthreads();
    if (t + 1 < num_tiles) copy_tile((t + 1) * kBK, cur ^ 1);
    // The k loop is unrolled by 2, not 4: full unrolling hoists the fragment loads of all 4 steps and runs
    // out of registers.
    const float* as = smem + cur * kTileFloats;
    const float* bs = as + kBM * kLdA;
#pragma unroll 2
    for (int kk = 0; kk < kBK; kk += kFK) {
      FragB fb[kFragsN];
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        wmma::load_matrix_sync(fb[j], bs + kk * kLdB + warp_col + j * kFN, kLdB);
        round_to_tf32(fb[j]);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        FragA fa;
        wmma::load_matrix_sync(fa, as + (warp_row + i * kFM) * kLdA + kk, kLdA);
        round_to_tf32(fa);
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], fa, fb[j], acc[i][j]);
      }
    }
  }
  // The staging tile overwrites the tile buffers: wait until every warp has finished its last mma.
  __syncthreads();

  float* cs = smem;
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
      wmma::store_matrix_sync(cs + (warp_row + i * kFM) * kLdC + warp_col + j * kFN, acc[i][j], kLdC,
                              wmma::mem_row_major);
  __syncthreads();

  const ScaledOutput out{c, ldc, m, n, alpha, beta};
#pragma unroll 4
  for (int l = 0; l < kStores; ++l) {
    const int idx = tid + l * kThreads;
    const int r = idx / (kBN / 4), c4 = idx % (kBN / 4) * 4;
    const int row = block_row + r, col = block_col + c4;
    if (row >= m || col >= n) continue;  // skips the staging read as well
    out.put4(row, col, load4(cs + r * kLdC + c4));
  }
}

}  // namespace

void launch_wmma_tf32(const DeviceGemm& g) {
  MC_CUDA_CHECK(cudaFuncSetAttribute(wmma_tf32, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)));
  // Ask for the largest shared-memory carve-out so two blocks of 69 KiB fit on an SM.
  MC_CUDA_CHECK(
      cudaFuncSetAttribute(wmma_tf32, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  wmma_tf32<<<grid, kThreads, kSmemBytes, g.stream>>>(g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                      g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
