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

  // The KC rule of block_sizes.hpp gives a tile of 12 rows or more a B micro-panel of twice L1d, whose stream would
  // evict the C tile from L1 before the end; that tile (microkernel_avx512.cpp) moves C into L1 late instead.
  static_assert(MR < 12, "this kernel keeps its C tile in L1 from the start: B's micro-panel must fit beside it");

  // Every cache line of the tile's rows (a row need not start on a line). Not unrolled: unrolled, GCC 12 computed the
  // row addresses once and kept them through the k loop, and the 6x16 kernel, whose 12 accumulators, 2 rows of B and
  // a broadcast take 15 of 16 registers, spilled two accumulators there.
  static inline __attribute__((always_inline)) void prefetch_tile(const float* c, std::int64_t ldc) {
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; j += 16) __builtin_prefetch(c + i * ldc + j, 0, 3);
      __builtin_prefetch(c + i * ldc + NR - 1, 0, 3);
    }
  }

  static void multiply(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta) {
    Vec acc[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[i][v] = Isa::zero();

    // The C tile (MR rows, ldc apart) is read only at the end; B takes half of L1d here, so the tile goes to L1 now
    // and stays there.
    if (beta != 0.0f) prefetch_tile(c, ldc);

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
