#pragma once
// AVX2+FMA as the vector type the templated kernels take (microkernel_simd.hpp, few_rows_simd.hpp): included only by
// the files compiled with -mavx2 -mfma, so that none of these instructions reaches the rest of the program.
#include <immintrin.h>

namespace matcompare::cpu::blis {
namespace {

struct Avx2 {
  using Vec = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kRegisters = 16;
  static Vec zero() { return _mm256_setzero_ps(); }
  static Vec broadcast(const float* x) { return _mm256_broadcast_ss(x); }
  static Vec load(const float* x) { return _mm256_load_ps(x); }
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
}  // namespace matcompare::cpu::blis
