// Fast path: the few-rows (decode) kernels of gpu/simt-tuned, gpu/tensor-core-tf32-ws and gpu/tensor-core-3xtf32,
// beyond the seeds.
// Extends: gpu/dot-transposed-b (ladder/dot_transposed_b.cu), whose threads each read a row of A and one of Bᵀ.
// Adds: with M <= kFewRowsMaxM (a decode step's tokens) the work is B streamed once from memory; a block tile of 64
// or more rows would hold a few. So a block keeps A's few rows for a slice of K in shared memory, reads its columns
// of B once in 16-byte streaming (evict-first) vectors, so that B does not push A out of the caches, and several
// blocks split K, their partial sums added in a fixed order by the last block of each tile to finish (the bits
// repeat; one launch, not a second kernel). B stored N x K
// (y = x·Wᵀ) is read along K, one warp per 4 columns, and each warp's sums are reduced across its lanes; B stored
// K x N is read along N, lanes owning 4 columns each and the block's warps splitting the slice. FP32 throughout: the
// rows that are TF32 (or 3xTF32) elsewhere lose nothing at a memory-bound shape by computing in FP32 here.
// A small product's time is its chain of memory round trips, not its bytes (bench/NOTES.md, "The few-rows kernels'
// round trips"): each warp issues several steps of B's loads at once, the first before A's share is loaded.
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../runtime/device_gemm.cuh"
#include "../runtime/tile_io.cuh"
#include "few_rows.hpp"

