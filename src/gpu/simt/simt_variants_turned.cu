// The variant that runs products turned around (simt_tuning.hpp, simt_turns: C^T of a C with fewer rows than
// columns, B stored N×K), in every layout as the tuner and the tests force it, and with the NN instance that writes C
// transposed: the mirror of the short-C class's 64x128 row-major-A tile, C^T's columns being C's few rows.
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                                          BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> turned_variants() {
  return {variant<Config<128, 64, 16, 64, 32, 8, 4, false, 3>, true, true>()};
}

}  // namespace matcompare::gpu::simt
