// cpu/blis's few-rows loops (few_rows_simd.hpp) for AVX2 and FMA: 8 floats a vector, and 16 registers, which hold the
// transposed loop's 4 x 2 sums, two columns of B and a row of A. This file alone is compiled with -mavx2 -mfma.
#include "few_rows_isa.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#include "few_rows_simd.hpp"

namespace matcompare::cpu::blis {
namespace {

struct Avx2 {
  using Vec = __m256;
  static constexpr int kLanes = 8, kColumns = 2;
  static Vec zero() { return _mm256_setzero_ps(); }
  static Vec broadcast(const float* x) { return _mm256_broadcast_ss(x); }
  static Vec loadu(const float* x) { return _mm256_loadu_ps(x); }
  static void storeu(float* x, Vec v) { _mm256_storeu_ps(x, v); }
  static Vec fmadd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static float sum(Vec v) {
    const __m128 four = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
    return _mm_cvtss_f32(_mm_add_ss(two, _mm_shuffle_ps(two, two, 1)));
  }
};

}  // namespace

const FewRowsKernels kAvx2FewRows = few_rows::kKernels<Avx2>;

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const FewRowsKernels kAvx2FewRows = {nullptr, nullptr};
}  // namespace matcompare::cpu::blis

#endif
