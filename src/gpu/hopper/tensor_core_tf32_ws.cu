// Fast path: gpu/tensor-core-tf32-ws, beyond the seeds (Hopper, sm_90a); also the engine of gpu/tensor-core-3xtf32.
// Extends: gpu/tensor-core-tf32 (tensor_core_tf32.cu), itself after gpu/wmma-tf32 (ladder/wmma_tf32.cu).
// Adds: the same C^T = B^T A^T warpgroup MMA, now warp-specialized and persistent. A producer warpgroup only
// issues TMA copies of both tiles (B too, in the 128-byte swizzle) into a 4-stage mbarrier ring; two consumer
// warpgroups only multiply, with their register fragments double-buffered so that the next k tile's shared loads
// overlap the tensor cores, and rounded to TF32 by one add instead of cvt.rna (four instructions per value on
// sm_90, which kept the tensor pipe waiting); A, which only the wgmmas read, is rounded by the TMA copy. Blocks stay
// resident and walk the output tiles in grouped order (where K is not split), so a tile's epilogue overlaps the
// producer's loads for the next. The block tile is 256x128, 128x256, 128x128 or, for a short C, 64x256 (a wgmma of
// 128 or 256 rows would multiply rows that are not there), whichever leaves the last wave of blocks least empty, and
// where the tiles are fewer than the SMs, up to four blocks (eight of 64x256) share one tile's k loop as one cluster,
// and add their sums up through each other's shared memory; where the GPU cannot run every such cluster at once, the
// larger tiles keep their splits and a second kernel adds their sums from planes in device memory (tf32_passes.hpp).
// Run with three passes over K on split operands, it is also the engine of gpu/tensor-core-3xtf32; there B's parts
// arrive split and K-major by TMA like A's, both wgmma operands are read from shared memory, the last pass adds each
// k tile's products to the accumulators in FP32 rather than in the tensor cores' chain, which drops bits at every
// step, and the persistent grid's waves are kept in step where there are several. (With B split in registers, its
// partial sums left ptxas too few registers to pipeline the wgmmas: bench/NOTES.md, "Both operands from shared
// memory"; tests/check_wgmma_pipelines.cmake keeps every kernel pipelined.) Needs sm_90a.
// Layouts: B stored transposed (N×K) arrives by TMA K-major, and the consumers read their fragments from it with
// four 4-byte loads instead of two 8-byte ones; A stored transposed is first copied K-major, rounded to TF32, into
// scratch (k_major_copy.cuh), inside the timed computation: TF32 wgmma reads its shared-memory operand K-major only.
// A product of a few rows is bound by memory, not arithmetic: it goes to the few-rows kernels (simt/few_rows.cu).
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "../simt/few_rows.hpp"
#include "hopper.cuh"
#include "k_major_copy.cuh"
#include "tensor_core.hpp"
#include "tf32_passes.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kBK = kTf32Depth;                  // depth of a k tile: one 128-byte swizzle row of A
constexpr int kConsumers = 2;                    // warpgroups that multiply; one more produces
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kBBoxCols = 32;                    // a B box row is one 128-byte swizzle row
constexpr int kBBoxBytes = kBK * kBBoxCols * 4;  // 4 KiB
constexpr int kAlign = 1024;                     // the 128-byte swizzle repeats every 8 rows
constexpr int kRingBytes = 192 * 1024;
constexpr int kGroup = 8;                        // block rows per rasterization group
// Registers move from the producer, which needs few, to the consumers' 128 accumulators and up to 2 x 32 fragments.
// The three-pass kernel's consumers hold a 64-float partial sum more (see kPieceRows) and no fragments, and the
// producer still fits the fewest registers a warp can be left with.
template <int kPasses>
constexpr int kProducerRegisters = kPasses == 3 ? 24 : 40;
template <int kPasses>
constexpr int kConsumerRegisters = kPasses == 3 ? 240 : 232;
static_assert(kProducerRegisters<1> * 128 + kConsumerRegisters<1> * 128 * kConsumers <= 65536, "one block per SM");
static_assert(kProducerRegisters<3> * 128 + kConsumerRegisters<3> * 128 * kConsumers <= 65536, "one block per SM");
static_assert(kBK * 4 == 128 && kBBoxBytes % kAlign == 0, "tiles are whole 128-byte swizzle periods");

// A block tile of kRows rows of C (the wgmma N: A's TMA box) by kConsumers x kSlabs x 64 columns: each consumer
// holds kSlabs wgmma tiles of 64 x kRows of C^T, one per 64 columns.
template <int kRows, int kSlabs>
struct Tile {
  static constexpr int kBM = kRows, kBN = kConsumers * kSlabs * 64;
  static constexpr int kAccs = kRows / 2;  // per slab: 64 x kRows over the 128 threads of a warpgroup
  static constexpr int kATileBytes = kBM * kBK * 4;
  static constexpr int kBBoxes = kBN / kBBoxCols;
  static constexpr int kStageBytes = kATileBytes + kBBoxes * kBBoxBytes;
  static constexpr int kStages = kRingBytes / kStageBytes;
  static constexpr int kBarrierOffset = kStages * kStageBytes;  // then full[kStages], empty[kStages]
  static constexpr std::size_t kSmemBytes = std::size_t(kBarrierOffset) + 2 * kStages * 8 + kAlign;
  static_assert(kATileBytes % kAlign == 0, "A tiles are whole 128-byte swizzle periods");
  static_assert(kBM == 256 || kBM == 128 || kBM == 64, "TMA boxes have at most 256 rows; wgmma N is 64, 128 or 256");
  static_assert(kStages >= 4, "the ring keeps the producer a few tiles ahead");
  static_assert(kSlabs * kAccs <= 128, "accumulators fit the consumer's registers");
};

