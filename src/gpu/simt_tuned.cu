// gpu/simt-tuned: launches the variant of simt_tuned.cuh that the committed tuning table picks for this GPU
// and shape class (simt_tuning_table.inc, written by matcompare-tune).
#include <limits>
#include <mutex>
#include <stdexcept>

#include "device_gemm.cuh"
#include "gpu_runtime.hpp"
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

int simt_waves(const GemmShape& shape, int block_rows, int block_cols, int sm_count, int resident_blocks) {
  const std::int64_t blocks = ((shape.m + block_rows - 1) / block_rows) * ((shape.n + block_cols - 1) / block_cols);
  const std::int64_t per_wave = std::int64_t(sm_count) * resident_blocks;
  return int((blocks + per_wave - 1) / per_wave);
}

SimtChoice simt_choice(const std::vector<SimtTableRow>& table, const SimtHardware& hardware, const GemmShape& shape) {
  const std::int64_t mn = shape.m * shape.n;
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
    if (!variant) continue;
    const int resident = hardware.resident_blocks(row.variant);
    if (resident < 1) continue;
    const auto waves = [&](const GemmShape& s) {
      return simt_waves(s, variant->block_rows, variant->block_cols, hardware.sm_count, resident);
    };
    const GemmShape tuned{row.tuned_size, row.tuned_size, row.tuned_size};
    const double estimated_ms = row.tuned_ms / waves(tuned) * waves(shape);
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

void launch_simt_tuned(const DeviceGemm& g) {
  SimtChoice choice;
  {
    const std::lock_guard<std::mutex> lock(forced_mutex);
    choice = forced;
  }
  if (choice.variant.empty()) choice = simt_choice(simt_table(), this_gpu(), GemmShape{g.m, g.n, g.k});
  for (const SimtVariant& v : simt_variants())
    if (v.name == choice.variant) return v.launch(g, choice.group);
  throw std::runtime_error("gpu/simt-tuned: no variant named '" + choice.variant + "' (the tuning table is stale)");
}

}  // namespace matcompare::gpu
