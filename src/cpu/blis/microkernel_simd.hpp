#pragma once
// The register micro-kernel of the BLIS-style CPU GEMM for any vector ISA: an MR x NR tile of C held in
// MR x NR/lanes vector accumulators across the whole KC loop, one broadcast of A and NR/lanes loads of B per
// k step. Included only by the files that instantiate it for one ISA, each compiled for that ISA.
#include <immintrin.h>

#include <cstdint>

namespace matcompare::cpu::blis::simd {

// Isa: Vec, kLanes, zero(), broadcast(const float*), load(const float*) (aligned), loadu, storeu, fmadd(a, b, c).
template <class Isa, int MR, int NR>
struct Tile {
  static constexpr int NV = NR / Isa::kLanes;  // vectors per row of the tile
  static_assert(NR % Isa::kLanes == 0, "NR is a whole number of vectors");
  using Vec = typename Isa::Vec;

  // One k step, unrolled so the accumulators stay in registers.
  static inline __attribute__((always_inline)) void rank1(const float* a, const float* b, Vec (&acc)[MR][NV]) {
    Vec bv[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) bv[v] = Isa::load(b + Isa::kLanes * v);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const Vec ai = Isa::broadcast(a + i);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[i][v] = Isa::fmadd(ai, bv[v], acc[i][v]);
    }
  }

  static constexpr bool kBFillsL1 = MR >= 12;  // the KC rule of block_sizes.hpp gives B twice L1d, else half
  static constexpr std::int64_t kPrefetchDepth = 32;  // k steps before the end at which C goes to L1

  // Every cache line of the tile's rows (a row need not start on a line); kLocality 3 is L1, 2 is L2. Not unrolled:
  // unrolled, GCC 12 computed the row addresses once and kept them through the k loop, and the 6x16 kernel, whose
  // 12 accumulators, 2 rows of B and a broadcast take 15 of 16 registers, spilled two accumulators there.
  template <int kLocality>
  static inline __attribute__((always_inline)) void prefetch_tile(const float* c, std::int64_t ldc) {
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; j += 16) __builtin_prefetch(c + i * ldc + j, 0, kLocality);
      __builtin_prefetch(c + i * ldc + NR - 1, 0, kLocality);
    }
  }

  static void multiply(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta) {
    Vec acc[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[i][v] = Isa::zero();

    // The C tile (MR rows, ldc apart) is read and written only at the end. Where the block table lets the B
    // micro-panel fill L1d and more (a 12-row tile, block_sizes.hpp), B's stream would evict the tile from L1 long
    // before the end: it goes to L2 now, whatever beta (the stores need the lines too), and into L1 kPrefetchDepth
    // k steps before the end. Where B takes half of L1d (a 6-row tile), it goes to L1 now and stays there.
    if constexpr (kBFillsL1)
      prefetch_tile<2>(c, ldc);
    else if (beta != 0.0f)
      prefetch_tile<3>(c, ldc);
    const std::int64_t to_l1_at = kc > kPrefetchDepth ? (kc - kPrefetchDepth) / 4 * 4 : 0;

    std::int64_t p = 0;
    for (; p + 4 <= kc; p += 4) {
      if (kBFillsL1 && p == to_l1_at) prefetch_tile<3>(c, ldc);
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

    const Vec scale = Isa::broadcast(&beta);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) {
        float* cp = c + i * ldc + Isa::kLanes * v;
        Isa::storeu(cp, beta == 0.0f ? acc[i][v] : Isa::fmadd(scale, Isa::loadu(cp), acc[i][v]));
      }
  }
};

}  // namespace matcompare::cpu::blis::simd
