// Variants of the tuned SIMT kernel that store A transposed ([k][m]) through registers, as gpu/warp-tiled does.
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                           BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> col_a_variants() {
  return variants<Config<128, 128, 16, 64, 32, 8, 3, true, 2>,  //
                  Config<128, 128, 16, 64, 32, 8, 4, true, 2>,  //
                  Config<256, 128, 16, 64, 64, 4, 3, true, 1>,  //
                  Config<256, 128, 8, 64, 64, 4, 3, true, 1>,   //
                  Config<256, 128, 8, 64, 64, 4, 4, true, 1>,   //
                  Config<128, 256, 8, 64, 64, 8, 4, true, 1>,   //
                  Config<128, 256, 8, 64, 64, 8, 3, true, 1>,   //
                  Config<96, 128, 16, 48, 64, 4, 4, true, 3>>();
}

}  // namespace matcompare::gpu::simt
