#pragma once
// Fast path: the kernel of gpu/simt-tuned, beyond the seeds.
// Extends: gpu/warp-tiled (ladder/warp_tiled.cu).
// Adds: the warp-tiled design made a parameter space, so a tuner can pick the point that is fastest on a given GPU
// and shape (simt_tuning.hpp). Over ladder/warp_tiled.cu:
//  - a cp.async ring of kStages tiles for B, and for A too when A is kept row-major in shared memory
//    (its rows are then read as float4 along k, 4 k steps at a time, instead of transposed);
//  - B stored N×K kept [n][k] in shared memory as it is stored where the registers allow, its columns read as float4
//    along k the same way;
//  - block tile, warp tile, lane grid, K step and blocks per SM as template parameters;
//  - grouped rasterization: consecutive blocks sweep a group of block rows, so their A rows and B columns
//    are reused from L2 (a run-time parameter).
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "simt_tuning.hpp"

namespace matcompare::gpu::simt {

// kAStoredKM_ and kBStoredNK_ are the layout (matcompare/layout.hpp): A stored transposed (K×M) and B stored
// transposed (N×K). An operand whose global layout differs from its shared-memory tile's goes through registers.
template <int kBM_, int kBN_, int kBK_, int kWM_, int kWN_, int kLaneRows_, int kStages_, bool kTransposedA_,
          int kMinBlocks_, bool kAStoredKM_ = false, bool kBStoredNK_ = false>
struct Config {
  static constexpr int kBM = kBM_, kBN = kBN_, kBK = kBK_;  // block tile
  static constexpr int kWM = kWM_, kWN = kWN_;              // warp tile
  static constexpr int kLaneRows = kLaneRows_, kLaneCols = 32 / kLaneRows_;
  static constexpr int kStages = kStages_;
  static constexpr bool kTransposedA = kTransposedA_;  // A's shared tile stored [k][m]; else [m][k]
  static constexpr int kMinBlocks = kMinBlocks_;
  static constexpr bool kAStoredKM = kAStoredKM_, kBStoredNK = kBStoredNK_;
  static constexpr bool kAStaged = kAStoredKM != kTransposedA;  // A's float4s run across its shared tile's rows
  template <bool kA, bool kB>
  using WithLayout = Config<kBM_, kBN_, kBK_, kWM_, kWN_, kLaneRows_, kStages_, kTransposedA_, kMinBlocks_, kA, kB>;
  static constexpr int kThreads = (kBM / kWM) * (kBN / kWN) * 32;
  // A lane computes 4x4 blocks kRM x kRN times, the blocks one lane grid apart: a warp's float4 fragment reads
  // then cover contiguous 16-byte pieces.
  static constexpr int kRM = kWM / (4 * kLaneRows), kRN = kWN / (4 * kLaneCols);
  static constexpr int kTM = 4 * kRM, kTN = 4 * kRN;
  // Row-major A rows are padded by 4 floats so that lanes reading rows 4 apart hit different banks; the
  // transposed tile is padded by 4 for the same reason as in ladder/warp_tiled.cu.
  static constexpr int kLdA = kTransposedA ? kBM + 4 : kBK + 4;
  static constexpr int kATileFloats = kTransposedA ? kBK * kLdA : kBM * kLdA;
  static constexpr int kStageFloats = kATileFloats + kBK * kBN;
  static constexpr std::size_t kSmemBytes = std::size_t(kStages) * kStageFloats * sizeof(float);
  static constexpr int kACopies = kBM * kBK / 4 / kThreads, kBCopies = kBK * kBN / 4 / kThreads;
  // B stored N×K keeps its tile [n][k], moved by cp.async, where a lane's 4 k steps of B fragments, its accumulators
  // and about 48 more registers fit what a thread may have at kMinBlocks blocks an SM; elsewhere (where that spilled
  // 36-340 bytes) its float4s go through registers into a [k][n] tile (bench/NOTES.md, "B stored N×K kept [n][k]").
  static constexpr bool kBTileNK = kBStoredNK && kTM * kTN + 4 * kTN + 48 <= 65536 / (kThreads * kMinBlocks);
  static constexpr int kBQuads = kBK / 4;  // 16-byte pieces of a row of an [n][k] B tile