namespace matcompare::gpu {
namespace {

constexpr int kDotWarps = 8, kDotColumnsPerWarp = kFewRowsDotColumns / kDotWarps;
constexpr int kAxpyWarps = 4;
constexpr unsigned kAllLanes = 0xffffffffu;
static_assert(kAxpyWarps * 32 * 4 >= kFewRowsAxpyColumns && kFewRowsAxpyColumns == 32 * 4,
              "an axpy block's lanes own 4 columns each");

struct Args {
  const float* a;
  int lda;
  bool a_transposed;
  const float* b;
  int ldb;
  float* c;
  int ldc;
  int m, n, n_padded, k_padded;
  float alpha, beta;
  int slice_k, row_chunks, column_blocks;
  float* partials;  // nullptr: one slice, C written directly
  int ld_partial;
  unsigned* counters;  // with several slices: per tile, how many of its slices have finished (0 between runs)
  int slices;
};

// The block's share of A: rows [row0, row0 + kRows) by k [k0, k0 + slice_k), row stride slice_k, zero past m and
// past K's padding (k_len, a multiple of 4, is what is left of K from k0). Stored M x K, it is copied by cp.async:
// every thread's copies are in flight at once, one round trip to L2 where loads passed through registers took one
// for each of its float4s in turn (bench/NOTES.md, "The few-rows dot kernel's loads a step ahead").
template <int kRows>
__device__ void load_a_slice(const Args& p, int row0, int k0, int k_len, float* sa) {
  if (!p.a_transposed) {
    const int vectors = p.slice_k / 4;
    for (int i = threadIdx.x; i < kRows * vectors; i += blockDim.x) {
      const int row = i / vectors, col = i % vectors * 4;
      const bool inside = row0 + row < p.m && col < k_len;
      copy16_async(sa + row * p.slice_k + col, inside ? p.a + std::size_t(row0 + row) * p.lda + k0 + col : p.a, inside);
    }
    wait_copies();
  } else {  // stored K x M: consecutive threads read consecutive rows of one k
    for (int i = threadIdx.x; i < kRows * p.slice_k; i += blockDim.x) {
      const int kk = i / kRows, row = i % kRows;
      sa[row * p.slice_k + kk] =
          row0 + row < p.m && kk < k_len ? __ldg(p.a + std::size_t(k0 + kk) * p.lda + row0 + row) : 0.0f;
    }
  }
}

// Which rows, slice of K and columns the block takes. Row chunks innermost: the blocks of one slice and columns run
// together and read B's columns from memory once, from L2 the other times; slices outermost, so that the blocks
// resident together share A's slice in L2. `tile`: the row chunk and column block, whose slices count on one counter.
struct BlockSlice {
  int row0, slice, column_block, tile, k0, k_len;
};
template <int kRows>
__device__ BlockSlice block_slice(const Args& p) {
  BlockSlice at;
  const int chunk = int(blockIdx.x) % p.row_chunks, rest = int(blockIdx.x) / p.row_chunks;
  at.row0 = chunk * kRows;
  at.slice = rest / p.column_blocks;
  at.column_block = rest % p.column_blocks;
  at.tile = chunk * p.column_blocks + at.column_block;
  at.k0 = at.slice * p.slice_k;
  at.k_len = min(p.slice_k, p.k_padded - at.k0);
  return at;
}

// Either C (one slice) or the slice's plane of partial sums.
__device__ __forceinline__ void store(const Args& p, int slice, int row, int col, float sum) {
  if (p.partials)
    p.partials[(std::size_t(slice) * p.m + row) * p.ld_partial + col] = sum;
  else {
    float* out = p.c + std::size_t(row) * p.ldc + col;
    *out = scale_output(p.alpha, p.beta, sum, out);
  }
}

// With several slices, once every thread's partial sums are written: the tile's last slice to finish adds the tile's
// partial sums in slice order (the order of the kernel that did this before) and writes C; its counter wraps to 0.
// kColumns: the tile's width, a multiple of 4 (so are a plane's rows: each thread adds whole float4s); kThreads: the
// block's. Every load, C's included, is issued before the first store to C, which the compiler may not move a load
// past: the last block waits on about slices ÷ 4 round trips to L2, not on two for each of its elements in turn
// (bench/NOTES.md, "The few-rows tile's last block").
template <int kRows, int kColumns, int kThreads>
__device__ void add_slices_if_last(const Args& p, const BlockSlice& at) {
  static_assert(kColumns % 4 == 0, "a tile's rows are whole float4s");
  __threadfence();  // this thread's partial sums reach L2 before the count that announces them
  __syncthreads();
  // Broadcast by the barrier, not a shared variable: A's share may fill the 48 KiB a launch gets without opting in.
  const bool last = __syncthreads_or(threadIdx.x == 0 && atomicInc(p.counters + at.tile, unsigned(p.slices - 1)) ==
                                                              unsigned(p.slices - 1));
  if (!last) return;
  __threadfence();
  constexpr int kQuadsPerRow = kColumns / 4, kQuads = kRows * kQuadsPerRow;
  constexpr int kPerThread = (kQuads + kThreads - 1) / kThreads;
  const std::size_t plane = std::size_t(p.m) * p.ld_partial;
  const float* part[kPerThread];
  int row[kPerThread], col[kPerThread];
  float4 sum[kPerThread];
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int q = int(threadIdx.x) + j * kThreads;
    row[j] = at.row0 + q / kQuadsPerRow;
    col[j] = at.column_block * kColumns + q % kQuadsPerRow * 4;
    const bool inside = q < kQuads && row[j] < p.m && col[j] < p.n;
    part[j] = inside ? p.partials + std::size_t(row[j]) * p.ld_partial + col[j] : nullptr;
    sum[j] = inside ? __ldcg(reinterpret_cast<const float4*>(part[j])) : make_float4(0, 0, 0, 0);  // from L2
  }
#pragma unroll 4
  for (int s = 1; s < p.slices; ++s)
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
      if (part[j]) {
        const float4 v = __ldcg(reinterpret_cast<const float4*>(part[j] + s * plane));
        sum[j].x += v.x, sum[j].y += v.y, sum[j].z += v.z, sum[j].w += v.w;
      }
  float old[kPerThread][4];
#pragma unroll
  for (int j = 0; j < kPerThread; ++j)
#pragma unroll
    for (int t = 0; t < 4; ++t)
      old[j][t] = p.beta != 0.0f && part[j] && col[j] + t < p.n ? p.c[std::size_t(row[j]) * p.ldc + col[j] + t] : 0.0f;
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const float values[4] = {sum[j].x, sum[j].y, sum[j].z, sum[j].w};
#pragma unroll
    for (int t = 0; t < 4; ++t)
      if (part[j] && col[j] + t < p.n)
        p.c[std::size_t(row[j]) * p.ldc + col[j] + t] = scale_output(p.alpha, p.beta, values[t], &old[j][t]);
  }
}