#if MC_HOPPER_DEVICE_CODE
template <int kRegisters>
__device__ __forceinline__ void grow_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}
template <int kRegisters>
__device__ __forceinline__ void shrink_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}

// The register operand rounded to TF32 as cvt.rna rounds (to nearest, ties away from zero) but in fewer
// instructions: the tensor cores read only the top 19 bits of an FP32 register, so adding half a TF32 ulp to the
// bits and letting the hardware drop the low 13 is that rounding. (On sm_90 cvt.rna.tf32 is four ALU instructions
// per value: a compare with infinity, the add, a select and the mask; at 16 values per consumer thread and k tile
// they were a large share of what the consumers issued: bench/NOTES.md, "The consumers' rounding".) Infinities and
// NaNs pass unchanged, as from cvt.rna.
__device__ __forceinline__ std::uint32_t tf32_bits(float x) {
  const std::uint32_t bits = __float_as_uint(x);
  return fabsf(x) < INFINITY ? bits + 0x1000u : bits;
}
// One k tile's register fragments from the B boxes of a stage: thread (g, t4)'s pairs of adjacent C columns at
// k = t4 (lo_offset) and t4 + 4 (hi_offset) of each k8 step, rounded to TF32.
template <int kSlabs, int kSlabBytes>
__device__ __forceinline__ void load_fragments(const unsigned char* b_stage, int lo_offset, int hi_offset,
                                               std::uint32_t (&frag)[kSlabs][kBK / 8][4]) {
#pragma unroll
  for (int j = 0; j < kSlabs; ++j) {
#pragma unroll
    for (int k8 = 0; k8 < kBK / 8; ++k8) {
      const unsigned char* rows = b_stage + j * kSlabBytes + k8 * 8 * 128;
      const float2 lo = *reinterpret_cast<const float2*>(rows + lo_offset);
      const float2 hi = *reinterpret_cast<const float2*>(rows + hi_offset);
      const float v[4] = {lo.x, lo.y, hi.x, hi.y};
#pragma unroll
      for (int e = 0; e < 4; ++e) frag[j][k8][e] = tf32_bits(v[e]);
    }
  }
}

// The same fragments from K-major B boxes (B stored N×K): a box row is one C column's 32 k values, its 16-byte
// chunks swizzled with the row's index mod 8. `base` is this thread's first column's row and t4's word; `swizzle`
// that column's index mod 8, times 16 (the pair's second column, the next row, has the next). Values of one column
// are 4 words apart in k, so each is a load of its own, and lanes g and g + 2 meet in a bank (two-way conflicts).
template <int kSlabs, int kSlabBytes>
__device__ __forceinline__ void load_fragments_k_major(const unsigned char* b_stage, int base, int swizzle,
                                                       std::uint32_t (&frag)[kSlabs][kBK / 8][4]) {
#pragma unroll
  for (int j = 0; j < kSlabs; ++j) {
#pragma unroll
    for (int k8 = 0; k8 < kBK / 8; ++k8) {
      const unsigned char* row = b_stage + j * kSlabBytes + base;
      const int lo = 2 * k8 * 16, hi = lo + 16;  // chunks of k = 8 k8 + t4 and 8 k8 + t4 + 4
      const float v[4] = {*reinterpret_cast<const float*>(row + (lo ^ swizzle)),
                          *reinterpret_cast<const float*>(row + 128 + (lo ^ (swizzle + 16))),
                          *reinterpret_cast<const float*>(row + (hi ^ swizzle)),
                          *reinterpret_cast<const float*>(row + 128 + (hi ^ (swizzle + 16)))};
#pragma unroll
      for (int e = 0; e < 4; ++e) frag[j][k8][e] = tf32_bits(v[e]);
    }
  }
}

// The 256 consumer threads meet (named barrier 1, which the producer warpgroup never joins).
__device__ __forceinline__ void consumers_sync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }

