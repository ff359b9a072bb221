// The portable micro-kernel of the BLIS-style CPU GEMM: plain loops on the 6 x 16 tile of the AVX2 kernel,
// for CPUs without AVX2 (or not x86 at all).
#include "microkernel_isa.hpp"

namespace matcompare::cpu::blis {
namespace {

constexpr int MR = 6, NR = 16;

void microkernel_generic(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta) {
  // One row of the tile at a time: NR accumulators the compiler vectorizes (plain SSE2 without a
  // -march flag), with the KC x NR panel of B re-read from L1 for each of the MR rows. (Keeping the
  // whole MR x NR tile live makes GCC shuffle and spill instead.)
  for (int i = 0; i < MR; ++i) {
    float acc[NR] = {};
    const float* ai = a + i;
    for (std::int64_t p = 0; p < kc; ++p) {
      const float aip = ai[p * MR];
      const float* bp = b + p * NR;
      for (int j = 0; j < NR; ++j) acc[j] += aip * bp[j];
    }
    float* ci = c + i * ldc;
    if (beta == 0.0f)
      for (int j = 0; j < NR; ++j) ci[j] = acc[j];
    else
      for (int j = 0; j < NR; ++j) ci[j] = acc[j] + beta * ci[j];
  }
}

}  // namespace

const IsaKernel kGenericKernel = {MR, NR, &microkernel_generic, nullptr};

}  // namespace matcompare::cpu::blis
