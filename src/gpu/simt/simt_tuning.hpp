#pragma once
// The tuned SIMT step's parameter space as plain C++: the instantiated variants, the committed table that
// picks one per GPU and shape class, and the override the tuner (apps/tune.cpp) measures them through.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../runtime/gpu_runtime.hpp"
#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

// How one launch covers C's tiles. Tiles run in rounds of `slots` blocks (SMs x blocks per SM), and a round takes
// as long whether it is full or not. The whole rounds go one block per tile. When the last round would be
// part-empty, its tiles' k loops are cut at one k tile for all of them: the heads (k tiles 0 .. head_k_tiles - 1)
// take one block each and run in step, as whole tiles do, so that tiles sharing rows of A or columns of B read them
// from L2 together; the tails take the idle slots, tails_per_slot of them in turn a slot. Each part goes to scratch
// and a last small kernel adds the two.
// Where there are fewer tiles than slots and K is deep, K is split instead: each tile's k tiles go to `splits` blocks
// in runs of split_k_tiles (the parts in one round or several), every block's sum goes to scratch, and a last kernel
// adds them in split order.
struct SimtSchedule {
  std::int64_t tiles = 0;
  std::int64_t whole_tiles = 0;  // tiles 0 .. whole_tiles - 1 (in rasterized order) take one block each
  int head_k_tiles = 0;          // 0: no tile is cut
  int tails_per_slot = 0;
  int splits = 1;       // > 1: K split (no cut)
  int split_k_tiles = 0;
  double rounds = 0;  // estimated time, in rounds of whole tiles
  std::int64_t cut_tiles() const { return tiles - whole_tiles; }
};

// `slots` > 0. With `cut_any_rest`, the last round is cut whenever it is part-empty and the k loop has two k tiles
// or more (the tests), and K is never split; otherwise the last round is cut only after at least one whole round,
// and where the estimate gains.
SimtSchedule simt_schedule(std::int64_t tiles, std::int64_t k_tiles, std::int64_t slots, bool cut_any_rest = false);
// Device scratch of a schedule: two parts per cut tile, or one per tile and split.
std::size_t simt_scratch_bytes(const SimtSchedule& plan, int tile_floats);

using SimtLaunchFn = void (*)(const DeviceGemm&, int group, const SimtSchedule& plan);

struct SimtVariant {
  // "128x128x16_w64x32_l8x4_s3_rowA_b2": block, warp tile, lane grid, stages, A's shared tile, blocks/SM
  std::string name;
  int block_rows, block_cols, block_k;
  // Per Layout (NN, NT, TN, TT, in the enum's order); nullptr for a layout it is not instantiated for. The variants
  // the tuning table names and the default take all four (simt_variants_every_layout.cu, simt_variants_short_c.cu).
  SimtLaunchFn launch[4];
  // Blocks of its NN instance one SM of the selected GPU holds at once; __launch_bounds__ holds the other layouts'
  // instances to at least the variant's blocks per SM.
  int (*resident_blocks)();
  // Its NN instance writing C transposed, for products turned around (simt_turns); nullptr for the variants that
  // are not kTurnedVariant, to keep the build's time in bounds.
  SimtLaunchFn launch_turned = nullptr;

  bool takes(Layout layout) const { return launch[static_cast<int>(layout)] != nullptr; }
};

// Every instantiated variant (simt_variants_*.cu); empty without CUDA.
const std::vector<SimtVariant>& simt_variants();

struct SimtChoice {
  std::string variant;
  int group = 8;  // block rows per rasterization group
  int slots = 0;  // > 0: schedule as if the GPU ran this many blocks at once, cutting any part-empty last round
};

// Shape classes by the size of C: a class holds the shapes with M*N up to its bound. A class has a few
// candidates, each with its time on the shape it was tuned on (a square, from matcompare-tune --sizes). The bound
// kShortCClass marks the short-C class instead: C of at most kShortRows rows, however wide, tuned on one such shape
// (matcompare-tune --short-class).
struct SimtTableRow {
  int compute_capability;  // major*10 + minor
  std::int64_t max_mn;
  const char* variant;
  int group;
  GemmShape tuned;
  double tuned_ms;
};
constexpr std::int64_t kShortCClass = 0;
// Up to this many rows of C the choice takes the short-C class's candidates, or where a GPU has none the smallest
// class's (bench/NOTES.md, "A few-rows kernel for decode" and "A short C with 64x256 tiles").
constexpr std::int64_t kShortRows = 64;
const std::vector<SimtTableRow>& simt_table();

