// The AVX2+FMA micro-kernel of the BLIS-style CPU GEMM: a 6 x 16 tile of C in 12 ymm accumulators. With 16 ymm
// registers, 12 accumulators + 2 rows of B + 1 broadcast of A = 15, and 12 independent FMAs per k cover
// 2 FMA ports x 4 cycles of latency; 8 x 8 would have only 8 chains and 9 loads per 8 FMAs. This file alone is compiled with -mavx2 -mfma; it holds nothing but the kernel, so no code for
// those instructions can reach the rest of the program.
#include "microkernel_isa.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include "isa_avx2.hpp"
#include "microkernel_simd.hpp"

namespace matcompare::cpu::blis {

const IsaKernel kAvx2Kernel = {6, 16, &simd::Tile<Avx2, 6, 16>::multiply, nullptr};

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const IsaKernel kAvx2Kernel = {6, 16, nullptr, nullptr};
}  // namespace matcompare::cpu::blis

#endif