// The epilogue of a tile whose K is split among the blocks of one cluster, block r of which summed slice r of K. Each
// block leaves its raw sums in its own ring, which its k loop no longer needs: the pair of accumulators that one
// float2 of C holds (4j + v and 4j + v + 2 of a slab, v = 0, 1: store_transposed_tile) at [slab pair][consumer
// thread]. Then block r adds up its share of the pairs over the cluster's blocks in rank order (K's order, the sum
// one block would have made), each consumer thread the pairs it held itself, and writes them to C. Groups of 8 rows
// wholly past m are skipped, other rows past m not written. Every block then waits until the others have read its
// ring before it may leave.
template <int kSlabs, int kAccs>
__device__ __forceinline__ void add_cluster_slices(const float (&acc)[kSlabs][kAccs], std::uint32_t ring, int splits,
                                                   float* c, int ldc, int m, int n, float alpha, float beta, int row0,
                                                   int col0, int slab_cols, int t4) {
  constexpr int kPairs = kAccs / 2;  // per slab
  const int thread = threadIdx.x - 128;  // of the consumers
  consumers_sync();  // the other consumer warpgroup's last wgmmas have read the ring
#pragma unroll
  for (int j = 0; j < kSlabs; ++j)
#pragma unroll
    for (int p = 0; p < kPairs; ++p)
      store_shared_float2(ring + ((j * kPairs + p) * 256 + thread) * 8, acc[j][4 * (p / 2) + p % 2],
                          acc[j][4 * (p / 2) + p % 2 + 2]);
  cluster_sync();
  const int rank = cluster_rank();
  const int live_groups = min(kAccs / 4, (m - row0 + 7) / 8);  // a slab's groups of 8 rows with a row below m
  const int live = kSlabs * 2 * live_groups;
  for (int f = rank * live / splits; f < (rank + 1) * live / splits; ++f) {
    const int slab = f / (2 * live_groups), group = f % (2 * live_groups) / 2, v = f % 2;
    const std::uint32_t at = ring + ((slab * kPairs + 2 * group + v) * 256 + thread) * 8;
    float2 sum = load_cluster_float2(at, 0);
    for (int s = 1; s < splits; ++s) {
      const float2 x = load_cluster_float2(at, s);
      sum.x += x.x;
      sum.y += x.y;
    }
    const int row = row0 + 8 * group + 2 * t4 + v, col = col0 + slab * slab_cols;
    if (row >= m || col >= n) continue;
    float* out = c + std::size_t(row) * ldc + col;
    float2 res = make_float2(alpha * sum.x, alpha * sum.y);
    if (beta != 0.0f) {
      const float2 old = *reinterpret_cast<const float2*>(out);
      res.x += beta * old.x;
      res.y += beta * old.y;
    }
    *reinterpret_cast<float2*>(out) = res;
  }
  cluster_sync();
}
#endif