// Sums each of the warp's V values over its 32 lanes, halving the values a lane holds at each exchange (62 shuffles
// for V = 64, where a full reduction of each value would take 320). A lane ends with max(1, V / 32) sums, of the
// values numbered `first` on; below V = 32 the lanes that differ only in their low bits hold the same sums.
template <int V, int kOffset>
__device__ __forceinline__ void reduce_scatter(float* v, int lane, int& first) {
  if constexpr (kOffset > 0) {
    if constexpr (V == 1) {
      v[0] += __shfl_xor_sync(kAllLanes, v[0], kOffset);
    } else {
      constexpr int kHalf = V / 2;
      const bool upper = (lane & kOffset) != 0;
#pragma unroll
      for (int i = 0; i < kHalf; ++i) {
        const float send = upper ? v[i] : v[i + kHalf];
        const float keep = upper ? v[i + kHalf] : v[i];
        v[i] = keep + __shfl_xor_sync(kAllLanes, send, kOffset);
      }
      if (upper) first += kHalf;
    }
    reduce_scatter<(V > 1 ? V / 2 : 1), kOffset / 2>(v, lane, first);
  }
}

// B stored N x K. Warp w of the block takes kDotColumnsPerWarp columns; its lanes read 4 consecutive k each, kSteps
// steps of 128 k at a time (as many as the registers allow), the first while A's share is loaded. From 8 rows a
// step's arithmetic is long enough to hide a round trip, so the next steps' loads are issued before it (kAhead)
// rather than after (bench/NOTES.md, "The few-rows dot kernel's loads a step ahead").
template <int kRows>
__global__ void __launch_bounds__(kDotWarps * 32, 2) few_rows_dot(Args p) {
  constexpr int kSteps = kRows >= 16 ? 1 : kRows >= 8 ? 2 : 4, kStepK = 32 * 4;
  constexpr bool kAhead = kRows >= 8;
  extern __shared__ float4 smem[];
  float* sa = reinterpret_cast<float*>(smem);
  const BlockSlice at = block_slice<kRows>(p);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int col0 = (at.column_block * kDotWarps + warp) * kDotColumnsPerWarp;
  const float* b_cols[kDotColumnsPerWarp];
#pragma unroll
  for (int j = 0; j < kDotColumnsPerWarp; ++j)
    b_cols[j] = col0 + j < p.n ? p.b + std::size_t(col0 + j) * p.ldb + at.k0 : nullptr;
  using Steps = float4[kSteps][kDotColumnsPerWarp];
  Steps bv;
  auto load_b = [&](int kk, Steps& to) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
      for (int j = 0; j < kDotColumnsPerWarp; ++j) {
        const int k = kk + s * kStepK;
        to[s][j] = b_cols[j] && k < at.k_len ? __ldcs(reinterpret_cast<const float4*>(b_cols[j] + k))
                                             : make_float4(0, 0, 0, 0);
      }
  };
  int kk = 4 * lane;
  load_b(kk, bv);
  load_a_slice<kRows>(p, at.row0, at.k0, at.k_len, sa);
  __syncthreads();

  constexpr int kValues = kRows * kDotColumnsPerWarp;
  float sum[kValues];
#pragma unroll
  for (int i = 0; i < kValues; ++i) sum[i] = 0.0f;
  while (true) {
    const int k_next = kk + kSteps * kStepK;
    Steps ahead;
    if constexpr (kAhead) load_b(k_next, ahead);  // zeros past the slice, without a load
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int k = kk + s * kStepK;
      if (k >= at.k_len) break;
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const float4 av = *reinterpret_cast<const float4*>(sa + r * p.slice_k + k);
#pragma unroll
        for (int j = 0; j < kDotColumnsPerWarp; ++j) {
          float& acc = sum[r * kDotColumnsPerWarp + j];
          acc = fmaf(av.x, bv[s][j].x, acc);
          acc = fmaf(av.y, bv[s][j].y, acc);
          acc = fmaf(av.z, bv[s][j].z, acc);
          acc = fmaf(av.w, bv[s][j].w, acc);
        }
      }
    }
    kk = k_next;
    if (kk >= at.k_len) break;
    if constexpr (kAhead) {
#pragma unroll
      for (int s = 0; s < kSteps; ++s)
#pragma unroll
        for (int j = 0; j < kDotColumnsPerWarp; ++j) bv[s][j] = ahead[s][j];
    } else {
      load_b(kk, bv);
    }
  }

  int first = 0;
  reduce_scatter<kValues, 16>(sum, lane, first);
  constexpr int kHeld = kValues >= 32 ? kValues / 32 : 1;
  constexpr int kDuplicates = kValues >= 32 ? 1 : 32 / kValues;
  if (lane % kDuplicates == 0) {
#pragma unroll
    for (int i = 0; i < kHeld; ++i) {
      const int row = at.row0 + (first + i) / kDotColumnsPerWarp, col = col0 + (first + i) % kDotColumnsPerWarp;
      if (row < p.m && col < p.n) store(p, at.slice, row, col, sum[i]);
    }
  }
  if (p.partials) add_slices_if_last<kRows, kFewRowsDotColumns, kDotWarps * 32>(p, at);
}

