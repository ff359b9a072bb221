// Variants of the tuned SIMT kernel for a short C (at most 64 rows, bench/NOTES.md, "A short C with 64x256 tiles"),
// instantiated for every layout: 64-row block tiles of 8 warps, so that an SM holds 16 warps of one tile row where
// the 64x128 tile of 4 warps held 12, and a lane computes 8x8 as in the default variant. cuBLASLt's FP32 kernels take
// a 64x256 tile on these products (its column-major 256x64).
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                                          BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> short_c_variants() {
  return variants_in_every_layout<Config<64, 256, 16, 64, 32, 8, 3, true, 2>,  //
                                  Config<64, 256, 16, 32, 64, 4, 3, true, 2>,  //
                                  Config<64, 128, 16, 64, 32, 8, 3, true, 3>,  //
                                  Config<64, 128, 32, 64, 32, 8, 2, true, 3>,  //
                                  Config<64, 256, 32, 64, 32, 8, 2, true, 1>>();
}

}  // namespace matcompare::gpu::simt
