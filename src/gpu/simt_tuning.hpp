#pragma once
// The tuned SIMT step's parameter space as plain C++: the instantiated variants, the committed table that
// picks one per GPU and shape class, and the override the tuner (apps/tune.cpp) measures them through.
#include <cstdint>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

struct SimtVariant {
  std::string name;  // "128x128x16_w64x32_l8x4_s3_rowA_b2": block, warp tile, lane grid, stages, A layout, blocks/SM
  void (*launch)(const DeviceGemm&, int group);
};

// Every instantiated variant (simt_variants_*.cu); empty without CUDA.
const std::vector<SimtVariant>& simt_variants();

struct SimtChoice {
  std::string variant;
  int group = 8;  // block rows per rasterization group
};

// Shape classes by the size of C: a class holds the shapes with M*N up to its bound.
struct SimtTableRow {
  int compute_capability;  // major*10 + minor
  std::int64_t max_mn;
  const char* variant;
  int group;
};
const std::vector<SimtTableRow>& simt_table();

// The table's choice for this GPU and shape; GPUs missing from the table get a safe default.
SimtChoice simt_choice(int compute_capability, const GemmShape& shape);

// Makes every later gpu/simt-tuned launch use `choice` (the tuner); an empty variant restores the table.
void force_simt_choice(const SimtChoice& choice);

}  // namespace matcompare::gpu
