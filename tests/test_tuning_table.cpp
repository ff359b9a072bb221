// The committed tuning table of gpu/simt-tuned against the variants this build has, and the wave-aware choices
// among a class's candidates and among the TF32 engine's tiles (no GPU needed: the hardware is described by hand).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "../src/gpu/simt_tuning.hpp"
#include "../src/gpu/tf32_passes.hpp"

using namespace matcompare;

namespace {

constexpr const char* k256x128 = "256x128x16_w64x64_l4x8_s2_colA_b1";
constexpr const char* k128x128 = "128x128x16_w64x32_l8x4_s2_colA_b2";

// An H100-like GPU where a variant holds as many blocks per SM as its name's "_bN" asks for.
gpu::SimtHardware hopper_like() {
  return {90, 132, [](const std::string& name) { return std::stoi(name.substr(name.rfind("_b") + 2)); }};
}

}  // namespace

TEST_CASE("every row of the tuning table names a variant this build has") {
  REQUIRE_FALSE(gpu::simt_table().empty());
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    bool found = false;
    for (const gpu::SimtVariant& v : gpu::simt_variants()) found = found || v.name == row.variant;
    INFO(row.variant);
    CHECK(found);
    CHECK(row.group >= 1);
    CHECK(row.tuned_size >= 1);
    CHECK(row.tuned_ms > 0);
  }
}

TEST_CASE("the table's classes cover every shape, and an unknown GPU gets the default") {
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    gpu::SimtHardware hardware = hopper_like();
    hardware.compute_capability = row.compute_capability;
    const gpu::SimtChoice huge = gpu::simt_choice(gpu::simt_table(), hardware, {1 << 20, 1 << 20, 4});
    CHECK_FALSE(huge.variant.empty());
  }
  gpu::SimtHardware unknown_gpu = hopper_like();
  unknown_gpu.compute_capability = 11;
  const gpu::SimtChoice unknown = gpu::simt_choice(gpu::simt_table(), unknown_gpu, {64, 64, 64});
  bool known = false;
  for (const gpu::SimtVariant& v : gpu::simt_variants()) known = known || v.name == unknown.variant;
  CHECK(known);
}

TEST_CASE("waves: blocks over SMs times resident blocks, rounded up") {
  CHECK(gpu::simt_waves({4096, 4096, 7}, 256, 128, 132, 1) == 4);   // 512 blocks
  CHECK(gpu::simt_waves({4097, 3001, 7}, 256, 128, 132, 1) == 4);   // 17 x 24 = 408 blocks: 3.09 waves
  CHECK(gpu::simt_waves({4097, 3001, 7}, 128, 128, 132, 2) == 3);   // 33 x 24 = 792 blocks: 3.00 waves
  CHECK(gpu::simt_waves({1, 1, 1}, 256, 128, 132, 1) == 1);
}

TEST_CASE("the choice follows the tuned times on the tuned shape and the waves elsewhere") {
  const std::vector<gpu::SimtTableRow> table = {
      {90, 1000, k128x128, 4, 16, 0.001},
      {90, INT64_MAX, k256x128, 1, 4096, 2.80},
      {90, INT64_MAX, k128x128, 8, 4096, 2.95},
  };
  const gpu::SimtChoice square = gpu::simt_choice(table, hopper_like(), {4096, 4096, 4096});
  CHECK(square.variant == k256x128);
  CHECK(square.group == 1);
  // 256x128 needs a fourth wave for 24 blocks; 128x128 fills three waves exactly.
  const gpu::SimtChoice ragged = gpu::simt_choice(table, hopper_like(), {4097, 3001, 2049});
  CHECK(ragged.variant == k128x128);
  CHECK(ragged.group == 8);
  // The small class has a single candidate, whatever its waves.
  CHECK(gpu::simt_choice(table, hopper_like(), {10, 10, 10}).group == 4);
}

TEST_CASE("the TF32 engine's plan: the tile that leaves the last wave least empty, split K while SMs idle") {
  auto plan = [](std::int64_t m, std::int64_t n, std::int64_t k, int passes, const gpu::Tf32Tile* only = nullptr) {
    const gpu::Tf32Plan p = gpu::tf32_plan({m, n, k}, passes, 132, only);
    return gpu::tf32_tile_name(p.tile) + "/" + std::to_string(p.splits);
  };
  CHECK(plan(4096, 4096, 4096, 1) == "256x128/1");  // 512 tiles of either large shape; the cheaper per area
  CHECK(plan(8192, 8192, 8192, 3) == "256x128/1");
  CHECK(plan(2048, 2048, 2048, 1) == "256x128/1");  // one wave of 128 tiles; 128x128 would need two
  CHECK(plan(4097, 3001, 2049, 3) == "128x256/1");  // 33 x 12 = 396 tiles, 3.00 waves; 256x128 has 408, 3.09
  CHECK(plan(1024, 1024, 1024, 3) == "256x128/4");  // 32 tiles, each shared by 4 blocks: 128 of 132 SMs busy
  CHECK(plan(1, 1, 2048, 1) == "128x128/4");        // one tile of any shape: the smallest costs least
  CHECK(plan(1, 1, 1, 1) == "128x128/1");           // one step cannot be split
  CHECK(plan(17, 33, 65, 1) == "128x128/3");        // as many splits as steps
  CHECK(plan(4096, 4096, 4096, 1, &gpu::kTf32Tiles[1]) == "128x256/1");
}