// B stored K x N. The block takes 128 columns, lane l of every warp columns 4l .. 4l + 3; warp w takes the slice's
// k quads w, w + kAxpyWarps, ..., kSteps quads at a time (the first while A's share is loaded), and the warps' sums
// are added through shared memory.
template <int kRows>
__global__ void __launch_bounds__(kAxpyWarps * 32) few_rows_axpy(Args p) {
  constexpr int kSteps = kRows >= 16 ? 2 : kRows >= 4 ? 4 : 8, kStepK = 4 * kAxpyWarps;
  extern __shared__ float4 smem[];
  float* sa = reinterpret_cast<float*>(smem);
  const BlockSlice at = block_slice<kRows>(p);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int col = at.column_block * kFewRowsAxpyColumns + 4 * lane;
  const bool in_b = col < p.n_padded;  // n_padded is a multiple of 4: the vector is wholly inside or outside
  const float* b_col = p.b + std::size_t(at.k0) * p.ldb + col;
  float4 bv[kSteps][4];
  auto load_b = [&](int kk) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
      for (int t = 0; t < 4; ++t) {
        const int k = kk + s * kStepK;
        bv[s][t] = in_b && k < at.k_len ? __ldcs(reinterpret_cast<const float4*>(b_col + std::size_t(k + t) * p.ldb))
                                        : make_float4(0, 0, 0, 0);
      }
  };
  int kk = 4 * warp;
  load_b(kk);
  load_a_slice<kRows>(p, at.row0, at.k0, at.k_len, sa);
  __syncthreads();

  float4 sum[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) sum[r] = make_float4(0, 0, 0, 0);
  while (true) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int k = kk + s * kStepK;
      if (k >= at.k_len) break;
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const float4 av = *reinterpret_cast<const float4*>(sa + r * p.slice_k + k);  // one address: a broadcast
        const float a4[4] = {av.x, av.y, av.z, av.w};
#pragma unroll
        for (int t = 0; t < 4; ++t) {
          sum[r].x = fmaf(a4[t], bv[s][t].x, sum[r].x);
          sum[r].y = fmaf(a4[t], bv[s][t].y, sum[r].y);
          sum[r].z = fmaf(a4[t], bv[s][t].z, sum[r].z);
          sum[r].w = fmaf(a4[t], bv[s][t].w, sum[r].w);
        }
      }
    }
    kk += kSteps * kStepK;
    if (kk >= at.k_len) break;
    load_b(kk);
  }

  __syncthreads();  // A's slice is read: its memory holds the warps' sums now
  float4* warp_sums = smem;
#pragma unroll
  for (int r = 0; r < kRows; ++r) warp_sums[(warp * kRows + r) * 32 + lane] = sum[r];
  __syncthreads();
  const float* sums = sa;
  for (int i = threadIdx.x; i < kRows * kFewRowsAxpyColumns; i += blockDim.x) {
    const int row = i / kFewRowsAxpyColumns, c = i % kFewRowsAxpyColumns;
    const int out_col = at.column_block * kFewRowsAxpyColumns + c;
    if (at.row0 + row >= p.m || out_col >= p.n) continue;
    float total = 0.0f;
    for (int w = 0; w < kAxpyWarps; ++w) total += sums[(w * kRows + row) * kFewRowsAxpyColumns + c];
    store(p, at.slice, at.row0 + row, out_col, total);
  }
  if (p.partials) add_slices_if_last<kRows, kFewRowsAxpyColumns, kAxpyWarps * 32>(p, at);
}