// What the choice needs to know of the GPU: its SM count and how many blocks of a variant an SM holds.
struct SimtHardware {
  int compute_capability;
  int sm_count;
  std::function<int(const std::string& variant)> resident_blocks;
};

// The schedule of a shape for a variant's block tile, `slots` blocks at once (SMs x blocks per SM);
// `cut_any_rest` as for simt_schedule.
SimtSchedule simt_schedule_for(const GemmShape& shape, int block_rows, int block_cols, int block_k, std::int64_t slots,
                               bool cut_any_rest = false);

// The candidate of the shape's class with the least estimated time, where a candidate's time per round is
// taken from its tuned shape: a shape whose last round is nearly empty for one tile size goes to another. Up to
// kShortRows rows of C the short-C class's candidates are taken, whatever N. GPUs missing from the table get a safe
// default.
SimtChoice simt_choice(const std::vector<SimtTableRow>& table, const SimtHardware& hardware, const GemmShape& shape);

// Makes every later gpu/simt-tuned launch use `choice` (the tuner); an empty variant restores the table.
void force_simt_choice(const SimtChoice& choice);

// From this many rows of C on, B stored transposed (NT, TT) is copied K×N into scratch first, inside the timed
// computation, and the kernel runs its NN or TN instance (b_k_by_n.cuh): the copy moves B twice, a few percent of the
// product's time at these rows, where reading B along K costs the kernel about a quarter of its speed (bench/NOTES.md,
// "The suites at 9f5f3f6, and prefill's B stored N×K copied K×N first").
constexpr std::int64_t kSimtCopyBRows = 512;
// The shape gpu/simt-tuned's kernel runs: `shape`, or with B stored K×N where the launch copies it so (above).
GemmShape simt_kernel_shape(const GemmShape& shape);
// Device scratch of that copy: K and N each rounded up to 4, in floats; 0 where B is not copied.
std::size_t simt_copy_b_bytes(const GemmShape& shape);

// Below kSimtCopyBRows rows, a C with fewer rows than columns and B stored N×K (NT, TT) is turned around: C^T =
// op(B)^T op(A)^T is an NN product whose A is B as it is stored and whose B is op(A)^T, stored K×M where A is
// (TT) and copied so, inside the timed computation, where A is M×K (NT: a copy of M×K floats, where copying B moves
// N×K). kTurnedVariant's NN instance runs it and writes C transposed, on the schedule of C^T's shape. The [n][k]
// tile the NT instances read B through cost 64-row decode products about a quarter of their speed against NN, where
// the tile shape was not the cause (bench/NOTES.md, "A short C turned around"). Not where a variant is forced (the
// tuner measures the variants themselves), nor where the few-rows kernels take the shape, which they decide first.
bool simt_turns(const GemmShape& shape);
// C^T's shape, NN: {N, M, K}.
GemmShape simt_turned_shape(const GemmShape& shape);
constexpr const char* kTurnedVariant = "128x64x16_w64x32_l8x4_s4_rowA_b3";
constexpr int kTurnedGroup = 8;
// Device scratch of the copy of A (NT turned): K rounded up to 4 by M rounded up to 4, in floats; else 0.
std::size_t simt_turned_copy_bytes(const GemmShape& shape);

// Device scratch of gpu/simt-tuned on this GPU: the copy of B, then enough for the schedule of any variant (the tuner
// forces them in turn on one workspace).
std::size_t simt_tuned_scratch_bytes(const GemmShape& shape);

// gpu/simt-tuned's launch (simt_tuned.cu): the variant the table, or force_simt_choice, picks for the kernel's shape
// (B copied K×N first where simt_kernel_shape says so); the few-rows kernels (few_rows.hpp) where they take the shape
// and no variant is forced.
void launch_simt_tuned(const DeviceGemm& g);
// What that launch runs, named at upload (GpuKernelSpec::choosing_with): the result's kernel.
KernelChoice choose_simt_tuned(const DeviceGemm& g);

}  // namespace matcompare::gpu
