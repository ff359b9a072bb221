// Packing for the BLIS-style CPU GEMM (the project's step beyond the seeds, after seed 003's
// packing): copies blocks of A and B into the contiguous micro-panel order the micro-kernel reads,
// zero-padding partial panels; alpha is folded into A here, so the epilogue only applies beta.
#include "packing.hpp"

#include <algorithm>

namespace matcompare::cpu::blis {

namespace {

// One micro-panel of A: packed[p*mr + i] = alpha * A(i, p), zero for i >= rows.
void pack_a_panel(int mr, std::int64_t rows, std::int64_t kc, const float* a, std::int64_t lda, float alpha,
                  float* packed) {
  for (std::int64_t p = 0; p < kc; ++p) {
    for (std::int64_t i = 0; i < rows; ++i) packed[p * mr + i] = alpha * a[i * lda + p];
    for (std::int64_t i = rows; i < mr; ++i) packed[p * mr + i] = 0.0f;
  }
}

// The same for a whole panel of a register tile's MR rows, known when compiling: the rows unrolled, each read
// along p as its own stream, the panel written in order.
template <int MR>
void pack_a_full_panel(std::int64_t kc, const float* a, std::int64_t lda, float alpha, float* packed) {
  for (std::int64_t p = 0; p < kc; ++p) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) packed[p * MR + i] = alpha * a[i * lda + p];
  }
}

// A whole panel of B's NR columns, NR known when compiling: each row one fixed-size copy.
template <int NR>
void pack_b_full_panel(std::int64_t kc, const float* b, std::int64_t ldb, float* packed) {
  for (std::int64_t p = 0; p < kc; ++p) std::copy(b + p * ldb, b + p * ldb + NR, packed + p * NR);
}

}  // namespace

void pack_a_block(int mr, std::int64_t mc, std::int64_t kc, const float* a, std::int64_t lda, float alpha,
                  float* packed) {
  for (std::int64_t ir = 0; ir < mc; ir += mr) {
    const std::int64_t rows = std::min<std::int64_t>(mr, mc - ir);
    if (rows == 12 && mr == 12)
      pack_a_full_panel<12>(kc, a + ir * lda, lda, alpha, packed + ir * kc);
    else if (rows == 6 && mr == 6)
      pack_a_full_panel<6>(kc, a + ir * lda, lda, alpha, packed + ir * kc);
    else
      pack_a_panel(mr, rows, kc, a + ir * lda, lda, alpha, packed + ir * kc);
  }
}

void pack_b_panel(int nr, std::int64_t kc, std::int64_t cols, const float* b, std::int64_t ldb, float* packed) {
  if (cols == 32 && nr == 32) return pack_b_full_panel<32>(kc, b, ldb, packed);
  if (cols == 16 && nr == 16) return pack_b_full_panel<16>(kc, b, ldb, packed);
  for (std::int64_t p = 0; p < kc; ++p) {
    std::copy(b + p * ldb, b + p * ldb + cols, packed + p * nr);
    std::fill(packed + p * nr + cols, packed + (p + 1) * nr, 0.0f);
  }
}

}  // namespace matcompare::cpu::blis