// kPasses == 1: C = alpha A B + beta C in TF32, B from b_map's boxes (stored N×K when kBKMajor) through registers.
// kPasses == 3: a_map holds A's small TF32 parts in rows [0, big_a_rows) and its big parts from big_a_rows on, b_map
// B^T's the same way from big_b_rows (its rows in paired_row order), both read by the wgmmas from shared memory; the
// passes add small(A) big(B), big(A) small(B), big(A) big(B), the small terms first so that they are not lost against
// the large partial sums, the last pass's k tiles each summed apart and added in FP32 (see promoted_from). A unit of
// work is one tile's share of its k tiles, all passes over them (so that a split's sums are whole products of its
// slice of K); with splits > 1 the grid is one unit a block, launched in clusters of `splits` blocks (a tile's
// slices, block r of a cluster slice r), which add their sums up in shared memory (add_cluster_slices); or, where the
// plan sums in planes, each unit writes its raw sum to its plane of `partials` (rows ld_partial apart) instead of C.
// wave_count, where not null, is a zeroed count in device memory that keeps the blocks' waves of units in step (see
// the producer).
template <int kRows, int kSlabs, bool kBKMajor, int kPasses>
__global__ __launch_bounds__(kThreads, 1) void tensor_core_tf32_ws(const __grid_constant__ CUtensorMap a_map,
                                                                   const __grid_constant__ CUtensorMap b_map,
                                                                   float* __restrict__ c, int ldc, float alpha,
                                                                   float beta, int m, int n, int k_padded,
                                                                   int big_a_rows, int big_b_rows, int splits,
                                                                   float* __restrict__ partials, int ld_partial,
                                                                   unsigned* __restrict__ wave_count) {
#if MC_HOPPER_DEVICE_CODE
  using T = Tile<kRows, kSlabs>;
  constexpr int kStages = T::kStages, kStageBytes = T::kStageBytes, kATileBytes = T::kATileBytes;
  extern __shared__ unsigned char smem_raw[];
  // The swizzle is applied to absolute shared addresses, so tiles must start on a 1024-byte boundary; the
  // dynamic window's start is only 16-byte aligned for sure.
  const std::uint32_t raw_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem_raw));
  const std::uint32_t smem_addr = (raw_addr + kAlign - 1) & ~std::uint32_t(kAlign - 1);
  const unsigned char* smem = smem_raw + (smem_addr - raw_addr);
  const std::uint32_t full = smem_addr + T::kBarrierOffset, empty = full + kStages * 8;

  const int tid = threadIdx.x, warpgroup = tid / 128;
  const int tiles_m = (m + T::kBM - 1) / T::kBM, tiles_n = (n + T::kBN - 1) / T::kBN;
  const int k_tiles = (k_padded + kBK - 1) / kBK;  // per output tile
  const int units = tiles_m * tiles_n * splits;
  // Unit u: tile u / splits, its k tiles [k_first, k_first + k_count), each pass over them in turn: kPasses x k_count
  // steps.
  auto unit_of = [&](int u, int& tile_m, int& tile_n, int& k_first, int& k_count) {
    rasterize(u / splits, tiles_m, tiles_n, kGroup, tile_m, tile_n);
    k_first = u % splits * k_tiles / splits;
    k_count = (u % splits + 1) * k_tiles / splits - k_first;
  };

  if (tid == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) {
      init_barrier(full + s * 8, 1);
      init_barrier(empty + s * 8, kConsumers * 4);  // every consumer warp releases a stage it has read
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();  // the barriers exist before anyone waits on them or a TMA completes on them

  // Ring position `it` counts k tiles over all of this block's units: stage it % kStages, its use number
  // it / kStages selects the barrier phase.
  // With a wave count, the producer starts a block's unit of wave w + 1 (units [(w + 1) G, (w + 2) G) of a grid of G
  // blocks) only once every block has issued the loads of its unit of wave w: the tiles of a wave, neighbours in the
  // raster, then walk K together and find each other's operand tiles in the L2. Left alone, blocks that finish a unit
  // early start the next early, the waves drift apart over many units, and the three passes' large products read
  // their operands from DRAM several times over (bench/NOTES.md, "3xTF32's waves in step"; one pass gains less, its
  // units a third as long: "The TF32 row's waves in step").
  if (warpgroup == 0) {
    shrink_registers<kProducerRegisters<kPasses>>();
    if (tid != 0) return;
    int it = 0, wave = 0;
    for (int u = blockIdx.x; u < units; u += gridDim.x, ++wave) {
      if (wave_count != nullptr && wave > 0) wait_for_count(wave_count, unsigned(wave) * gridDim.x);
      int tile_m, tile_n, k_first, k_count;
      unit_of(u, tile_m, tile_n, k_first, k_count);
      int pass = 0, k_tile = k_first;  // of each step, counted on rather than divided out
      for (int step = 0; step < kPasses * k_count; ++step, ++it) {
        const int k0 = k_tile * kBK;
        const bool small_a = pass == 0, small_b = pass == 1;
        if (++k_tile == k_first + k_count) k_tile = k_first, ++pass;
        const int s = it % kStages;
        if (it >= kStages) wait_barrier(empty + s * 8, (it / kStages - 1) % 2);  // its last tile was read
        const std::uint32_t stage = smem_addr + s * kStageBytes;
        expect_bytes(full + s * 8, kStageBytes);
        load_tile_2d(&a_map, stage, full + s * 8, k0, tile_m * T::kBM + (small_a ? 0 : big_a_rows));
        if constexpr (kPasses == 3) {
          load_tile_2d(&b_map, stage + kATileBytes, full + s * 8, k0, tile_n * T::kBN + (small_b ? 0 : big_b_rows));
        } else {
#pragma unroll
          for (int i = 0; i < T::kBBoxes; ++i) {
            const int box_col = tile_n * T::kBN + i * kBBoxCols;
            if (kBKMajor)
              load_tile_2d(&b_map, stage + kATileBytes + i * kBBoxBytes, full + s * 8, k0, box_col);
            else
              load_tile_2d(&b_map, stage + kATileBytes + i * kBBoxBytes, full + s * 8, box_col, k0);
          }
        }
      }
      if (wave_count != nullptr) atomicAdd(wave_count, 1u);
    }
    return;
  }

  grow_registers<kConsumerRegisters<kPasses>>();
  const int consumer = warpgroup - 1, warp = tid / 32 % 4, lane = tid % 32, g = lane / 4, t4 = lane % 4;
  // Fragment of the register operand (PTX "wgmma .tf32 register fragment A"): thread (g, t4) of a warp holds rows
  // g, g+8 at k = t4, t4+4. M order within a warp is free (it only permutes rows of C^T); rows g and g+8 are taken
  // as a pair of adjacent C columns, one 8-byte load. The pairs are placed so that a half-warp's loads hit 32
  // different banks of the swizzled B box: lanes g = 0, 1 and g = 2, 3 use 16-byte chunks 4 apart (the swizzle
  // XORs the chunk with k % 8, and t4 only reaches its low 2 bits); the warps of a pair share a box. A slab's
  // 64 columns are two boxes; slab j of consumer q is slab q * kSlabs + j of the tile. Three passes read B^T's
  // slab from shared memory instead, its rows in paired_row order: a warp's rows g and g + 8 of its 16 are the
  // adjacent C columns 2g and 2g + 1 there.
  const int box = 2 * consumer * kSlabs + warp / 2;
  const int chunk = 2 * (warp % 2) + g / 4 + (g / 2 % 2) * 4;
  const int half = g % 2;
  const int tile_col =
      kPasses == 3 ? consumer * kSlabs * 2 * kBBoxCols + warp * 16 + 2 * g : box * kBBoxCols + chunk * 4 + half * 2;
  const int lo_offset = box * kBBoxBytes + t4 * 128 + (chunk ^ t4) * 16 + half * 8;
  const int hi_offset = box * kBBoxBytes + (t4 + 4) * 128 + (chunk ^ (t4 + 4)) * 16 + half * 8;
  // K-major boxes: the pair's first column is row chunk * 4 + half * 2 of its box (even, so the second's index mod 8
  // is one more).
  const int k_major_row = chunk * 4 + half * 2;
  const int k_major_base = box * kBBoxBytes + k_major_row * 128 + t4 * 4, k_major_swizzle = k_major_row % 8 * 16;
  constexpr int kSlabBytes = 2 * kBBoxBytes, kSlabCols = 2 * kBBoxCols;

  // 3xTF32's last pass, big(A) big(B), carries the product's magnitude. A chain of wgmmas adds into its accumulators
  // inside the tensor cores, which drop the bits past the accumulator's last place rather than round them: over a
  // pass of K / 8 steps the lost bits add up to an error that grows as K, not as sqrt(K) (bench/NOTES.md,
  // "3xTF32's error grows as K"). So each k tile of that pass is summed apart, 64 columns by 128 rows of C (a
  // piece; the 64-row tile's whole 64) at a time, into `part`, and added to the accumulators in FP32, rounded to
  // nearest. (Two 64x64 partial sums in turn, the next piece's wgmmas running while the last was added, ran slower:
  // the same NOTES section.)
  // The small passes stay in the tensor cores' chain: their sums are 2^-11 of the product, and so are their lost
  // bits.
  constexpr int kPieceRows = kRows < 128 ? kRows : 128, kPieces = kRows / kPieceRows;  // per slab
  constexpr int kPieceBytes = kPieceRows * kBK * 4, kPieceAccs = kPieceRows / 2;
  int it = 0;
  float acc[kSlabs][T::kAccs];
  float part[kPieceAccs];
  std::uint32_t frag[2][kSlabs][kBK / 8][4];
  for (int u = blockIdx.x; u < units; u += gridDim.x) {
    int tile_m, tile_n, k_first, k_count;
    unit_of(u, tile_m, tile_n, k_first, k_count);
    // The unit's steps: the small passes', then from promoted_from on the big pass's.
    const int steps = kPasses * k_count, promoted_from = kPasses == 3 ? 2 * k_count : steps;
#pragma unroll
    for (int j = 0; j < kSlabs; ++j)
#pragma unroll
      for (int i = 0; i < T::kAccs; ++i) acc[j][i] = 0.0f;
    int previous_stage = -1;
    // One k tile of a chained pass: its fragments load while the previous tile's wgmmas run (three passes have
    // none: B^T's slabs are in the stage); once those are done, their stage goes back to the producer and their
    // fragment buffer is free for the next tile.
    auto multiply_chained = [&](std::uint32_t(&f)[kSlabs][kBK / 8][4]) {
      const int s = it % kStages;
      wait_barrier(full + s * 8, it / kStages % 2);
      const std::uint32_t a_tile = smem_addr + s * kStageBytes, b_slabs = a_tile + kATileBytes;
      if constexpr (kPasses == 3) {
        wgmma_fence();
#pragma unroll
        for (int k8 = 0; k8 < kBK / 8; ++k8)
#pragma unroll
          for (int j = 0; j < kSlabs; ++j)
            wgmma_tf32_k8_ss(acc[j], smem_descriptor(b_slabs + (consumer * kSlabs + j) * kSlabBytes + k8 * 32),
                             smem_descriptor(a_tile + k8 * 32), 1);
      } else {
        const unsigned char* b_stage = smem + s * kStageBytes + kATileBytes;
        if (kBKMajor)
          load_fragments_k_major<kSlabs, kSlabBytes>(b_stage, k_major_base, k_major_swizzle, f);
        else
          load_fragments<kSlabs, kSlabBytes>(b_stage, lo_offset, hi_offset, f);
        wgmma_fence();
#pragma unroll
        for (int k8 = 0; k8 < kBK / 8; ++k8)
#pragma unroll
          for (int j = 0; j < kSlabs; ++j) wgmma_tf32_k8(acc[j], f[j][k8], smem_descriptor(a_tile + k8 * 32));
      }
      wgmma_commit();
      wgmma_wait<1>();
      if (previous_stage >= 0 && lane == 0) arrive_barrier(empty + previous_stage * 8);
      previous_stage = s;
      ++it;
    };
    // One k tile of the promoted pass: each piece's products summed apart in `part`, then added to acc. The wgmmas
    // that write acc are all done before this runs (see the wait below): were one of them still in flight where acc
    // is added to, ptxas would serialize every wgmma of the kernel (warning C7515).
    auto multiply_promoted = [&]() {
      const int s = it % kStages;
      wait_barrier(full + s * 8, it / kStages % 2);
      const std::uint32_t a_tile = smem_addr + s * kStageBytes, b_slabs = a_tile + kATileBytes;
#pragma unroll
      for (int j = 0; j < kSlabs; ++j) {
        const std::uint32_t b_slab = b_slabs + (consumer * kSlabs + j) * kSlabBytes;
#pragma unroll
        for (int q = 0; q < kPieces; ++q) {
          wgmma_fence();  // part was last read by the adds below
#pragma unroll
          for (int k8 = 0; k8 < kBK / 8; ++k8)
            wgmma_tf32_k8_ss(part, smem_descriptor(b_slab + k8 * 32),
                             smem_descriptor(a_tile + q * kPieceBytes + k8 * 32), k8);
          wgmma_commit();
          wgmma_wait<0>();
          settle_accumulators(part);
#pragma unroll
          for (int i = 0; i < kPieceAccs; ++i) acc[j][q * kPieceAccs + i] += part[i];
        }
      }
      if (lane == 0) arrive_barrier(empty + s * 8);
      ++it;
    };
    for (int step = 0; step < promoted_from; step += 2) {
      multiply_chained(frag[0]);
      if (step + 1 < promoted_from) multiply_chained(frag[1]);
    }
    wgmma_wait<0>();
    if (previous_stage >= 0 && lane == 0) arrive_barrier(empty + previous_stage * 8);
    if constexpr (kPasses == 3)
      for (int step = promoted_from; step < steps; ++step) multiply_promoted();
    const int row0 = tile_m * T::kBM, col0 = tile_n * T::kBN + tile_col;
#pragma unroll
    for (int j = 0; j < kSlabs; ++j) settle_accumulators(acc[j]);
    if (splits > 1 && partials == nullptr) {
      static_assert(kSlabs * T::kAccs * 256 * 4 <= T::kBarrierOffset, "a block's sums fit its ring");
      add_cluster_slices(acc, smem_addr, splits, c, ldc, m, n, alpha, beta, row0, col0, kSlabCols, t4);
    } else if (splits > 1) {
      float* plane = partials + std::size_t(u % splits) * m * ld_partial;
#pragma unroll
      for (int j = 0; j < kSlabs; ++j)
        store_transposed_tile(acc[j], plane, ld_partial, m, n, 1.0f, 0.0f, row0, col0 + j * kSlabCols, t4);
    } else {
#pragma unroll
      for (int j = 0; j < kSlabs; ++j)
        store_transposed_tile(acc[j], c, ldc, m, n, alpha, beta, row0, col0 + j * kSlabCols, t4);
    }
  }
#endif
}

