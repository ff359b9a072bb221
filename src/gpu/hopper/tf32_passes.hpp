#pragma once
// The warp-specialized TF32 kernel (tensor_core_tf32_ws.cu) as an engine that 3xTF32 drives with split operands,
// and its plan for a shape: the block tile, and how many blocks share a tile's k loop.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

// The most rows or columns of C a block tile has; 3xTF32 rounds the rows of its split A and B up to it.
constexpr int kTf32PassRows = 256;
constexpr int kTf32Depth = 32;  // K per k tile

// A block tile of the engine: rows of C (the wgmma N; A arrives by TMA) by columns of C (B, through registers),
// and its time per element of C relative to the first, as measured on an H100 at 4096 and 8192 (bench/NOTES.md,
// "Tile shapes chosen by waves"): 128 x 256 loads twice the register fragments per FLOP, 128 x 128 moves a third
// more bytes through L2. 64 x 256, for a C of at most 64 rows, loads twice 128 x 256's fragments per FLOP again:
// forced at 4096 on an H200 it ran about 1.5 times 256 x 128's time (bench/NOTES.md, "The TF32 engine's 64-row
// tile"). Such a product is bound by reading B, and each block that shares a tile's k loop is one more stream of B:
// that tile may be split twice as many ways, so that a narrow layer still keeps every SM reading.
// Where the GPU cannot run every cluster of a tile's split at once (see tf32_plan), the tile either splits fewer ways,
// each tile's blocks still one cluster, or keeps its splits and adds their sums afterwards: each block stores its
// sum in its own plane of device memory, and a second kernel adds the planes up.
enum class Tf32CutSplit { fewer_ways, planes };
struct Tf32Tile {
  int rows, cols;
  double relative_cost;
  int max_splits;
  std::int64_t max_c_rows;  // the plan takes it only for a C of at most this many rows
  Tf32CutSplit when_cut;
};
inline constexpr std::int64_t kAnyRows = INT64_MAX;
// The 64-row tile's products are short, bound by reading B: a split cut by a quarter ran as fast or faster in its
// cluster than whole in planes, which cost a second kernel. The other tiles' products lose the cut blocks' share of
// their arithmetic: cut in clusters they took 13-20% longer than whole in planes (bench/NOTES.md, "The cluster sum
// where the slots cut the split").
inline constexpr Tf32Tile kTf32Tiles[] = {{256, 128, 1.0, 4, kAnyRows, Tf32CutSplit::planes},
                                          {128, 256, 1.15, 4, kAnyRows, Tf32CutSplit::planes},
                                          {128, 128, 1.35, 4, kAnyRows, Tf32CutSplit::planes},
                                          {64, 256, 1.6, 8, 64, Tf32CutSplit::fewer_ways}};
// "256x128": how MATCOMPARE_TF32_TILE names a tile.
inline std::string tf32_tile_name(const Tf32Tile& t) { return std::to_string(t.rows) + "x" + std::to_string(t.cols); }
constexpr const char* kTf32TileVariable = "MATCOMPARE_TF32_TILE";
// The tile a value of MATCOMPARE_TF32_TILE names, or nullptr for none (unset or empty). Throws std::runtime_error
// naming the tiles there are. Plain C++, so that the build without CUDA checks the variable too.
inline const Tf32Tile* tf32_tile_named(const char* wanted) {
  if (wanted == nullptr || *wanted == '\0') return nullptr;
  std::string names;
  for (const Tf32Tile& t : kTf32Tiles) {
    const std::string name = tf32_tile_name(t);
    if (name == wanted) return &t;
    names += (names.empty() ? "" : ", ") + name;
  }
  throw std::runtime_error(std::string(kTf32TileVariable) + "=" + wanted + " is not one of " + names);
}
struct Tf32Plan {
  Tf32Tile tile;
  int splits;    // blocks that share one tile's k tiles (every pass over each)
  int sm_count;  // the SMs it was planned for: the most blocks of the persistent grid
  bool sums_in_planes = false;  // the split's sums added by a second kernel from planes, not in a cluster
};
// A cluster's most blocks that every Hopper GPU runs (the portable cluster size): the most ways a tile is split, in
// a cluster or in planes.
constexpr int kTf32MaxSplits = 8;
constexpr bool tiles_split_within_a_cluster() {
  for (const Tf32Tile& t : kTf32Tiles)
    if (t.max_splits > kTf32MaxSplits) return false;
  return true;
}
static_assert(tiles_split_within_a_cluster(), "a tile's splits fit one cluster");
// Planes cost each split a plane of C written and read again: a tile sums in planes only where each split's slice of
// K has at least this many k tiles, the shallowest at which planes were measured to win (1024^3, four ways: bench/
// NOTES.md, "The cluster sum where the slots cut the split"); a shallower split stays in its clusters, fewer ways.
constexpr std::int64_t kTf32PlaneMinKTiles = 8;
// How many blocks of tile `t` run at once in clusters of `size` blocks (a GPU places a cluster within one GPC of
// its SMs, and a GPC's SMs need not divide by the size).
using Tf32ClusterSlots = int (*)(const Tf32Tile& t, int size);

