#pragma once
// Instantiates variants of the tuned SIMT kernel; each simt_variants_*.cu file lists a share of them so that
// they compile in parallel.
#include <string>
#include <vector>

#include "simt_tuned.cuh"
#include "simt_tuning.hpp"

namespace matcompare::gpu::simt {

// Configuration C (its layout NN) for NN alone, or for every layout; with kTurned, also its NN instance that writes
// C transposed (SimtVariant::launch_turned).
template <typename C, bool kEveryLayout, bool kTurned = false>
SimtVariant variant() {
  const auto x = [](int a, int b) { return std::to_string(a) + "x" + std::to_string(b); };
  SimtVariant v{x(C::kBM, C::kBN) + "x" + std::to_string(C::kBK) + "_w" + x(C::kWM, C::kWN) + "_l" +
                    x(C::kLaneRows, C::kLaneCols) + "_s" + std::to_string(C::kStages) +
                    (C::kTransposedA ? "_colA" : "_rowA") + "_b" + std::to_string(C::kMinBlocks),
                C::kBM,
                C::kBN,
                C::kBK,
                {&launch_simt_tuned<C>, nullptr, nullptr, nullptr},
                &resident_simt_blocks<C>};
  if constexpr (kEveryLayout) {
    v.launch[static_cast<int>(Layout::nt)] = &launch_simt_tuned<typename C::template WithLayout<false, true>>;
    v.launch[static_cast<int>(Layout::tn)] = &launch_simt_tuned<typename C::template WithLayout<true, false>>;
    v.launch[static_cast<int>(Layout::tt)] = &launch_simt_tuned<typename C::template WithLayout<true, true>>;
  }
  if constexpr (kTurned) v.launch_turned = &launch_simt_tuned<C, true>;
  return v;
}

template <typename... Cs>
std::vector<SimtVariant> variants() {
  return {variant<Cs, false>()...};
}
template <typename... Cs>
std::vector<SimtVariant> variants_in_every_layout() {
  return {variant<Cs, true>()...};
}

}  // namespace matcompare::gpu::simt