// C = alpha (sum of the splits' planes, in split order) + beta C, four columns per thread: the planes' rows are
// 16-byte aligned, and C's too when ldc is a multiple of 4 (C itself starts on a cudaMallocPitch boundary). Columns
// past n hold nothing to add (at most column n is written, as the pair of an odd n's last column).
__global__ void sum_partials(const float* __restrict__ partials, int ld_partial, int splits, float* __restrict__ c,
                             int ldc, int m, int n, float alpha, float beta) {
  const int quads_per_row = (n + 3) / 4;
  const std::size_t plane = std::size_t(m) * ld_partial;
  for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < m * quads_per_row; q += gridDim.x * blockDim.x) {
    const int row = q / quads_per_row, col = q % quads_per_row * 4;
    const float* p = partials + std::size_t(row) * ld_partial + col;
    float* out = c + std::size_t(row) * ldc + col;
    if (col + 4 <= n && ldc % 4 == 0) {
      float4 sum = *reinterpret_cast<const float4*>(p);
      for (int s = 1; s < splits; ++s) {
        const float4 x = *reinterpret_cast<const float4*>(p + s * plane);
        sum = make_float4(sum.x + x.x, sum.y + x.y, sum.z + x.z, sum.w + x.w);
      }
      store_scaled4(alpha, beta, sum, out);
    } else {
      for (int j = 0; j < 4 && col + j < n; ++j) {
        float sum = p[j];
        for (int s = 1; s < splits; ++s) sum += p[s * plane + j];
        out[j] = scale_output(alpha, beta, sum, out + j);
      }
    }
  }
}