// How many block tiles of `t` cover C.
inline std::int64_t tf32_tiles(const GemmShape& s, const Tf32Tile& t) {
  return (s.m + t.rows - 1) / t.rows * ((s.n + t.cols - 1) / t.cols);
}

// The persistent grid walks its work in waves of sm_count blocks, and a wave takes as long full or not. While the
// tiles alone leave SMs idle, a tile's k tiles are split among up to its max_splits blocks. A split's blocks are one
// cluster, and every tile's cluster must run at once (`cluster_slots`, asked from the most splits the SMs allow down;
// without it, any sm_count / size clusters): where they do not, the tile splits fewer ways or sums in planes, as its
// when_cut says (planes only for slices of at least kTf32PlaneMinKTiles). The plan with the least waves x area x
// relative cost per split wins, the first on a tie, among the tiles made for C's rows; `only`, when set, is the one
// tile allowed, whatever the rows.
inline Tf32Plan tf32_plan(const GemmShape& s, int sm_count, const Tf32Tile* only = nullptr,
                          Tf32ClusterSlots cluster_slots = nullptr) {
  const std::int64_t k_tiles = (s.k + kTf32Depth - 1) / kTf32Depth;
  Tf32Plan best{};
  double best_cost = 0;
  for (const Tf32Tile& t : kTf32Tiles) {
    if (only ? only->rows != t.rows || only->cols != t.cols : s.m > t.max_c_rows) continue;
    const std::int64_t tiles = tf32_tiles(s, t);
    int splits = int(std::max<std::int64_t>(1, std::min<std::int64_t>({t.max_splits, sm_count / tiles, k_tiles})));
    int in_clusters = splits;
    while (in_clusters > 1 && cluster_slots && tiles * in_clusters > cluster_slots(t, in_clusters)) --in_clusters;
    const bool planes = in_clusters < splits && t.when_cut == Tf32CutSplit::planes &&
                        k_tiles >= kTf32PlaneMinKTiles * splits;
    if (!planes) splits = in_clusters;
    const std::int64_t waves = (tiles * splits + sm_count - 1) / sm_count;
    const double cost = double(waves) * t.rows * t.cols * t.relative_cost / splits;
    if (best.splits == 0 || cost < best_cost) best = {t, splits, sm_count, planes}, best_cost = cost;
  }
  return best;
}

// "256x128, K split 2 ways" (", sums in planes" after it where they are): what the result names as the kernel.
inline std::string tf32_plan_name(const Tf32Plan& plan) {
  if (plan.splits == 1) return tf32_tile_name(plan.tile);
  return tf32_tile_name(plan.tile) + ", K split " + std::to_string(plan.splits) + " ways" +
         (plan.sums_in_planes ? ", sums in planes" : "");
}

// Whether the engine keeps the grid's waves of units in step (tensor_core_tf32_ws.cu's producer), in one pass or in
// three: where the plan's tiles, unsplit, come in more than one wave. The blocks count their units in kWaveCountBytes
// of scratch, a count rounded up so that what follows it stays 16-byte aligned.
inline bool tf32_waves_in_step(const GemmShape& s, const Tf32Plan& plan) {
  return plan.splits == 1 && tf32_tiles(s, plan.tile) > plan.sm_count;
}
constexpr std::size_t kWaveCountBytes = 16;
// What a result names as the kernel: "TF32 256x128, waves in step" (engine "TF32") or "3xTF32 128x256" ("3xTF32").
inline std::string tf32_engine_name(const char* engine, const GemmShape& s, const Tf32Plan& plan) {
  return std::string(engine) + " " + tf32_plan_name(plan) + (tf32_waves_in_step(s, plan) ? ", waves in step" : "");
}

