// The AVX-512 micro-kernel of the BLIS-style CPU GEMM: a 12 x 32 tile of C in 24 zmm accumulators. With 32 zmm
// registers, 24 accumulators + 2 rows of B + 1 broadcast of A = 27 (BLIS's Skylake-X sgemm tile, 32 x 12
// column-major, is the same tile seen from C's other side); 24 independent FMAs per k cover 2 FMA ports x 4
// cycles of latency three times over. Beside it, a 12 x 16 kernel for narrow edge panels. This file alone is
// compiled with -mavx512f; it holds nothing but the kernels, so no code for those instructions can reach the rest of
// the program.
//
// The kernel is written in assembly, where the AVX2 one is intrinsics (microkernel_simd.hpp): from the same
// intrinsics for this tile GCC 12 kept 9 register-to-register moves and a spilled accumulator in every trip of
// 96 FMAs, and an Intel core runs such moves on its two FMA ports unless renaming removes them (bench/NOTES.md, "The 12×32 kernel in assembly").
// Here each accumulator has its register for the whole call: zmm(8 + 2 i + v) holds row i, vector v of the tile.
#include "microkernel_isa.hpp"

#if defined(__AVX512F__) && defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

namespace matcompare::cpu::blis {
namespace {

constexpr int kMr = 12, kNr = 32;
constexpr std::int64_t kPrefetchDepth = 32;  // k steps before the end at which the C tile goes to L1

// One row of the tile in one k step: broadcast A(row, k) (rows alternate zmm4 and zmm5) and add its products with
// the step's two vectors of B. `step` is the k step inside a trip of four, for the offsets.
#define TILE_ROW(step, row, b0, b1, bcast, acc0, acc1)                                   \
  "vbroadcastss " #step "*48+" #row "*4(%[a]), %%zmm" #bcast "\n\t"                   \
  "vfmadd231ps %%zmm" #b0 ", %%zmm" #bcast ", %%zmm" #acc0 "\n\t"                     \
  "vfmadd231ps %%zmm" #b1 ", %%zmm" #bcast ", %%zmm" #acc1 "\n\t"
// One k step: B's two vectors (zmm0-1 on even steps, zmm2-3 on odd ones), then the 12 rows.
#define TILE_STEP(step, b0, b1)                                                                            \
  "vmovaps " #step "*128(%[b]), %%zmm" #b0 "\n\t"                                                       \
  "vmovaps " #step "*128+64(%[b]), %%zmm" #b1 "\n\t"                                                    \
  TILE_ROW(step, 0, b0, b1, 4, 8, 9) TILE_ROW(step, 1, b0, b1, 5, 10, 11) TILE_ROW(step, 2, b0, b1, 4, 12, 13) \
  TILE_ROW(step, 3, b0, b1, 5, 14, 15) TILE_ROW(step, 4, b0, b1, 4, 16, 17)                                  \
  TILE_ROW(step, 5, b0, b1, 5, 18, 19) TILE_ROW(step, 6, b0, b1, 4, 20, 21)                                  \
  TILE_ROW(step, 7, b0, b1, 5, 22, 23) TILE_ROW(step, 8, b0, b1, 4, 24, 25)                                  \
  TILE_ROW(step, 9, b0, b1, 5, 26, 27) TILE_ROW(step, 10, b0, b1, 4, 28, 29)                                 \
  TILE_ROW(step, 11, b0, b1, 5, 30, 31)
// A run of trips of four k steps; `label` is a local label number of its own.
#define TILE_TRIPS(trips, label)                                                                   \
  "test %[" #trips "], %[" #trips "]\n\t"                                                        \
  "jz " #label "2f\n\t"                                                                          \
  #label "1:\n\t"                                                                                \
  "prefetcht0 384(%[a])\n\t" TILE_STEP(0, 0, 1) TILE_STEP(1, 2, 3) TILE_STEP(2, 0, 1) TILE_STEP(3, 2, 3) \
  "addq $192, %[a]\n\t"                                                                          \
  "addq $512, %[b]\n\t"                                                                          \
  "decq %[" #trips "]\n\t"                                                                       \
  "jnz " #label "1b\n\t" #label "2:\n\t"
// The tile's row `row` into C at %[row]: + beta C (beta in zmm0) unless beta is 0, then the next row.
#define TILE_STORE_ROW(acc0, acc1, with_beta)                                                        \
  with_beta("vfmadd231ps (%[row]), %%zmm0, %%zmm" #acc0 "\n\t"                                     \
            "vfmadd231ps 64(%[row]), %%zmm0, %%zmm" #acc1 "\n\t")                                  \
  "vmovups %%zmm" #acc0 ", (%[row])\n\t"                                                           \
  "vmovups %%zmm" #acc1 ", 64(%[row])\n\t"                                                         \
  "addq %[ldc_bytes], %[row]\n\t"
#define TILE_WITH(x) x
#define TILE_WITHOUT(x)
#define TILE_STORE_TILE(with_beta)                                                                   \
  TILE_STORE_ROW(8, 9, with_beta) TILE_STORE_ROW(10, 11, with_beta) TILE_STORE_ROW(12, 13, with_beta)    \
  TILE_STORE_ROW(14, 15, with_beta) TILE_STORE_ROW(16, 17, with_beta) TILE_STORE_ROW(18, 19, with_beta) \
  TILE_STORE_ROW(20, 21, with_beta) TILE_STORE_ROW(22, 23, with_beta) TILE_STORE_ROW(24, 25, with_beta) \
  TILE_STORE_ROW(26, 27, with_beta) TILE_STORE_ROW(28, 29, with_beta) TILE_STORE_ROW(30, 31, with_beta)
#define TILE_ZERO(r) "vpxord %%zmm" #r ", %%zmm" #r ", %%zmm" #r "\n\t"

// Every cache line of the tile's rows into L2 (a row need not start on a line).
void prefetch_tile_to_l2(const float* c, std::int64_t ldc) {
  for (int i = 0; i < kMr; ++i) {
    for (int j = 0; j < kNr; j += 16) __builtin_prefetch(c + i * ldc + j, 0, 2);
    __builtin_prefetch(c + i * ldc + kNr - 1, 0, 2);
  }
}

void multiply(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta) {
  // With many threads or a small L1d the block table lets the B micro-panel of this tile take twice L1d
  // (block_sizes.hpp), so the operands' stream would evict the C tile from L1 long before the end: it goes to L2
  // now, whatever beta (the stores need the lines too), and into L1 kPrefetchDepth k steps before the end, between
  // the two runs of trips below.
  prefetch_tile_to_l2(c, ldc);
  const std::int64_t to_l1_at = kc > kPrefetchDepth ? (kc - kPrefetchDepth) / 4 * 4 : 0;
  std::int64_t trips_before = to_l1_at / 4, trips_after = (kc - to_l1_at) / 4, single_steps = kc % 4;
  float* row = c;
  const std::int64_t ldc_bytes = ldc * std::int64_t(sizeof(float));
  const float* row_for_prefetch = c;
  std::int64_t count;
  asm volatile(
      TILE_ZERO(8) TILE_ZERO(9) TILE_ZERO(10) TILE_ZERO(11) TILE_ZERO(12) TILE_ZERO(13) TILE_ZERO(14)
      TILE_ZERO(15) TILE_ZERO(16) TILE_ZERO(17) TILE_ZERO(18) TILE_ZERO(19) TILE_ZERO(20) TILE_ZERO(21)
      TILE_ZERO(22) TILE_ZERO(23) TILE_ZERO(24) TILE_ZERO(25) TILE_ZERO(26) TILE_ZERO(27) TILE_ZERO(28)
      TILE_ZERO(29) TILE_ZERO(30) TILE_ZERO(31)
      // the trips before the C tile goes to L1
      TILE_TRIPS(trips_before, 1)
      // the C tile into L1: bytes 0, 64 and 124 of each of its twelve rows, which cover a row's lines
      "movl $12, %k[count]\n\t"
      "5:\n\t"
      "prefetcht0 (%[pf])\n\t"
      "prefetcht0 64(%[pf])\n\t"
      "prefetcht0 124(%[pf])\n\t"
      "addq %[ldc_bytes], %[pf]\n\t"
      "decl %k[count]\n\t"
      "jnz 5b\n\t"
      // the rest of the trips, then the k steps left over one at a time
      TILE_TRIPS(trips_after, 3)
      "test %[single], %[single]\n\t"
      "jz 42f\n\t"
      "41:\n\t" TILE_STEP(0, 0, 1)
      "addq $48, %[a]\n\t"
      "addq $128, %[b]\n\t"
      "decq %[single]\n\t"
      "jnz 41b\n\t"
      "42:\n\t"
      // C = tile + beta C, C not read when beta is 0
      "vbroadcastss %[beta], %%zmm0\n\t"
      "vxorps %%xmm1, %%xmm1, %%xmm1\n\t"
      "vucomiss %%xmm1, %%xmm0\n\t"
      "jne 6f\n\t"
      "jp 6f\n\t" TILE_STORE_TILE(TILE_WITHOUT)
      "jmp 7f\n\t"
      "6:\n\t" TILE_STORE_TILE(TILE_WITH)
      "7:\n\t"
      : [a] "+r"(a), [b] "+r"(b), [trips_before] "+r"(trips_before), [trips_after] "+r"(trips_after),
        [single] "+r"(single_steps), [row] "+r"(row), [pf] "+r"(row_for_prefetch), [count] "=&r"(count)
      : [ldc_bytes] "r"(ldc_bytes), [beta] "m"(beta)
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
        "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",
        "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "cc", "memory");
}

// The tile's first 16 columns: 12 accumulators and one vector of B a k step, so intrinsics keep every value in a
// register (GCC's trouble was the full tile's 27). An edge panel of 16 columns or fewer (the last of N = 35, 176 or
// 1001) then costs half a full one, where the full kernel spent half its work on the panel's zero padding.
void multiply_half(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta) {
  __m512 acc[kMr];
#pragma GCC unroll 12
  for (int i = 0; i < kMr; ++i) acc[i] = _mm512_setzero_ps();
  for (std::int64_t p = 0; p < kc; ++p, a += kMr, b += kNr) {
    const __m512 b0 = _mm512_load_ps(b);
#pragma GCC unroll 12
    for (int i = 0; i < kMr; ++i) acc[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i]), b0, acc[i]);
  }
  const __m512 beta_v = _mm512_set1_ps(beta);
#pragma GCC unroll 12
  for (int i = 0; i < kMr; ++i) {
    float* row = c + i * ldc;
    _mm512_storeu_ps(row, beta == 0.0f ? acc[i] : _mm512_fmadd_ps(_mm512_loadu_ps(row), beta_v, acc[i]));
  }
}

#undef TILE_ZERO
#undef TILE_STORE_TILE
#undef TILE_WITHOUT
#undef TILE_WITH
#undef TILE_STORE_ROW
#undef TILE_TRIPS
#undef TILE_STEP
#undef TILE_ROW

}  // namespace

const IsaKernel kAvx512Kernel = {kMr, kNr, &multiply, &multiply_half};

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const IsaKernel kAvx512Kernel = {12, 32, nullptr, nullptr};
}  // namespace matcompare::cpu::blis

#endif