  static_assert(kBM % kWM == 0 && kBN % kWN == 0, "warp tiles cover the block tile");
  static_assert(32 % kLaneRows == 0 && kRM >= 1 && kRN >= 1 && kRM * 4 * kLaneRows == kWM &&
                    kRN * 4 * kLaneCols == kWN,
                "the lane grid covers the warp tile in 4x4 blocks");
  static_assert(kBK % 4 == 0 && kACopies >= 1 && kBCopies >= 1 && kACopies * kThreads * 4 == kBM * kBK &&
                    kBCopies * kThreads * 4 == kBK * kBN,
                "every thread moves whole float4s of both tiles");
  static_assert(kStages >= 2, "at least double buffering");
  static_assert(kThreads % (kBN / 4) == 0 && kThreads % (kBK / 4) == 0,
                "a thread's copies of a tile are whole rows apart, at one column");
  static_assert(8 % kBQuads == 0 && kBN * kBQuads % 8 == 0,
                "an [n][k] B tile is whole 128-byte lines of whole rows (b_nk_piece)");
};

// Where piece q (k = 4q .. 4q + 3) of column n lives in an [n][k] B tile, in 16-byte pieces. A lane's fragment reads
// take the columns of 8 lanes 4 apart at one k quad (LaneTile): unswizzled, their pieces would fall in at most two
// bank groups. Each 128-byte line of the tile (2 rows at kBK 16) has its 8 pieces permuted by XOR with (n / 4) % 8,
// constant over the line: those 8 columns then land in 8 different bank groups, and the copies, 8 consecutive pieces
// a phase, still fill one line each.
template <typename C>
__device__ __forceinline__ int b_nk_piece(int n, int q) {
  return (n * C::kBQuads + q) ^ ((n / 4) & 7);
}

// A lane's first row and column of its 4x4 blocks, relative to the block tile.
template <typename C>
struct LaneTile {
  int a_first, b_first;
  __device__ __forceinline__ explicit LaneTile(int tid) {
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row = warp / (C::kBN / C::kWN) * C::kWM, warp_col = warp % (C::kBN / C::kWN) * C::kWN;
    a_first = warp_row + lane / C::kLaneCols * 4;
    b_first = warp_col + lane % C::kLaneCols * 4;
  }
};

// acc += the block tile at (block_row, block_col) over k tiles kt_begin .. kt_end - 1, k below k_end: the whole k
// loop of a one-tile block, or the head or the tail of a cut tile.
template <typename C>
__device__ __forceinline__ void tile_product(float* smem, const float* __restrict__ a, int lda,
                                             const float* __restrict__ b, int ldb, int m, int n, int block_row,
                                             int block_col, int kt_begin, int kt_end, int k_end,
                                             float (&acc)[C::kTM][C::kTN]) {
  const int tid = threadIdx.x;
  const LaneTile<C> lanes(tid);
  const int a_first = lanes.a_first, b_first = lanes.b_first;

  auto a_stage = [&](int s) { return smem + s * C::kStageFloats; };
  auto b_stage = [&](int s) { return smem + s * C::kStageFloats + C::kATileFloats; };

  // A thread's copies, worked out once: copy l of a family reads row first + l * step of its tile at a fixed
  // column, so one pointer per family, advanced a tile at a time, serves them all, and only the k bound is checked
  // per tile. (Computing every address afresh cost the loop 64-bit multiplies and kernel parameters reloaded.)
  // B stored K×N: copy l is float4 number tid + l*kThreads of the kBK x kBN tile, row-major.
  constexpr int kBRowStep = C::kThreads / (C::kBN / 4);
  const int b_row = tid / (C::kBN / 4), b_col = tid % (C::kBN / 4) * 4;
  const bool b_col_in = block_col + b_col < n;
  const std::size_t b_copy_stride = std::size_t(kBRowStep) * ldb, b_tile_stride = std::size_t(C::kBK) * ldb;
  const float* b_next = b + std::size_t(b_row) * ldb + block_col + b_col + kt_begin * b_tile_stride;  // next to fetch
  // B stored N×K into an [n][k] tile: piece f = tid + l*kThreads is column f / kBQuads, k quad f % kBQuads, so that
  // kBQuads neighbouring threads read one column's 16 * kBQuads contiguous bytes of B; a thread's copies are
  // kBColStep columns apart at one k quad, so one pointer serves them, as for B stored K×N.
  constexpr int kBColStep = C::kThreads / C::kBQuads;
  const int nk_col = tid / C::kBQuads, nk_k = tid % C::kBQuads * 4;
  const int nk_cols_in = n - block_col - nk_col <= 0 ? 0 : (n - block_col - nk_col + kBColStep - 1) / kBColStep;
  const float* nk_next = b + std::size_t(block_col + nk_col) * ldb + nk_k + std::size_t(kt_begin) * C::kBK;
  // Into a [k][n] tile, through registers: float4 number f runs along k, at column f % kBN and k quad f / kBN, so the
  // 32 lanes of a warp hold 32 consecutive columns and their scalar stores hit 32 banks; each lane reads a 16-byte
  // piece of its own row of B, the other pieces of those 32-byte sectors being the same lane's next copies, served by
  // L1.
  constexpr bool kBStaged = C::kBStoredNK && !C::kBTileNK;
  std::size_t b_nk_offset[kBStaged ? C::kBCopies : 1];  // column's row of B plus the k quad, at k tile 0
  bool b_nk_in[kBStaged ? C::kBCopies : 1];
  float4 staged_b[kBStaged ? C::kBCopies : 1];
  if constexpr (kBStaged) {
#pragma unroll
    for (int l = 0; l < C::kBCopies; ++l) {
      const int f = tid + l * C::kThreads, col = f % C::kBN, k4 = f / C::kBN * 4;
      b_nk_offset[l] = std::size_t(block_col + col) * ldb + k4;
      b_nk_in[l] = block_col + col < n;
    }
  }
  auto copy_b = [&](int tile, int s) {
    if constexpr (C::kBTileNK) {
      const bool k_in = tile * C::kBK + nk_k < k_end;
      const float* src = nk_next;
#pragma unroll
      for (int l = 0; l < C::kBCopies; ++l, src += std::size_t(kBColStep) * ldb)
        copy16_async(b_stage(s) + 4 * b_nk_piece<C>(nk_col + l * kBColStep, nk_k / 4), src, k_in && l < nk_cols_in);
      nk_next += C::kBK;
    } else if constexpr (kBStaged) {
      const float* tile_b = b + std::size_t(tile) * C::kBK;
#pragma unroll
      for (int l = 0; l < C::kBCopies; ++l) {
        const int k4 = (tid + l * C::kThreads) / C::kBN * 4;
        const bool in = b_nk_in[l] && tile * C::kBK + k4 < k_end;
        staged_b[l] = in ? load4(tile_b + b_nk_offset[l]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      }
    } else {
      const float* src = b_next;
#pragma unroll
      for (int l = 0; l < C::kBCopies; ++l, src += b_copy_stride) {
        const bool in = b_col_in && tile * C::kBK + b_row + l * kBRowStep < k_end;
        copy16_async(b_stage(s) + (b_row + l * kBRowStep) * C::kBN + b_col, src, in);
      }
      b_next += b_tile_stride;
    }
  };
  auto store_staged_b = [&](int s) {
    if constexpr (kBStaged) {
#pragma unroll
      for (int l = 0; l < C::kBCopies; ++l) {
        const int f = tid + l * C::kThreads;
        float* bs = b_stage(s) + f / C::kBN * 4 * C::kBN + f % C::kBN;
        bs[0] = staged_b[l].x;
        bs[C::kBN] = staged_b[l].y;
        bs[2 * C::kBN] = staged_b[l].z;
        bs[3 * C::kBN] = staged_b[l].w;
      }
    }
  };
  // A stored M×K: copy l is float4 number tid + l*kThreads of the kBM x kBK tile, row-major.
  constexpr int kARowStep = C::kThreads / (C::kBK / 4);
  const int a_row = tid / (C::kBK / 4), a_col = tid % (C::kBK / 4) * 4;
  // The copies whose rows are inside A: the first a_rows_in of them.
  const int a_rows_in = m - block_row - a_row <= 0 ? 0 : (m - block_row - a_row + kARowStep - 1) / kARowStep;
  const float* a_next = a + std::size_t(block_row + a_row) * lda + a_col + kt_begin * C::kBK;
  const std::size_t a_copy_stride = std::size_t(kARowStep) * lda;
  // A stored K×M: float4 number f runs along m. Into a [k][m] tile it is copied as it is, row f / (kBM / 4) of the
  // k tile; into an [m][k] tile, through registers, its k is f % kBK so that the lanes' scalar stores (rows kLdA
  // apart) hit 32 banks.
  auto km_copy = [](int f, int& k, int& m4) {
    k = C::kTransposedA ? f / (C::kBM / 4) : f % C::kBK;
    m4 = (C::kTransposedA ? f % (C::kBM / 4) : f / C::kBK) * 4;
  };
  std::size_t a_km_offset[C::kAStoredKM ? C::kACopies : 1];  // at k tile 0
  bool a_km_in[C::kAStoredKM ? C::kACopies : 1];
  if constexpr (C::kAStoredKM) {
#pragma unroll
    for (int l = 0; l < C::kACopies; ++l) {
      int k, m4;
      km_copy(tid + l * C::kThreads, k, m4);
      a_km_offset[l] = std::size_t(k) * lda + block_row + m4;
      a_km_in[l] = block_row + m4 < m;
    }
  }
  float4 staged_a[C::kAStaged ? C::kACopies : 1];  // the next A tile, where it goes through registers
  auto fetch_a = [&](int tile, int s) {
    if constexpr (C::kAStoredKM) {
      const float* tile_a = a + std::size_t(tile) * C::kBK * lda;
#pragma unroll
      for (int l = 0; l < C::kACopies; ++l) {
        int k, m4;
        km_copy(tid + l * C::kThreads, k, m4);
        const bool in = a_km_in[l] && tile * C::kBK + k < k_end;
        if constexpr (C::kAStaged)
          staged_a[l] = in ? load4(tile_a + a_km_offset[l]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        else
          copy16_async(a_stage(s) + k * C::kLdA + m4, tile_a + a_km_offset[l], in);
      }
    } else {
      const bool k_in = tile * C::kBK + a_col < k_end;
      const float* src = a_next;
#pragma unroll
      for (int l = 0; l < C::kACopies; ++l, src += a_copy_stride) {
        const bool in = k_in && l < a_rows_in;
        if constexpr (C::kAStaged)
          staged_a[l] = in ? load4(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        else
          copy16_async(a_stage(s) + (a_row + l * kARowStep) * C::kLdA + a_col, src, in);
      }
      a_next += C::kBK;
    }
  };
  auto store_staged_a = [&](int s) {
    if constexpr (C::kAStaged && C::kAStoredKM) {
#pragma unroll
      for (int l = 0; l < C::kACopies; ++l) {
        int k, m4;
        km_copy(tid + l * C::kThreads, k, m4);
        float* as = a_stage(s) + m4 * C::kLdA + k;
        as[0] = staged_a[l].x;
        as[C::kLdA] = staged_a[l].y;
        as[2 * C::kLdA] = staged_a[l].z;
        as[3 * C::kLdA] = staged_a[l].w;
      }
    } else if constexpr (C::kAStaged) {
#pragma unroll
      for (int l = 0; l < C::kACopies; ++l) {
        float* as = a_stage(s) + a_row + l * kARowStep;
        as[(a_col + 0) * C::kLdA] = staged_a[l].x;
        as[(a_col + 1) * C::kLdA] = staged_a[l].y;
        as[(a_col + 2) * C::kLdA] = staged_a[l].z;
        as[(a_col + 3) * C::kLdA] = staged_a[l].w;
      }
    }
  };

  // The k steps k4 .. k4 + 3 of the stage, each accumulated in k order. A's fragments: transposed, one float4 per 4
  // rows and k; row-major, one float4 per row along k. B's: [k][n], one float4 per 4 columns and k; [n][k], one float4
  // per column along k, every column's read first, then A's a k step (transposed) or a row (row-major) at a time, so
  // that no more than one operand's 4 k steps are held at once (both at once spilled).
  auto multiply_k4 = [&](const float* as, const float* bs, int k4) {
    if constexpr (C::kBTileNK) {
      float bq[C::kTN][4];
#pragma unroll
      for (int j = 0; j < C::kTN; ++j)
        unpack4(load4(bs + 4 * b_nk_piece<C>(b_first + j / 4 * (4 * C::kLaneCols) + j % 4, k4 / 4)), bq[j]);
#pragma unroll
      for (int i = 0; i < C::kTM; i += 4) {
        const int row = a_first + i / 4 * (4 * C::kLaneRows);
        if constexpr (C::kTransposedA) {
#pragma unroll
          for (int kk = 0; kk < 4; ++kk) {
            float af[4];
            unpack4(load4(as + (k4 + kk) * C::kLdA + row), af);
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
              for (int j = 0; j < C::kTN; ++j) acc[i + r][j] += af[r] * bq[j][kk];
          }
        } else {
#pragma unroll
          for (int r = 0; r < 4; ++r) {
            float af[4];
            unpack4(load4(as + (row + r) * C::kLdA + k4), af);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
              for (int j = 0; j < C::kTN; ++j) acc[i + r][j] += af[kk] * bq[j][kk];
          }
        }
      }
    } else {
      float af[4][C::kTM];
#pragma unroll
      for (int i = 0; i < C::kTM; i += 4) {
        const int row = a_first + i / 4 * (4 * C::kLaneRows);
        if constexpr (C::kTransposedA) {
#pragma unroll
          for (int kk = 0; kk < 4; ++kk) unpack4(load4(as + (k4 + kk) * C::kLdA + row), &af[kk][i]);
        } else {
#pragma unroll
          for (int r = 0; r < 4; ++r) {
            const float4 v = load4(as + (row + r) * C::kLdA + k4);
            af[0][i + r] = v.x;
            af[1][i + r] = v.y;
            af[2][i + r] = v.z;
            af[3][i + r] = v.w;
          }
        }
      }
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        float bf[C::kTN];
#pragma unroll
        for (int j = 0; j < C::kTN; j += 4)
          unpack4(load4(bs + (k4 + kk) * C::kBN + b_first + j / 4 * (4 * C::kLaneCols)), &bf[j]);
#pragma unroll
        for (int i = 0; i < C::kTM; ++i)
#pragma unroll
          for (int j = 0; j < C::kTN; ++j) acc[i][j] += af[kk][i] * bf[j];
      }
    }
  };
  // With B [n][k] the k quads are not unrolled: unrolled, ptxas fetched every quad's B fragments ahead and spilled.
  auto multiply_stage = [&](int s) {
    if constexpr (C::kBTileNK) {
#pragma unroll 1
      for (int k4 = 0; k4 < C::kBK; k4 += 4) multiply_k4(a_stage(s), b_stage(s), k4);
    } else {
#pragma unroll
      for (int k4 = 0; k4 < C::kBK; k4 += 4) multiply_k4(a_stage(s), b_stage(s), k4);
    }
  };

  // The ring: tile t lives in stage t % kStages; kStages - 1 tiles are in flight while one is multiplied.
  // Tiles past the end are fetched too, as zeros without a read of memory (the k bound), into stages nothing
  // reads again: the loop then has no branch around its copies.
#pragma unroll
  for (int s = 0; s < C::kStages - 1; ++s) {
    const int tile = kt_begin + s;
    fetch_a(tile, tile % C::kStages);
    store_staged_a(tile % C::kStages);
    copy_b(tile, tile % C::kStages);
    store_staged_b(tile % C::kStages);
    commit_copies();
  }
  for (int t = kt_begin; t < kt_end; ++t) {
    wait_copies_but<C::kStages - 2>();
    // Tile t is complete for everyone, and everyone is done with tile t-1, whose stage is refilled next.
    __syncthreads();
    const int next = t + C::kStages - 1;
    fetch_a(next, next % C::kStages);
    copy_b(next, next % C::kStages);
    commit_copies();
    multiply_stage(t % C::kStages);
    // The register-staged operands arrive during the multiply; their stage is read only after the barrier at the
    // top of a later iteration.
    store_staged_a(next % C::kStages);
    store_staged_b(next % C::kStages);
  }
  wait_copies();  // the zero tiles past the end land before the ring is used again or the block leaves
}

// Where a kernel writes C: as it is, or, for a product turned around (simt_tuning.hpp, simt_turns), transposed.
template <bool kTransposedC>
using OutputOf = std::conditional_t<kTransposedC, TransposedScaledOutput, ScaledOutput>;

// One block per tile: tiles 0 .. gridDim.x - 1 in rasterized order.
template <typename C, bool kTransposedC = false>
__global__ __launch_bounds__(C::kThreads, C::kMinBlocks) void simt_tuned_kernel(
    const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, float* __restrict__ c, int ldc,
    float alpha, float beta, int m, int n, int k_padded, int group) {
  extern __shared__ float4 smem4[];
  int tile_m, tile_n;
  rasterize(blockIdx.x, (m + C::kBM - 1) / C::kBM, (n + C::kBN - 1) / C::kBN, group, tile_m, tile_n);
  const int block_row = tile_m * C::kBM, block_col = tile_n * C::kBN;
  float acc[C::kTM][C::kTN] = {};
  tile_product<C>(reinterpret_cast<float*>(smem4), a, lda, b, ldb, m, n, block_row, block_col, 0,
                  (k_padded + C::kBK - 1) / C::kBK, k_padded, acc);
  const LaneTile<C> lanes(threadIdx.x);
  const OutputOf<kTransposedC> out{c, ldc, m, n, alpha, beta};
  out.put_blocks(acc, block_row + lanes.a_first, 4 * C::kLaneRows, block_col + lanes.b_first, 4 * C::kLaneCols);
}

// The same with the last round cut (SimtSchedule in simt_tuning.hpp): blocks 0 .. whole_tiles - 1 take whole
// tiles as above; block whole_tiles + i takes the head (k tiles 0 .. head - 1) of tile whole_tiles + i and block
// whole_tiles + cut + i its tail (k tiles head ..), each written raw to its part of `parts` (slots 2i, 2i + 1);
// simt_add_parts then finishes C. The blocks that run at once start in step (heads with heads, tails with tails), so
// tiles that share rows of A or columns of B read them from L2 together, as whole tiles do. A separate kernel for
// whole tiles is kept because ptxas allocates the two differently: each is the faster where it runs
// (bench/NOTES.md, "gpu/simt-tuned: stream-K for the last round only").
template <typename C, bool kTransposedC = false>
__global__ __launch_bounds__(C::kThreads, C::kMinBlocks) void simt_cut_round_kernel(
    const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, float* __restrict__ c, int ldc,
    float alpha, float beta, int m, int n, int k_padded, int group, int whole_tiles, int cut, int head,
    float* __restrict__ parts) {
  extern __shared__ float4 smem4[];
  const int k_tiles = (k_padded + C::kBK - 1) / C::kBK;
  int tile = blockIdx.x, kt_begin = 0, kt_end = k_tiles, k_end = k_padded;
  ScaledOutput out{c, ldc, m, n, alpha, beta};
  int out_row = 0, out_col = 0;  // where the tile's first row and column go in `out`: a part's are its own
  if (tile >= whole_tiles) {
    const int part = tile - whole_tiles, is_tail = part >= cut;
    tile = whole_tiles + (is_tail ? part - cut : part);
    kt_begin = is_tail ? head : 0;
    kt_end = is_tail ? k_tiles : head;
    k_end = is_tail ? k_padded : head * C::kBK;
    out = ScaledOutput{parts + std::size_t(2 * (tile - whole_tiles) + is_tail) * (C::kBM * C::kBN), C::kBN, C::kBM,
                       C::kBN, 1.0f, 0.0f};
  }
  int tile_m, tile_n;
  rasterize(tile, (m + C::kBM - 1) / C::kBM, (n + C::kBN - 1) / C::kBN, group, tile_m, tile_n);
  const int block_row = tile_m * C::kBM, block_col = tile_n * C::kBN;
  if (out.c == c) out_row = block_row, out_col = block_col;
  float acc[C::kTM][C::kTN] = {};
  tile_product<C>(reinterpret_cast<float*>(smem4), a, lda, b, ldb, m, n, block_row, block_col, kt_begin, kt_end,
                  k_end, acc);
  const LaneTile<C> lanes(threadIdx.x);
  if constexpr (kTransposedC) {
    if (out.c == c) {  // a whole tile: into C, transposed; the parts keep the tile's own layout
      const TransposedScaledOutput into_c{c, ldc, m, n, alpha, beta};
      into_c.put_blocks(acc, out_row + lanes.a_first, 4 * C::kLaneRows, out_col + lanes.b_first, 4 * C::kLaneCols);
      return;
    }
  }
  out.put_blocks(acc, out_row + lanes.a_first, 4 * C::kLaneRows, out_col + lanes.b_first, 4 * C::kLaneCols);
}

// K split (SimtSchedule::splits): block s * tiles + t takes k tiles s * split_k_tiles .. of tile t (tiles innermost:
// the blocks that run at once share k, and so rows of A and columns of B in L2) and writes its raw sum to part
// s * tiles + t; simt_add_splits then finishes C. With kTransposedC the part is the tile transposed, so that the sum
// reads and writes whole float4s of C's rows.
template <typename C, bool kTransposedC = false>
__global__ __launch_bounds__(C::kThreads, C::kMinBlocks) void simt_split_k_kernel(
    const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, int m, int n, int k_padded,
    int group, int tiles, int split_k_tiles, float* __restrict__ parts) {
  extern __shared__ float4 smem4[];
  const int tile = int(blockIdx.x) % tiles, split = int(blockIdx.x) / tiles;
  const int k_tiles = (k_padded + C::kBK - 1) / C::kBK;
  const int kt_begin = split * split_k_tiles, kt_end = min(kt_begin + split_k_tiles, k_tiles);
  int tile_m, tile_n;
  rasterize(tile, (m + C::kBM - 1) / C::kBM, (n + C::kBN - 1) / C::kBN, group, tile_m, tile_n);
  float acc[C::kTM][C::kTN] = {};
  tile_product<C>(reinterpret_cast<float*>(smem4), a, lda, b, ldb, m, n, tile_m * C::kBM, tile_n * C::kBN, kt_begin,
                  kt_end, min(kt_end * C::kBK, k_padded), acc);
  const LaneTile<C> lanes(threadIdx.x);
  float* part = parts + std::size_t(blockIdx.x) * (C::kBM * C::kBN);
  if constexpr (kTransposedC) {
    const TransposedScaledOutput out{part, C::kBM, C::kBM, C::kBN, 1.0f, 0.0f};
    out.put_blocks(acc, lanes.a_first, 4 * C::kLaneRows, lanes.b_first, 4 * C::kLaneCols);
  } else {
    const ScaledOutput out{part, C::kBN, C::kBM, C::kBN, 1.0f, 0.0f};
    out.put_blocks(acc, lanes.a_first, 4 * C::kLaneRows, lanes.b_first, 4 * C::kLaneCols);
  }
}

// C = alpha * (the splits' parts, added in split order) + beta * C: the same sum for every run. A tile's float4s are
// shared by add_blocks_per_tile() blocks, so that a few tiles still spread over the SMs (bench/NOTES.md, "A short C takes
// 64-row tiles").
constexpr int kAddThreads = 256;
template <int kBM, int kBN>
__host__ __device__ constexpr int add_blocks_per_tile() {
  return (kBM * kBN / 4 + kAddThreads - 1) / kAddThreads;
}
template <int kBM, int kBN, bool kTransposedC = false>
__global__ void simt_add_splits(const float4* __restrict__ parts, float* __restrict__ c, int ldc, int m, int n,
                                float alpha, float beta, int group, int tiles, int splits) {
  constexpr int kPerTile = add_blocks_per_tile<kBM, kBN>();
  const int tile = int(blockIdx.x) / kPerTile, e = int(blockIdx.x) % kPerTile * kAddThreads + int(threadIdx.x);
  if (e >= kBM * kBN / 4) return;
  int tile_m, tile_n;
  rasterize(tile, (m + kBM - 1) / kBM, (n + kBN - 1) / kBN, group, tile_m, tile_n);
  const float4* first = parts + std::size_t(tile) * (kBM * kBN / 4) + e;
  const std::size_t split_stride = std::size_t(tiles) * (kBM * kBN / 4);
  float4 sum = __ldcg(first);
  for (int s = 1; s < splits; ++s) {
    const float4 p = __ldcg(first + s * split_stride);
    sum = make_float4(sum.x + p.x, sum.y + p.y, sum.z + p.z, sum.w + p.w);
  }
  if constexpr (kTransposedC) {  // parts of C^T's tile, transposed: float4 e is 4 columns of a row of C
    const ScaledOutput out{c, ldc, n, m, alpha, beta};
    out.put4(tile_n * kBN + e / (kBM / 4), tile_m * kBM + e % (kBM / 4) * 4, sum);
  } else {
    const ScaledOutput out{c, ldc, m, n, alpha, beta};
    out.put4(tile_m * kBM + e / (kBN / 4), tile_n * kBN + e % (kBN / 4) * 4, sum);
  }
}

// C = alpha * (head + tail) + beta * C over the cut tiles, one block a tile: the same sum for every run.
template <int kBM, int kBN, bool kTransposedC = false>
__global__ void simt_add_parts(const float4* __restrict__ parts, float* __restrict__ c, int ldc, int m, int n,
                               float alpha, float beta, int group, int whole_tiles) {
  int tile_m, tile_n;
  rasterize(whole_tiles + blockIdx.x, (m + kBM - 1) / kBM, (n + kBN - 1) / kBN, group, tile_m, tile_n);
  const float4* head = parts + std::size_t(2 * blockIdx.x) * (kBM * kBN / 4);
  const float4* tail = head + kBM * kBN / 4;
  const OutputOf<kTransposedC> out{c, ldc, m, n, alpha, beta};
  for (int e = threadIdx.x; e < kBM * kBN / 4; e += blockDim.x) {
    const float4 h = __ldcg(head + e), t = __ldcg(tail + e);
    out.put4(tile_m * kBM + e / (kBN / 4), tile_n * kBN + e % (kBN / 4) * 4,
             make_float4(h.x + t.x, h.y + t.y, h.z + t.z, h.w + t.w));
  }
}

template <typename C, bool kTransposedC = false>
void allow_dynamic_smem() {
  // Before every use: the attribute belongs to the context, which a fault in another row may have reset.
  MC_CUDA_CHECK(cudaFuncSetAttribute(simt_tuned_kernel<C, kTransposedC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(C::kSmemBytes)));
  MC_CUDA_CHECK(cudaFuncSetAttribute(simt_cut_round_kernel<C, kTransposedC>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(C::kSmemBytes)));
  MC_CUDA_CHECK(cudaFuncSetAttribute(simt_split_k_kernel<C, kTransposedC>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(C::kSmemBytes)));
}

template <typename C>
int resident_simt_blocks() {
  allow_dynamic_smem<C>();
  int blocks = 0;
  MC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, simt_tuned_kernel<C>, C::kThreads,
                                                              C::kSmemBytes));
  return blocks;
}

// Launches configuration C with rasterization group `group` (block rows per group) on the schedule `plan`; its
// layout is the launch's (SimtVariant::launch). With kTransposedC, g describes C^T of a product turned around and
// the result goes to C^T's transpose, g.c (SimtVariant::launch_turned).
template <typename C, bool kTransposedC = false>
void launch_simt_tuned(const DeviceGemm& g, int group, const SimtSchedule& plan) {
  if (g.a_transposed != C::kAStoredKM || g.b_transposed != C::kBStoredNK)
    throw std::logic_error("gpu/simt-tuned: a variant launched for another layout");
  allow_dynamic_smem<C, kTransposedC>();
  group = group < 1 ? 1 : group;
  if (plan.splits > 1) {
    if (simt_scratch_bytes(plan, C::kBM * C::kBN) > g.scratch_bytes)
      throw std::logic_error("gpu/simt-tuned: the workspace's scratch is smaller than the split's parts");
    float* parts = static_cast<float*>(g.scratch);
    const int tiles = int(plan.tiles);
    simt_split_k_kernel<C, kTransposedC>
        <<<unsigned(plan.tiles * plan.splits), C::kThreads, C::kSmemBytes, g.stream>>>(
            g.a, g.lda, g.b, g.ldb, g.m, g.n, g.k_padded, group, tiles, plan.split_k_tiles, parts);
    MC_CHECK_LAUNCH();
    simt_add_splits<C::kBM, C::kBN, kTransposedC>
        <<<unsigned(tiles) * add_blocks_per_tile<C::kBM, C::kBN>(), kAddThreads, 0, g.stream>>>(
            reinterpret_cast<const float4*>(parts), g.c, g.ldc, g.m, g.n, g.alpha, g.beta, group, tiles,
            plan.splits);
    MC_CHECK_LAUNCH();
    return;
  }
  if (plan.head_k_tiles == 0) {
    simt_tuned_kernel<C, kTransposedC><<<unsigned(plan.whole_tiles), C::kThreads, C::kSmemBytes, g.stream>>>(
        g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n, g.k_padded, group);
    MC_CHECK_LAUNCH();
    return;
  }
  if (simt_scratch_bytes(plan, C::kBM * C::kBN) > g.scratch_bytes)
    throw std::logic_error("gpu/simt-tuned: the workspace's scratch is smaller than the schedule's parts");
  const int cut = int(plan.cut_tiles());
  float* parts = static_cast<float*>(g.scratch);
  simt_cut_round_kernel<C, kTransposedC>
      <<<unsigned(plan.whole_tiles + 2 * cut), C::kThreads, C::kSmemBytes, g.stream>>>(
          g.a, g.lda, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n, g.k_padded, group, int(plan.whole_tiles),
          cut, plan.head_k_tiles, parts);
  MC_CHECK_LAUNCH();
  simt_add_parts<C::kBM, C::kBN, kTransposedC><<<unsigned(cut), 256, 0, g.stream>>>(
      reinterpret_cast<const float4*>(parts), g.c, g.ldc, g.m, g.n, g.alpha, g.beta, group, int(plan.whole_tiles));
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu::simt
