#pragma once
// The tuned SIMT step's parameter space as plain C++: the instantiated variants, the committed table that
// picks one per GPU and shape class, and the override the tuner (apps/tune.cpp) measures them through.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

struct SimtVariant {
  std::string name;  // "128x128x16_w64x32_l8x4_s3_rowA_b2": block, warp tile, lane grid, stages, A layout, blocks/SM
  int block_rows, block_cols;
  void (*launch)(const DeviceGemm&, int group);
  int (*resident_blocks)();  // blocks of this variant one SM of the selected GPU holds at once
};

// Every instantiated variant (simt_variants_*.cu); empty without CUDA.
const std::vector<SimtVariant>& simt_variants();

struct SimtChoice {
  std::string variant;
  int group = 8;  // block rows per rasterization group
};

// Shape classes by the size of C: a class holds the shapes with M*N up to its bound. A class has a few
// candidates, each with its time on the square shape it was tuned on.
struct SimtTableRow {
  int compute_capability;  // major*10 + minor
  std::int64_t max_mn;
  const char* variant;
  int group;
  std::int64_t tuned_size;
  double tuned_ms;
};
const std::vector<SimtTableRow>& simt_table();

// What the choice needs to know of the GPU: its SM count and how many blocks of a variant an SM holds.
struct SimtHardware {
  int compute_capability;
  int sm_count;
  std::function<int(const std::string& variant)> resident_blocks;
};

// Blocks run in waves of sm_count * resident blocks, and a wave takes as long whether it is full or not.
int simt_waves(const GemmShape& shape, int block_rows, int block_cols, int sm_count, int resident_blocks);

// The candidate of the shape's class with the least estimated time, where a candidate's time per wave is
// taken from its tuned square shape: a shape whose last wave is nearly empty for one tile size goes to
// another. GPUs missing from the table get a safe default.
SimtChoice simt_choice(const std::vector<SimtTableRow>& table, const SimtHardware& hardware, const GemmShape& shape);

// Makes every later gpu/simt-tuned launch use `choice` (the tuner); an empty variant restores the table.
void force_simt_choice(const SimtChoice& choice);

}  // namespace matcompare::gpu
