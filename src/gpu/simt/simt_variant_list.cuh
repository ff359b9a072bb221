#pragma once
// Instantiates variants of the tuned SIMT kernel; each simt_variants_*.cu file lists a share of them so that
// they compile in parallel.
#include <string>
#include <vector>

#include "simt_tuned.cuh"
#include "simt_tuning.hpp"

namespace matcompare::gpu::simt {

template <typename C>
SimtVariant variant() {
  const auto x = [](int a, int b) { return std::to_string(a) + "x" + std::to_string(b); };
  return {x(C::kBM, C::kBN) + "x" + std::to_string(C::kBK) + "_w" + x(C::kWM, C::kWN) + "_l" +
              x(C::kLaneRows, C::kLaneCols) + "_s" + std::to_string(C::kStages) +
              (C::kTransposedA ? "_colA" : "_rowA") + "_b" + std::to_string(C::kMinBlocks),
          C::kBM, C::kBN, C::kBK, &launch_simt_tuned<C>, &resident_simt_blocks<C>};
}

template <typename... Cs>
std::vector<SimtVariant> variants() {
  return {variant<Cs>()...};
}

}  // namespace matcompare::gpu::simt