// The current GPU's Tf32ClusterSlots, asked of the CUDA runtime.
int tf32_cluster_slots(const Tf32Tile& t, int size);
// The plan for the current GPU: tf32_plan with its SMs and cluster slots, or its plan for the one tile
// MATCOMPARE_TF32_TILE names ("128x256").
Tf32Plan tf32_plan_here(const GemmShape& s);

// An operand of the engine in device memory, K along its rows, rows ld floats apart: for one pass, `rows` rows; for
// three passes, its small TF32 parts in rows [0, big_rows) and its big parts in rows [big_rows, 2 big_rows).
struct Tf32Operand {
  const float* data;
  int rows, ld, big_rows;
};

// C = alpha A B + beta C in TF32, A being `a` (g.m rows, K padded columns) and B g.b. `partials` is 16-byte aligned
// device memory of `partial_capacity` bytes for a plan's planes (tf32_partial_bytes). wave_count: device memory of
// kWaveCountBytes where tf32_waves_in_step holds, else nullptr. Throws std::logic_error for a plan the kernel cannot
// run (more split units than SMs, more splits than a cluster's blocks, planes that do not fit).
void launch_tf32_pass(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Plan& plan,
                      unsigned* wave_count, float* partials, std::size_t partial_capacity);
// C = alpha (big(A)big(B) + big(A)small(B) + small(A)big(B)) + beta C, FP32-accurate: `a` holds A's parts, `b` B^T's
// (C's columns as rows, in paired_row order: k_major_copy.cuh); the plan and partials as above. wave_count: device
// memory of kWaveCountBytes where tf32_waves_in_step holds, else nullptr.
void launch_3xtf32_passes(const DeviceGemm& g, const char* step, const Tf32Operand& a, const Tf32Operand& b,
                          const Tf32Plan& plan, unsigned* wave_count, float* partials, std::size_t partial_capacity);

// A plan's planes, where it sums in planes: one m x n plane per split, rows rounded to 4 floats (16-byte aligned).
inline int tf32_partial_ld(std::int64_t n) { return int((n + 3) / 4 * 4); }
inline std::size_t tf32_partial_bytes(const GemmShape& s, const Tf32Plan& plan) {
  if (!plan.sums_in_planes) return 0;
  return std::size_t(plan.splits) * std::size_t(s.m) * std::size_t(tf32_partial_ld(s.n)) * sizeof(float);
}

// Where A is stored transposed, gpu/tensor-core-tf32-ws's K-major copy of it (m x K padded to 4: a tensor map's rows
// are a multiple of 16 bytes apart, and the planes after it stay 16-byte aligned).
inline std::size_t tf32_k_major_a_bytes(const GemmShape& s) {
  return a_transposed(s.layout) ? std::size_t(s.m) * std::size_t((s.k + 3) / 4 * 4) * sizeof(float) : 0;
}
// Device scratch of gpu/tensor-core-tf32-ws: that copy, then its plan's planes, then its wave count (kWaveCountBytes).
std::size_t tf32_scratch_bytes(const GemmShape& s);

// Device scratch of gpu/tensor-core-3xtf32: A's small and big parts, then B^T's, each part's rows (M, N) rounded up
// to kTf32PassRows and its columns to the padding of K (4, as above); then the wave count; then its plan's planes.
inline int split_rows(std::int64_t extent) {
  return int((extent + kTf32PassRows - 1) / kTf32PassRows * kTf32PassRows);
}
inline std::size_t split_part_bytes(std::int64_t extent, const GemmShape& s) {
  return 2 * std::size_t(split_rows(extent)) * std::size_t((s.k + 3) / 4 * 4) * sizeof(float);
}
std::size_t split_scratch_bytes(const GemmShape& s);

}  // namespace matcompare::gpu
