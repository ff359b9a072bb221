// The MR x NR register micro-kernel of the BLIS-style CPU GEMM (the project's step beyond the
// seeds, after seed 003's tiling): accumulators live in registers across the whole KC loop; the
// AVX2+FMA version is compiled with a target attribute (no -march flag) and picked at run time.
#include "microkernel.hpp"

#include "block_sizes.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MATCOMPARE_BLIS_X86 1
#include <immintrin.h>
#endif

namespace matcompare::cpu::blis {

void microkernel_generic(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                         float beta) {
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

#ifdef MATCOMPARE_BLIS_X86

namespace {

static_assert(NR % 8 == 0, "the AVX2 micro-kernel needs NR to be a multiple of 8 floats");
constexpr int NV = NR / 8;  // ymm vectors per row of the tile
static_assert(MR * NV + NV + 1 <= 16, "the AVX2 tile must fit the 16 ymm registers");

// One k step: NV loads of B, MR broadcasts of A, MR*NV FMAs. Fully unrolled so the accumulator
// array is kept in registers.
__attribute__((target("avx2,fma"), always_inline)) inline void rank1(const float* a, const float* b,
                                                                   __m256 (&acc)[MR][NV]) {
  __m256 bv[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) bv[v] = _mm256_load_ps(b + 8 * v);
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    const __m256 ai = _mm256_broadcast_ss(a + i);
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = _mm256_fmadd_ps(ai, bv[v], acc[i][v]);
  }
}

__attribute__((target("avx2,fma"))) void microkernel_avx2(std::int64_t kc, const float* a, const float* b,
                                                          float* c, std::int64_t ldc, float beta) {
  __m256 acc[MR][NV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = _mm256_setzero_ps();

  // Bring the C tile towards L1 while the k loop runs.
  if (beta != 0.0f)
    for (int i = 0; i < MR; ++i) {
      _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + NR - 1), _MM_HINT_T0);
    }

  std::int64_t p = 0;
  for (; p + 4 <= kc; p += 4) {
    _mm_prefetch(reinterpret_cast<const char*>(a + 8 * MR), _MM_HINT_T0);
    rank1(a, b, acc);
    rank1(a + MR, b + NR, acc);
    rank1(a + 2 * MR, b + 2 * NR, acc);
    rank1(a + 3 * MR, b + 3 * NR, acc);
    a += 4 * MR;
    b += 4 * NR;
  }
  for (; p < kc; ++p) {
    rank1(a, b, acc);
    a += MR;
    b += NR;
  }

  if (beta == 0.0f) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) _mm256_storeu_ps(c + i * ldc + 8 * v, acc[i][v]);
  } else if (beta == 1.0f) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) {
        float* cp = c + i * ldc + 8 * v;
        _mm256_storeu_ps(cp, _mm256_add_ps(acc[i][v], _mm256_loadu_ps(cp)));
      }
  } else {
    const __m256 bb = _mm256_set1_ps(beta);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) {
        float* cp = c + i * ldc + 8 * v;
        _mm256_storeu_ps(cp, _mm256_fmadd_ps(bb, _mm256_loadu_ps(cp), acc[i][v]));
      }
  }
}

}  // namespace

MicroKernel select_microkernel() {
  static const MicroKernel chosen = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
                                        ? &microkernel_avx2
                                        : &microkernel_generic;
  return chosen;
}

const char* microkernel_name() { return select_microkernel() == &microkernel_generic ? "generic" : "avx2+fma"; }

#else

MicroKernel select_microkernel() { return &microkernel_generic; }
const char* microkernel_name() { return "generic"; }

#endif

}  // namespace matcompare::cpu::blis