// The launch of a tile's kernel: its shared memory allowed, and clusters of `cluster_size` blocks where it is above 1.
template <int kRows, int kSlabs, bool kBKMajor, int kPasses>
cudaLaunchConfig_t launch_config(int grid, int cluster_size, cudaStream_t stream, cudaLaunchAttribute& cluster) {
  using T = Tile<kRows, kSlabs>;
  MC_CUDA_CHECK(cudaFuncSetAttribute(tensor_core_tf32_ws<kRows, kSlabs, kBKMajor, kPasses>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(T::kSmemBytes)));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(grid));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = T::kSmemBytes;
  config.stream = stream;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = unsigned(cluster_size);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = cluster_size > 1 ? 1 : 0;
  return config;
}

// How many blocks of a tile run at once in clusters of `size` blocks: a cluster's blocks share one GPC, whose SMs
// need not divide by the size. Asked of the runtime once per device, tile and size, since the plan is made at every
// launch; one kernel of the tile stands for all four (one pass or three, B either way), which share its block, its
// shared memory and one block an SM.
template <int kRows, int kSlabs>
int tile_cluster_slots(int size) {
  int device = 0;
  MC_CUDA_CHECK(cudaGetDevice(&device));
  if (size == 1) {  // one block an SM, no cluster
    int sms = 0;
    MC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  }
  static std::mutex mutex;
  static std::map<std::pair<int, int>, int> known;  // (device, size) -> slots
  const std::lock_guard<std::mutex> lock(mutex);
  auto at = known.find({device, size});
  if (at == known.end()) {
    // Before sm_90 there are no clusters: no slots then (the launch says the GPU is not Hopper: require_wgmma).
    int major = 0, clusters = 0;
    MC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major >= 9) {
      cudaLaunchAttribute cluster{};
      const cudaLaunchConfig_t config =
          launch_config<kRows, kSlabs, false, 1>(size * tile_cluster_slots<kRows, kSlabs>(1), size, nullptr, cluster);
      MC_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, tensor_core_tf32_ws<kRows, kSlabs, false, 1>, &config));
    }
    at = known.emplace(std::make_pair(device, size), clusters * size).first;
  }
  return at->second;
}

