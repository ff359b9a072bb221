// Variants of the tuned SIMT kernel instantiated for every layout (NN, NT, TN, TT): the ones the committed tuning
// table names and the default of simt_tuned.cu, so that every shape class has its tuned choice in every layout
// (128x64, which the tuner and the tests also force in every layout, is in simt_variants_turned.cu). The others stay
// NN only, which keeps the build's time and size in bounds.
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                                          BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> every_layout_variants() {
  return variants_in_every_layout<Config<128, 128, 16, 64, 32, 8, 2, true, 2>,  //
                                  Config<128, 256, 16, 64, 64, 8, 2, true, 1>,  //
                                  Config<256, 128, 16, 64, 64, 4, 2, true, 1>,  //
                                  Config<128, 128, 16, 64, 64, 4, 3, true, 2>,  //
                                  Config<96, 128, 16, 48, 64, 4, 3, true, 3>,   //
                                  Config<64, 128, 16, 32, 64, 4, 4, false, 3>>();
}

}  // namespace matcompare::gpu::simt