template <int kRows>
void launch_rows(const Args& args, const FewRowsPlan& plan, cudaStream_t stream) {
  const long long block_count = (long long)args.row_chunks * args.column_blocks * plan.slices;
  if (block_count > INT_MAX) throw std::runtime_error("few-rows kernel: the problem needs more blocks than a grid has");
  const unsigned blocks = unsigned(block_count);
  const std::size_t a_bytes = std::size_t(kRows) * plan.slice_k * sizeof(float);
  if (plan.b_k_contiguous) {
    few_rows_dot<kRows><<<blocks, kDotWarps * 32, a_bytes, stream>>>(args);
  } else {
    const std::size_t sums_bytes = std::size_t(kAxpyWarps) * kRows * kFewRowsAxpyColumns * sizeof(float);
    const std::size_t smem_bytes = a_bytes > sums_bytes ? a_bytes : sums_bytes;
    few_rows_axpy<kRows><<<blocks, kAxpyWarps * 32, smem_bytes, stream>>>(args);
  }
  MC_CHECK_LAUNCH();
}

void launch_for_rows(const Args& args, const FewRowsPlan& plan, cudaStream_t stream) {
  switch (plan.rows) {
    case 1: return launch_rows<1>(args, plan, stream);
    case 2: return launch_rows<2>(args, plan, stream);
    case 4: return launch_rows<4>(args, plan, stream);
    case 8: return launch_rows<8>(args, plan, stream);
    case 16: return launch_rows<16>(args, plan, stream);
    default: throw std::logic_error("few-rows kernel: no kernel for " + std::to_string(plan.rows) + " rows");
  }
}

}  // namespace

void launch_few_rows(const DeviceGemm& g, const FewRowsPlan& plan, float* partials, std::size_t partial_capacity) {
  const GemmShape shape{g.m, g.n, g.k};
  if (g.m > plan.rows * plan.row_chunks || g.m <= plan.rows * (plan.row_chunks - 1) || plan.rows > kFewRowsChunk ||
      plan.slice_k % kFewRowsKUnit != 0 ||
      std::int64_t(plan.slices) * plan.slice_k < g.k_padded ||
      std::size_t(plan.rows) * plan.slice_k * sizeof(float) > std::size_t(kFewRowsSmemBytes) ||
      plan.b_k_contiguous != g.b_transposed)
    throw std::logic_error("few-rows kernel: the plan (" + few_rows_name(plan) + ") does not fit " +
                           std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k));
  const std::size_t needed = few_rows_partial_bytes(shape, plan);
  if (needed > partial_capacity || (needed > 0 && partials == nullptr))
    throw std::logic_error("few-rows kernel: the plan (" + few_rows_name(plan) + ") needs " + std::to_string(needed) +
                           " bytes of partial sums and the workspace has " + std::to_string(partial_capacity));
  Args args{};
  args.a = g.a, args.lda = g.lda, args.a_transposed = g.a_transposed;
  args.b = g.b, args.ldb = g.ldb;
  args.c = g.c, args.ldc = g.ldc;
  args.m = g.m, args.n = g.n, args.n_padded = g.n_padded, args.k_padded = g.k_padded;
  args.alpha = g.alpha, args.beta = g.beta;
  args.slice_k = plan.slice_k, args.row_chunks = plan.row_chunks;
  args.column_blocks = int((g.n + plan.columns - 1) / plan.columns);
  args.partials = plan.slices > 1 ? partials : nullptr;
  args.ld_partial = (g.n + 3) / 4 * 4;
  args.counters = plan.slices > 1 ? reinterpret_cast<unsigned*>(reinterpret_cast<char*>(partials) +
                                                                few_rows_counters_offset(shape, plan))
                                  : nullptr;
  args.slices = plan.slices;
  launch_for_rows(args, plan, g.stream);
}

std::string few_rows_choose(const DeviceGemm& g) { return few_rows_name(few_rows_plan_here(shape_of(g))); }

bool few_rows_takes(const GemmShape& s, int row_default) {
  return s.m <= few_rows_limit(std::getenv(kFewRowsVariable), row_default);
}

FewRowsPlan few_rows_plan_here(const GemmShape& s) {
  constexpr int kBlocksPerSm = 8;
  return few_rows_plan(s, std::int64_t(kBlocksPerSm) * multiprocessor_count());
}

std::size_t few_rows_scratch_bytes(const GemmShape& s, int row_default) {
  return few_rows_takes(s, row_default) ? few_rows_partial_bytes(s, few_rows_plan_here(s)) : 0;
}

}  // namespace matcompare::gpu
