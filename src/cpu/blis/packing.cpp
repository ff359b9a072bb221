// Packing for the BLIS-style CPU GEMM (the project's step beyond the seeds, after seed 003's
// packing): copies blocks of A and B into the contiguous micro-panel order the micro-kernel reads,
// zero-padding partial panels; alpha is folded into A here, so the epilogue only applies beta.
#include "packing.hpp"

#include <algorithm>

#include "block_sizes.hpp"

namespace matcompare::cpu::blis {

namespace {

// One MR-row micro-panel: packed[p*MR + i] = alpha * A(i, p), zero for i >= rows.
void pack_a_panel(std::int64_t rows, std::int64_t kc, const float* a, std::int64_t lda, float alpha,
                  float* packed) {
  if (rows == MR) {
    const float* row[MR];
    for (int i = 0; i < MR; ++i) row[i] = a + i * lda;
    for (std::int64_t p = 0; p < kc; ++p)
      for (int i = 0; i < MR; ++i) packed[p * MR + i] = alpha * row[i][p];
    return;
  }
  for (std::int64_t p = 0; p < kc; ++p) {
    for (std::int64_t i = 0; i < rows; ++i) packed[p * MR + i] = alpha * a[i * lda + p];
    for (std::int64_t i = rows; i < MR; ++i) packed[p * MR + i] = 0.0f;
  }
}

}  // namespace

void pack_a_block(std::int64_t mc, std::int64_t kc, const float* a, std::int64_t lda, float alpha,
                  float* packed) {
  for (std::int64_t ir = 0; ir < mc; ir += MR)
    pack_a_panel(std::min<std::int64_t>(MR, mc - ir), kc, a + ir * lda, lda, alpha, packed + ir * kc);
}

void pack_b_panel(std::int64_t kc, std::int64_t nr, const float* b, std::int64_t ldb, float* packed) {
  if (nr == NR) {
    for (std::int64_t p = 0; p < kc; ++p) std::copy(b + p * ldb, b + p * ldb + NR, packed + p * NR);
    return;
  }
  for (std::int64_t p = 0; p < kc; ++p) {
    std::copy(b + p * ldb, b + p * ldb + nr, packed + p * NR);
    std::fill(packed + p * NR + nr, packed + (p + 1) * NR, 0.0f);
  }
}

void pack_b_block(std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, float* packed) {
  for (std::int64_t jr = 0; jr < nc; jr += NR)
    pack_b_panel(kc, std::min<std::int64_t>(NR, nc - jr), b + jr, ldb, packed + jr * kc);
}

}  // namespace matcompare::cpu::blis
