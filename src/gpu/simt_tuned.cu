// gpu/simt-tuned: launches the variant of simt_tuned.cuh that the committed tuning table picks for this GPU
// and shape class (simt_tuning_table.inc, written by matcompare-tune).
#include <limits>
#include <mutex>
#include <stdexcept>

#include "device_gemm.cuh"
#include "kernels.hpp"
#include "simt_tuning.hpp"

namespace matcompare::gpu {
namespace simt {
std::vector<SimtVariant> row_a_variants();
std::vector<SimtVariant> col_a_variants();
}  // namespace simt

namespace {

// gpu/warp-tiled's design with the rasterization added: the choice for GPUs the table does not know.
constexpr const char* kDefaultVariant = "128x128x16_w64x32_l8x4_s2_colA_b2";

std::mutex forced_mutex;
SimtChoice forced;

}  // namespace

const std::vector<SimtVariant>& simt_variants() {
  static const std::vector<SimtVariant> all = [] {
    std::vector<SimtVariant> v = simt::row_a_variants();
    for (auto& x : simt::col_a_variants()) v.push_back(std::move(x));
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

SimtChoice simt_choice(int compute_capability, const GemmShape& shape) {
  const std::int64_t mn = shape.m * shape.n;
  const SimtTableRow* best = nullptr;
  for (const SimtTableRow& row : simt_table())
    if (row.compute_capability == compute_capability && mn <= row.max_mn && (!best || row.max_mn < best->max_mn))
      best = &row;
  return best ? SimtChoice{best->variant, best->group} : SimtChoice{kDefaultVariant, 8};
}

void force_simt_choice(const SimtChoice& choice) {
  const std::lock_guard<std::mutex> lock(forced_mutex);
  forced = choice;
}

void launch_simt_tuned(const DeviceGemm& g) {
  SimtChoice choice;
  {
    const std::lock_guard<std::mutex> lock(forced_mutex);
    choice = forced;
  }
  if (choice.variant.empty()) choice = simt_choice(compute_capability(), GemmShape{g.m, g.n, g.k});
  for (const SimtVariant& v : simt_variants())
    if (v.name == choice.variant) return v.launch(g, choice.group);
  throw std::runtime_error("gpu/simt-tuned: no variant named '" + choice.variant + "' (the tuning table is stale)");
}

}  // namespace matcompare::gpu
