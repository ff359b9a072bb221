// cpu/blis's few-rows loops (few_rows_simd.hpp) for AVX-512: 16 floats a vector, and 32 registers, which hold the
// transposed loop's 4 x 4 sums, four columns of B and a row of A. This file alone is compiled with -mavx512f.
#include "few_rows_isa.hpp"

#if defined(__AVX512F__) && defined(__x86_64__)
#include <immintrin.h>

#include "few_rows_simd.hpp"

namespace matcompare::cpu::blis {
namespace {

struct Avx512 {
  using Vec = __m512;
  static constexpr int kLanes = 16;
  static constexpr int kRegisters = 32;
  static Vec zero() { return _mm512_setzero_ps(); }
  static Vec broadcast(const float* x) { return _mm512_set1_ps(*x); }
  static Vec loadu(const float* x) { return _mm512_loadu_ps(x); }
  static void storeu(float* x, Vec v) { _mm512_storeu_ps(x, v); }
  static Vec fmadd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
  // Once per column and row, out of the loop: through memory, where GCC 12's _mm512_reduce_add_ps warns of its own
  // header's uninitialised vector.
  static float sum(Vec v) {
    alignas(64) float x[kLanes];
    _mm512_store_ps(x, v);
    float s = 0;
    for (float e : x) s += e;
    return s;
  }
};

}  // namespace

const FewRowsKernels kAvx512FewRows = few_rows::kKernels<Avx512, 4>;

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const FewRowsKernels kAvx512FewRows = {nullptr, nullptr};
}  // namespace matcompare::cpu::blis

#endif
