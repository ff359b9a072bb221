// Variants of the tuned SIMT kernel for a short C (at most 64 rows, bench/NOTES.md, "A short C with 64x256 tiles"),
// instantiated for every layout: a 64x256 block tile of 8 warps, so that an SM holds 16 warps of one tile row where
// the 64x128 tile of 4 warps held 12 (cuBLASLt's FP32 kernels take this tile on these products, column-major 256x64),
// and a 64x128 tile with A transposed: two of the five the probe measured, the other three never faster (NOTES).
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                                          BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> short_c_variants() {
  return variants_in_every_layout<Config<64, 256, 16, 32, 64, 4, 3, true, 2>,  //
                                  Config<64, 128, 16, 64, 32, 8, 3, true, 3>>();
}

}  // namespace matcompare::gpu::simt
