#pragma once
// The few-rows (decode) path of the fast FP32 and TF32 rows as plain C++: which shapes take it, how it splits K
// across blocks, and the device scratch of its partial sums. The kernels are in few_rows.cu.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

// The kernels take up to this many rows, in chunks of up to kFewRowsChunk rows that read the same columns of B at
// the same time, so that B comes from memory once and from L2 for the other chunks.
constexpr int kFewRowsMaxM = 64, kFewRowsChunk = 16;
// How many rows each fast row sends to them by default: as long as they beat its tiled kernels on the H100
// (bench/NOTES.md, "A few-rows kernel for decode"); TF32 tensor cores outrun FP32 arithmetic sooner. Past these,
// the tiled kernels split K where their tiles are few.
constexpr int kFewRowsFp32Rows = 32;  // gpu/simt-tuned and gpu/tensor-core-3xtf32
constexpr int kFewRowsTf32Rows = 4;   // gpu/tensor-core-tf32-ws
// The environment variable that overrides those for every row: 0 turns the path off (the tiled kernels on the same
// shapes), a number up to kFewRowsMaxM sets the most rows.
constexpr const char* kFewRowsVariable = "MATCOMPARE_FEW_ROWS";

// A block's share of A (the rows rounded up to a power of two, by a slice of K) is held in shared memory; this bounds
// it, and so the slice.
constexpr std::int64_t kFewRowsSmemBytes = 48 * 1024;
// A slice of K is a whole number of the unit a warp reads in one step (32 lanes x 4 floats).
constexpr std::int64_t kFewRowsKUnit = 128;
// Splitting K for parallelism keeps a slice at least this many k per row of C: each slice writes an M x N plane of
// partial sums that the tile's last block reads back, 2·M·N floats against the slice's slice_k·N floats of B, so the
// partial sums stay within half of B's traffic, and they go to L2 and back within the launch where B comes from
// memory; at 16 rows or more the warps a shorter slice adds are what the time lacks (bench/NOTES.md, "The few-rows
// tile's last block").
constexpr std::int64_t kFewRowsSliceKPerRow = 4;
// Columns of C a block covers: B stored N x K (K contiguous) is read by warps of 4 columns each, 8 warps a block;
// B stored K x N by lanes of 4 columns each, 4 warps splitting the slice.
constexpr int kFewRowsDotColumns = 32, kFewRowsAxpyColumns = 128;

struct FewRowsPlan {
  int rows;             // M rounded up to a power of two, at most kFewRowsChunk: the rows a block holds
  int row_chunks;       // blocks along M
  bool b_k_contiguous;  // B stored N x K: lanes run along K and a warp's sums are reduced across lanes
  int columns;          // columns of C per block
  int slice_k;          // K per block, a multiple of kFewRowsKUnit
  int slices;           // blocks along K; above 1 their partial sums go to scratch, added by each tile's last block
};

// The most rows a fast row sends to the few-rows kernels: `row_default`, or what the variable's value (nullptr when
// unset) says. Throws std::invalid_argument for a value that is not 0 .. kFewRowsMaxM.
inline int few_rows_limit(const char* variable_value, int row_default) {
  if (variable_value == nullptr || *variable_value == '\0') return row_default;
  const std::string text(variable_value);
  int rows = -1;
  if (text.size() <= 2 && text.find_first_not_of("0123456789") == std::string::npos) rows = std::stoi(text);
  if (rows < 0 || rows > kFewRowsMaxM)
    throw std::invalid_argument(std::string(kFewRowsVariable) + "=" + text + " is not a number of rows from 0 to " +
                                std::to_string(kFewRowsMaxM));
  return rows;
}

// Whether a fast row whose default is `row_default` takes the few-rows path for this shape (the variable read now).
bool few_rows_takes(const GemmShape& s, int row_default);

// `blocks_wanted`: enough blocks to keep every SM streaming (a few per SM).
inline FewRowsPlan few_rows_plan(const GemmShape& s, std::int64_t blocks_wanted) {
  FewRowsPlan p{};
  p.rows = 1;
  while (p.rows < s.m && p.rows < kFewRowsChunk) p.rows *= 2;
  p.row_chunks = int((s.m + p.rows - 1) / p.rows);
  p.b_k_contiguous = b_transposed(s.layout);
  p.columns = p.b_k_contiguous ? kFewRowsDotColumns : kFewRowsAxpyColumns;
  const std::int64_t units = (s.k + kFewRowsKUnit - 1) / kFewRowsKUnit;
  const std::int64_t max_units = std::max<std::int64_t>(1, kFewRowsSmemBytes / (p.rows * 4 * kFewRowsKUnit));
  const std::int64_t blocks_per_slice = (s.n + p.columns - 1) / p.columns * p.row_chunks;
  const std::int64_t fewest = (units + max_units - 1) / max_units;
  const std::int64_t for_parallelism =
      std::min<std::int64_t>((blocks_wanted + blocks_per_slice - 1) / blocks_per_slice,
                             std::max<std::int64_t>(1, s.k / std::max(kFewRowsKUnit, kFewRowsSliceKPerRow * s.m)));
  const std::int64_t slices = std::max(fewest, for_parallelism);
  const std::int64_t units_per_slice = (units + slices - 1) / slices;
  p.slice_k = int(units_per_slice * kFewRowsKUnit);
  p.slices = int((units + units_per_slice - 1) / units_per_slice);
  return p;
}

inline std::string few_rows_name(const FewRowsPlan& p) {
  return std::string("few-rows ") + (p.b_k_contiguous ? "dot" : "axpy") + " " + std::to_string(p.rows) + " rows" +
         (p.row_chunks > 1 ? " x " + std::to_string(p.row_chunks) : "") + ", " +
         std::to_string(p.slices) + (p.slices == 1 ? " slice" : " slices") + " of K " + std::to_string(p.slice_k);
}

// Where a split plan's tile counters start in its scratch: after the partial sums, one m x n plane per slice, rows
// rounded to 4 floats.
inline std::size_t few_rows_counters_offset(const GemmShape& s, const FewRowsPlan& p) {
  return std::size_t(p.slices) * std::size_t(s.m) * std::size_t((s.n + 3) / 4 * 4) * 4;
}

// The scratch of a split plan: the partial sums and a counter per tile (row chunk by column block) that the tile's
// slices count their finishing on; it must start at zero, and each run leaves it so, as long as the workspace's
// scratch serves this path alone (MATCOMPARE_FEW_ROWS is set before a run, not during it). None for one slice.
inline std::size_t few_rows_partial_bytes(const GemmShape& s, const FewRowsPlan& p) {
  if (p.slices == 1) return 0;
  const std::size_t tiles = std::size_t(p.row_chunks) * std::size_t((s.n + p.columns - 1) / p.columns);
  return few_rows_counters_offset(s, p) + tiles * sizeof(unsigned);
}

// The plan on the selected GPU.
FewRowsPlan few_rows_plan_here(const GemmShape& s);
// Scratch the path needs on the selected GPU for this shape: 0 when it does not take the shape.
std::size_t few_rows_scratch_bytes(const GemmShape& s, int row_default);

// The choice at upload of a row that takes the path (GpuKernelSpec::choosing_with): the name of the plan here.
std::string few_rows_choose(const DeviceGemm& g);

// C = alpha op(A) op(B) + beta C in FP32 for g.m <= kFewRowsMaxM; `partials` as few_rows_partial_bytes asks for, its
// counters at zero (the workspace's scratch starts zeroed).
void launch_few_rows(const DeviceGemm& g, const FewRowsPlan& plan, float* partials, std::size_t partial_capacity);

}  // namespace matcompare::gpu
