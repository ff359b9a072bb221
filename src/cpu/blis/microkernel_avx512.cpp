// The AVX-512 micro-kernel of the BLIS-style CPU GEMM: a 12 x 32 tile of C in 24 zmm accumulators. With 32 zmm
// registers, 24 accumulators + 2 rows of B + 1 broadcast of A = 27 (BLIS's Skylake-X sgemm tile, 32 x 12
// column-major, is the same tile seen from C's other side); 24 independent FMAs per k cover 2 FMA ports x 4
// cycles of latency three times over. This file alone is compiled with -mavx512f; it holds nothing but the
// kernel, so no code for those instructions can reach the rest of the program.
#include "microkernel_isa.hpp"

#if defined(__AVX512F__)
#include "microkernel_simd.hpp"

namespace matcompare::cpu::blis {
namespace {

struct Avx512 {
  using Vec = __m512;
  static constexpr int kLanes = 16;
  static Vec zero() { return _mm512_setzero_ps(); }
  static Vec broadcast(const float* x) { return _mm512_set1_ps(*x); }
  static Vec load(const float* x) { return _mm512_load_ps(x); }
  static Vec loadu(const float* x) { return _mm512_loadu_ps(x); }
  static void storeu(float* x, Vec v) { _mm512_storeu_ps(x, v); }
  static Vec fmadd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
};

}  // namespace

const IsaKernel kAvx512Kernel = {12, 32, &simd::Tile<Avx512, 12, 32>::multiply};

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const IsaKernel kAvx512Kernel = {12, 32, nullptr};
}  // namespace matcompare::cpu::blis

#endif