// b: B^T's split parts for three passes; for one, B is g.b. partials: the plan's planes, where it sums in planes.
// wave_count, where not null, keeps the waves in step: zeroed here, and the grid launched cooperatively, so that the
// runtime refuses it rather than let a block wait for one that is not running.
template <int kRows, int kSlabs, bool kBKMajor, int kPasses>
void launch_tile(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Operand* b,
                 const Tf32Plan& plan, unsigned* wave_count, float* partials) {
  using T = Tile<kRows, kSlabs>;
  const int splits = plan.splits, sms = plan.sm_count;
  const int units = int(ceil_div(g.m, T::kBM) * ceil_div(g.n, T::kBN)) * splits;
  // A split tile's blocks each take one unit, and add their sums up as one cluster (of at most 8 blocks) or in planes.
  if (splits < 1 || splits > kTf32MaxSplits)
    throw std::logic_error(std::string(step) + ": the plan (" + tf32_plan_name(plan) + ") splits K " +
                           std::to_string(splits) + " ways; a split has 1 to " + std::to_string(kTf32MaxSplits) +
                           " blocks");
  if (splits > 1 && units > sms)
    throw std::logic_error(std::string(step) + ": the plan (" + tf32_plan_name(plan) + ") has " +
                           std::to_string(units) + " units of work for " + std::to_string(sms) +
                           " SMs; a split tile's blocks each take one");
  // A, which only the wgmmas read, is rounded to TF32 by the copy engine; three passes' parts are TF32 values
  // already. One pass's B arrives exact: the consumers round it as they load their fragments.
  const TmaValues a_values = kPasses == 1 ? TmaValues::rounded_to_tf32 : TmaValues::exact;
  const CUtensorMap a_map = tensor_map_128b_swizzle(step, a.data, a.rows, g.k_padded, a.ld, T::kBM, kBK, a_values);
  CUtensorMap b_map;
  if (kPasses == 3)
    b_map = tensor_map_128b_swizzle(step, b->data, b->rows, g.k_padded, b->ld, T::kBN, kBK, TmaValues::exact);
  else if (kBKMajor)
    b_map = tensor_map_128b_swizzle(step, g.b, g.n, g.k_padded, g.ldb, kBBoxCols, kBK, TmaValues::exact);
  else
    b_map = tensor_map_128b_swizzle(step, g.b, g.k_padded, g.n, g.ldb, kBK, kBBoxCols, TmaValues::exact);
  const bool planes = splits > 1 && plan.sums_in_planes;
  const int ld_partial = tf32_partial_ld(g.n);
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t config = launch_config<kRows, kSlabs, kBKMajor, kPasses>(units < sms ? units : sms,
                                                                               planes ? 1 : splits, g.stream, cluster);
  cudaLaunchAttribute cooperative{};
  if (wave_count != nullptr) {
    if (splits != 1) throw std::logic_error(std::string(step) + ": waves in step need an unsplit plan");
    MC_CUDA_CHECK(cudaMemsetAsync(wave_count, 0, sizeof(unsigned), g.stream));
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
  }
  MC_CUDA_CHECK(cudaLaunchKernelEx(&config, tensor_core_tf32_ws<kRows, kSlabs, kBKMajor, kPasses>, a_map, b_map, g.c,
                                   g.ldc, g.alpha, g.beta, g.m, g.n, g.k_padded, a.big_rows, b ? b->big_rows : 0,
                                   splits, planes ? partials : nullptr, ld_partial, wave_count));
  if (!planes) return;
  sum_partials<<<4 * sms, 256, 0, g.stream>>>(partials, ld_partial, splits, g.c, g.ldc, g.m, g.n, g.alpha, g.beta);
  MC_CHECK_LAUNCH();
}

