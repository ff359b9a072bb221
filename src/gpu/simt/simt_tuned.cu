// Fast path: the launch of gpu/simt-tuned, beyond the seeds.
// Extends: gpu/warp-tiled (ladder/warp_tiled.cu), through the kernel of simt_tuned.cuh.
// Adds: launches the variant of simt_tuned.cuh that the committed tuning table picks for this GPU and shape class
// (simt_tuning_table.inc, written by matcompare-tune); B stored transposed is copied K×N first from kSimtCopyBRows
// rows of C on (b_k_by_n.cuh), and below them a C of fewer rows than columns is turned around (simt_turns); a
// product of a few rows goes to the few-rows kernels (few_rows.cu) unless a variant is forced.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "../runtime/device_gemm.cuh"
#include "../runtime/gpu_runtime.hpp"
#include "b_k_by_n.cuh"
#include "few_rows.hpp"
#include "simt_tuning.hpp"

namespace matcompare::gpu {
namespace simt {
std::vector<SimtVariant> row_a_variants();
std::vector<SimtVariant> col_a_variants();
std::vector<SimtVariant> every_layout_variants();
std::vector<SimtVariant> short_c_variants();
std::vector<SimtVariant> turned_variants();
}  // namespace simt

namespace {

// gpu/warp-tiled's design with the rasterization added: the choice for GPUs the table does not know and for a
// layout none of a class's candidates is instantiated for (it takes every layout).
constexpr const char* kDefaultVariant = "128x128x16_w64x32_l8x4_s2_colA_b2";

std::mutex forced_mutex;
SimtChoice forced;

SimtHardware this_gpu() {
  return {compute_capability(), multiprocessor_count(), [](const std::string& name) {
            for (const SimtVariant& v : simt_variants())
              if (v.name == name) return v.resident_blocks();
            return 0;
          }};
}

}  // namespace

const std::vector<SimtVariant>& simt_variants() {
  static const std::vector<SimtVariant> all = [] {
    std::vector<SimtVariant> v = simt::row_a_variants();
    for (auto& x : simt::col_a_variants()) v.push_back(std::move(x));
    for (auto& x : simt::every_layout_variants()) v.push_back(std::move(x));
    for (auto& x : simt::short_c_variants()) v.push_back(std::move(x));
    for (auto& x : simt::turned_variants()) v.push_back(std::move(x));
    return v;
  }();
  return all;
}

const std::vector<SimtTableRow>& simt_table() {
  static const std::vector<SimtTableRow> rows = {
#include "simt_tuning_table.inc"
  };
  return rows;
}

namespace {

// What cutting costs, in k tiles of work (estimates, bench/NOTES.md, "gpu/simt-tuned: stream-K for the last round only"): a tail block's ring fill and store, and the
// kernel that adds the parts (two more launches, a read of both parts and a write of the tile).
constexpr double kTailCostKTiles = 2, kAddCostKTiles = 7;
// Splitting K: at most this many blocks a tile, in runs of at least kMinSplitKTiles k tiles (the last may be shorter;
// bench/NOTES.md, "A few-rows kernel for decode").
constexpr std::int64_t kMaxSimtSplits = 16, kMinSplitKTiles = 8;

std::int64_t ceil_div64(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

SimtSchedule simt_schedule(std::int64_t tiles, std::int64_t k_tiles, std::int64_t slots, bool cut_any_rest) {
  SimtSchedule plan;
  plan.tiles = plan.whole_tiles = tiles;
  if (tiles < 1 || k_tiles < 1 || slots < 1) return plan;
  plan.rounds = double(ceil_div64(tiles, slots));
  if (!cut_any_rest && tiles < slots) {
    // Fewer tiles than slots: K split the way the estimate likes best, the parts in one round or in several (a tile
    // row of 224 tiles on 396 slots runs 5 ways in 3 rounds; bench/NOTES.md, "A split that fills the slots"). The
    // adding kernel reads every part: its cost grows with the rounds of parts.
    SimtSchedule best = plan;
    for (std::int64_t ways = 2; ways <= std::min(kMaxSimtSplits, k_tiles / kMinSplitKTiles); ++ways) {
      SimtSchedule split = plan;
      split.split_k_tiles = int(ceil_div64(k_tiles, ways));
      split.splits = int(ceil_div64(k_tiles, split.split_k_tiles));
      const double part_rounds = double(tiles * split.splits) / double(slots);
      split.rounds = (std::ceil(part_rounds) * (split.split_k_tiles + kTailCostKTiles) +
                      kAddCostKTiles * std::max(1.0, part_rounds)) / double(k_tiles);
      if (split.rounds < best.rounds) best = split;
    }
    if (best.rounds < 0.99 * plan.rounds) return best;  // gains 1% or more
  }
  const std::int64_t full_rounds = tiles / slots, rest = tiles % slots, idle = slots - rest;
  // With no whole round before it, the cut round is all there is: tried, and it lost (bench/NOTES.md,
  // "gpu/simt-tuned: stream-K for the last round, a persistent grid").
  if (rest == 0 || k_tiles < 2 || (full_rounds == 0 && !cut_any_rest)) return plan;
  // The idle slots run the tails in turn, `per_worker` each; the head then balances that: head = per_worker * (tail +
  // its cost).
  const std::int64_t per_worker = ceil_div64(rest, idle);
  const double balanced = double(per_worker) * (double(k_tiles) + kTailCostKTiles) / double(per_worker + 1);
  const std::int64_t head = std::clamp<std::int64_t>(std::int64_t(std::ceil(balanced)), 1, k_tiles - 1);
  const double round =
      (std::max(double(head), double(per_worker) * (double(k_tiles - head) + kTailCostKTiles)) + kAddCostKTiles) /
      double(k_tiles);
  if (!cut_any_rest && double(full_rounds) + round > 0.99 * plan.rounds) return plan;  // gains 1% or more
  plan.whole_tiles = full_rounds * slots;
  plan.head_k_tiles = int(head);
  plan.tails_per_slot = int(per_worker);
  plan.rounds = double(full_rounds) + round;
  return plan;
}

std::size_t simt_scratch_bytes(const SimtSchedule& plan, int tile_floats) {
  if (plan.splits > 1) return std::size_t(plan.splits) * std::size_t(plan.tiles) * std::size_t(tile_floats) * 4;
  if (plan.head_k_tiles == 0) return 0;
  return 2 * std::size_t(plan.cut_tiles()) * std::size_t(tile_floats) * sizeof(float);
}

SimtSchedule simt_schedule_for(const GemmShape& shape, int block_rows, int block_cols, int block_k, std::int64_t slots,
                               bool cut_any_rest) {
  const std::int64_t tiles = ceil_div64(shape.m, block_rows) * ceil_div64(shape.n, block_cols);
  const std::int64_t k_padded = ceil_div64(shape.k, 4) * 4;  // the spec's pad_k
  return simt_schedule(tiles, ceil_div64(k_padded, block_k), slots, cut_any_rest);
}

SimtChoice simt_choice(const std::vector<SimtTableRow>& table, const SimtHardware& hardware, const GemmShape& shape) {
  // A short C is a problem of small tiles however wide it is: its choice is among the short-C class's tiles, or the
  // smallest class's (64 rows and others), where the large classes' 128-row tiles would leave half their rows empty.
  const std::int64_t mn = shape.m <= kShortRows ? kShortCClass : shape.m * shape.n;
  std::int64_t class_bound = std::numeric_limits<std::int64_t>::max();
  bool known = false;
  for (const SimtTableRow& row : table)
    if (row.compute_capability == hardware.compute_capability && mn <= row.max_mn && row.max_mn <= class_bound) {
      class_bound = row.max_mn;
      known = true;
    }
  if (!known) return {kDefaultVariant, 8};

  SimtChoice best{kDefaultVariant, 8};
  double best_ms = std::numeric_limits<double>::infinity();
  for (const SimtTableRow& row : table) {
    if (row.compute_capability != hardware.compute_capability || row.max_mn != class_bound) continue;
    const SimtVariant* variant = nullptr;
    for (const SimtVariant& v : simt_variants())
      if (v.name == row.variant) variant = &v;
    if (!variant || !variant->takes(shape.layout)) continue;
    const int resident = hardware.resident_blocks(row.variant);
    if (resident < 1) continue;
    const auto rounds = [&](const GemmShape& s) {
      return simt_schedule_for(s, variant->block_rows, variant->block_cols, variant->block_k,
                               std::int64_t(hardware.sm_count) * resident)
          .rounds;
    };
    const double estimated_ms = row.tuned_ms / rounds(row.tuned) * rounds(shape);
    if (estimated_ms < best_ms) {
      best_ms = estimated_ms;
      best = {row.variant, row.group};
    }
  }
  return best;
}

void force_simt_choice(const SimtChoice& choice) {
  const std::lock_guard<std::mutex> lock(forced_mutex);
  forced = choice;
}

namespace {

SimtChoice current_choice(const GemmShape& shape) {
  SimtChoice choice;
  {
    const std::lock_guard<std::mutex> lock(forced_mutex);
    choice = forced;
  }
  if (choice.variant.empty()) choice = simt_choice(simt_table(), this_gpu(), shape);
  return choice;
}

const SimtVariant& named_variant(const std::string& name) {
  for (const SimtVariant& v : simt_variants())
    if (v.name == name) return v;
  throw std::runtime_error("gpu/simt-tuned: no variant named '" + name + "' (the tuning table is stale)");
}

SimtSchedule schedule_here(const SimtVariant& v, const GemmShape& shape, int forced_slots) {
  const std::int64_t slots =
      forced_slots > 0 ? forced_slots : std::int64_t(multiprocessor_count()) * v.resident_blocks();
  return simt_schedule_for(shape, v.block_rows, v.block_cols, v.block_k, slots, forced_slots > 0);
}

}  // namespace

GemmShape simt_kernel_shape(const GemmShape& shape) {
  if (!b_transposed(shape.layout) || shape.m < kSimtCopyBRows) return shape;
  return {shape.m, shape.n, shape.k, a_transposed(shape.layout) ? Layout::tn : Layout::nn};
}

std::size_t simt_copy_b_bytes(const GemmShape& shape) {
  if (simt_kernel_shape(shape).layout == shape.layout) return 0;
  return simt::k_by_n_bytes(ceil_div64(shape.k, 4) * 4, int(shape.n));
}

bool simt_turns(const GemmShape& shape) {
  return b_transposed(shape.layout) && shape.m < kSimtCopyBRows && shape.m < shape.n;
}

GemmShape simt_turned_shape(const GemmShape& shape) { return {shape.n, shape.m, shape.k, Layout::nn}; }

std::size_t simt_turned_copy_bytes(const GemmShape& shape) {
  if (!simt_turns(shape) || a_transposed(shape.layout)) return 0;
  return simt::k_by_n_bytes(ceil_div64(shape.k, 4) * 4, int(shape.m));
}

std::size_t simt_tuned_scratch_bytes(const GemmShape& shape) {
  const GemmShape kernel_shape = simt_kernel_shape(shape);
  const int forced_slots = current_choice(kernel_shape).slots;
  std::size_t parts = 0;
  for (const SimtVariant& v : simt_variants())
    parts = std::max(parts,
                     simt_scratch_bytes(schedule_here(v, kernel_shape, forced_slots), v.block_rows * v.block_cols));
  std::size_t turned = 0;
  if (simt_turns(shape)) {
    const SimtVariant& v = named_variant(kTurnedVariant);
    turned = simt_turned_copy_bytes(shape) +
             simt_scratch_bytes(schedule_here(v, simt_turned_shape(shape), 0), v.block_rows * v.block_cols);
  }
  return std::max({few_rows_scratch_bytes(shape, kFewRowsFp32Rows), simt_copy_b_bytes(shape) + parts, turned});
}

namespace {

bool forced_variant() {
  const std::lock_guard<std::mutex> lock(forced_mutex);
  return !forced.variant.empty();
}

// How a schedule runs, for the kernel's name: K split, the last round cut, or neither.
std::string schedule_note(const SimtSchedule& plan) {
  if (plan.splits > 1) return ", K split " + std::to_string(plan.splits) + " ways";
  return plan.head_k_tiles > 0 ? ", last round cut in k" : "";
}

// C^T of a turned product (simt_turns) as the NN kernel sees it: A is B as stored, B is op(A)^T, stored K×M or copied
// so into the front of the scratch (the rest of which is the kernel's); C stays g's, written transposed.
DeviceGemm turned_gemm(const DeviceGemm& g) {
  DeviceGemm t = g;
  t.m = g.n;
  t.n = g.m;
  t.m_padded = g.n_padded;
  t.n_padded = simt::b_k_by_n_ld(g.m_padded);  // C^T's B is M rounded up to 4 wide, stored or copied
  t.a = g.b;
  t.lda = g.ldb;
  t.a_transposed = t.b_transposed = false;
  if (g.a_transposed) {  // TT: A stored K×M is C^T's B as it is
    t.b = g.a;
    t.ldb = g.lda;
    return t;
  }
  // The copy writes k_padded rows: the scratch was sized for K rounded up to 4, the spec's pad_k (a larger pad would
  // be refused here rather than overrun the parts after the copy).
  const std::size_t copy_bytes = simt::k_by_n_bytes(g.k_padded, g.m);
  if (copy_bytes > g.scratch_bytes)
    throw std::logic_error("gpu/simt-tuned: the workspace's scratch has no room for A copied K×M");
  float* copy = static_cast<float*>(g.scratch);
  simt::launch_k_by_n(g.a, g.lda, g.m, g.k_padded, copy, g.stream);
  t.b = copy;
  t.ldb = simt::b_k_by_n_ld(g.m);
  t.scratch = copy + copy_bytes / sizeof(float);
  t.scratch_bytes = g.scratch_bytes - copy_bytes;
  return t;
}

}  // namespace

KernelChoice choose_simt_tuned(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  if (!forced_variant() && few_rows_takes(shape, kFewRowsFp32Rows)) return {few_rows_choose(g)};
  if (!forced_variant() && simt_turns(shape)) {
    const SimtVariant& v = named_variant(kTurnedVariant);
    const std::string copied = a_transposed(shape.layout) ? "" : ", A copied KxM first";
    return {v.name + " on C^T" + copied + schedule_note(schedule_here(v, simt_turned_shape(shape), 0))};
  }
  const GemmShape kernel_shape = simt_kernel_shape(shape);
  const SimtChoice choice = current_choice(kernel_shape);
  const SimtVariant& v = named_variant(choice.variant);
  const SimtSchedule plan = schedule_here(v, kernel_shape, choice.slots);
  const std::string copied = kernel_shape.layout != shape.layout ? ", B copied KxN first" : "";
  return {v.name + copied + schedule_note(plan)};
}

void launch_simt_tuned(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  if (!forced_variant() && few_rows_takes(shape, kFewRowsFp32Rows))
    return launch_few_rows(g, few_rows_plan_here(shape), static_cast<float*>(g.scratch), g.scratch_bytes);
  if (!forced_variant() && simt_turns(shape)) {
    const SimtVariant& v = named_variant(kTurnedVariant);
    if (!v.launch_turned)
      throw std::logic_error("gpu/simt-tuned: " + v.name + " has no instance writing C transposed");
    return v.launch_turned(turned_gemm(g), kTurnedGroup, schedule_here(v, simt_turned_shape(shape), 0));
  }
  const GemmShape kernel_shape = simt_kernel_shape(shape);
  const SimtChoice choice = current_choice(kernel_shape);
  const SimtVariant& v = named_variant(choice.variant);
  if (!v.takes(kernel_shape.layout))
    throw std::runtime_error("gpu/simt-tuned: the variant " + v.name + " is built for NN alone, not " +
                             to_string(kernel_shape.layout) +
                             (kernel_shape.layout != shape.layout ? " (" + to_string(shape.layout) + " with B copied KxN)"
                                                                  : std::string()));
  DeviceGemm run = g;
  if (kernel_shape.layout != shape.layout) {
    const std::size_t copy_bytes = simt::k_by_n_bytes(g.k_padded, g.n);
    if (copy_bytes > g.scratch_bytes)
      throw std::logic_error("gpu/simt-tuned: the workspace's scratch has no room for B copied K×N");
    float* copy = static_cast<float*>(g.scratch);
    simt::launch_b_k_by_n(g, copy);
    run.b = copy;
    run.ldb = simt::b_k_by_n_ld(g.n);
    run.b_transposed = false;
    run.scratch = copy + copy_bytes / sizeof(float);
    run.scratch_bytes = g.scratch_bytes - copy_bytes;
  }
  v.launch[static_cast<int>(kernel_shape.layout)](run, choice.group, schedule_here(v, kernel_shape, choice.slots));
}

}  // namespace matcompare::gpu
