// Variants of the tuned SIMT kernel that keep A row-major in shared memory, both operands moved by cp.async.
// Their A fragments (4 k steps of every row) need more registers: at 128 a thread (2 blocks of 256) they spill.
#include "simt_variant_list.cuh"

namespace matcompare::gpu::simt {

//                           BM   BN  BK  WM  WN  lane rows, stages, transposed A, blocks per SM
std::vector<SimtVariant> row_a_variants() {
  return variants<Config<128, 128, 16, 64, 32, 8, 3, false, 1>,  //
                  Config<128, 128, 16, 64, 32, 8, 4, false, 1>,  //
                  Config<128, 128, 32, 64, 32, 8, 3, false, 1>,  //
                  Config<128, 256, 16, 64, 64, 8, 3, false, 1>>();
}

}  // namespace matcompare::gpu::simt