template <bool kBKMajor, int kPasses>
void launch_planned(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Operand* b,
                    const Tf32Plan& plan, unsigned* wave_count, float* partials) {
  if (plan.tile.rows == 256) return launch_tile<256, 1, kBKMajor, kPasses>(g, step, a, b, plan, wave_count, partials);
  if (plan.tile.rows == 64) return launch_tile<64, 2, kBKMajor, kPasses>(g, step, a, b, plan, wave_count, partials);
  if (plan.tile.cols == 256) return launch_tile<128, 2, kBKMajor, kPasses>(g, step, a, b, plan, wave_count, partials);
  return launch_tile<128, 1, kBKMajor, kPasses>(g, step, a, b, plan, wave_count, partials);
}

// Throws unless the plan's planes fit `partial_capacity` bytes.
void check_partials(const DeviceGemm& g, const char* step, const Tf32Plan& plan, std::size_t partial_capacity) {
  const std::size_t needed = tf32_partial_bytes(GemmShape{g.m, g.n, g.k}, plan);
  if (needed > partial_capacity)
    throw std::logic_error(std::string(step) + ": the plan (" + tf32_plan_name(plan) + ") needs " +
                           std::to_string(needed) + " bytes of planes and the scratch has " +
                           std::to_string(partial_capacity) +
                           " (was MATCOMPARE_TF32_TILE changed after it was sized?)");
}

// The tile MATCOMPARE_TF32_TILE names, or nullptr.
const Tf32Tile* forced_tile() { return tf32_tile_named(std::getenv(kTf32TileVariable)); }

}  // namespace

int tf32_cluster_slots(const Tf32Tile& t, int size) {
  if (t.rows == 256) return tile_cluster_slots<256, 1>(size);
  if (t.rows == 64) return tile_cluster_slots<64, 2>(size);
  if (t.cols == 256) return tile_cluster_slots<128, 2>(size);
  return tile_cluster_slots<128, 1>(size);
}

Tf32Plan tf32_plan_here(const GemmShape& s) {
  return tf32_plan(s, multiprocessor_count(), forced_tile(), tf32_cluster_slots);
}

std::size_t tf32_scratch_bytes(const GemmShape& s) {
  if (few_rows_takes(s, kFewRowsTf32Rows)) return few_rows_scratch_bytes(s, kFewRowsTf32Rows);
  return tf32_k_major_a_bytes(s) + tf32_partial_bytes(s, tf32_plan_here(s)) + kWaveCountBytes;
}

void launch_tf32_pass(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Plan& plan,
                      unsigned* wave_count, float* partials, std::size_t partial_capacity) {
  require_wgmma(step);
  check_partials(g, step, plan, partial_capacity);
  if (g.b_transposed) return launch_planned<true, 1>(g, step, a, nullptr, plan, wave_count, partials);
  launch_planned<false, 1>(g, step, a, nullptr, plan, wave_count, partials);
}

void launch_3xtf32_passes(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Operand& b,
                          const Tf32Plan& plan, unsigned* wave_count, float* partials, std::size_t partial_capacity) {
  require_wgmma(step);
  check_partials(g, step, plan, partial_capacity);
  launch_planned<false, 3>(g, step, a, &b, plan, wave_count, partials);
}

KernelChoice choose_tensor_core_tf32_ws(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  if (few_rows_takes(shape, kFewRowsTf32Rows)) return {few_rows_choose(g) + " (FP32)"};
  return {tf32_engine_name("TF32", shape, tf32_plan_here(shape))};
}

void launch_tensor_core_tf32_ws(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  float* scratch = static_cast<float*>(g.scratch);
  if (few_rows_takes(shape, kFewRowsTf32Rows))
    return launch_few_rows(g, few_rows_plan_here(shape), scratch, g.scratch_bytes);
  const Tf32Plan plan = tf32_plan_here(shape);
  const char* step = "gpu/tensor-core-tf32-ws";
  // The scratch: A copied K-major where it is stored transposed, then the plan's planes, then the wave count. A
  // comes first, at the scratch's own alignment: with the count ahead of it, every 128-byte row the copy engine loads
  // spanned two lines and the TN products lost a third of their speed, which placing the count last gave back
  // (bench/NOTES.md, "The TF32 row's waves in step" and "… with the count after A's copy").
  const std::size_t a_bytes = g.a_transposed ? std::size_t(g.m) * g.k_padded * sizeof(float) : 0;
  const std::size_t planes_bytes = tf32_partial_bytes(shape, plan);
  if (a_bytes + planes_bytes + kWaveCountBytes > g.scratch_bytes)
    throw std::logic_error("gpu/tensor-core-tf32-ws: its scratch has no room for A, the planes and the wave count");
  float* planes = scratch + a_bytes / sizeof(float);
  unsigned* wave_count = tf32_waves_in_step(shape, plan)
                             ? reinterpret_cast<unsigned*>(planes + planes_bytes / sizeof(float))
                             : nullptr;
  const Tf32Operand a = g.a_transposed ? Tf32Operand{scratch, g.m, g.k_padded, 0} : Tf32Operand{g.a, g.m, g.lda, 0};
  if (g.a_transposed) launch_k_major_a<1>(g, g.m, scratch);
  launch_tf32_pass(g, step, a, plan, wave_count, planes, planes_bytes);
}

}  // namespace matcompare::gpu
