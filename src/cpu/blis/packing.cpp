// Packing for the BLIS-style CPU GEMM (the project's step beyond the seeds, after seed 003's
// packing): copies blocks of A and B into the contiguous micro-panel order the micro-kernel reads,
// zero-padding partial panels; alpha is folded into A here, so the epilogue only applies beta.
#include "packing.hpp"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

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

// The same for a whole panel of a register tile's MR rows, known when compiling: each row read along p as its own
// stream, the panel written in order. Where SSE is there (every x86-64), four k steps at a time: each four rows make a
// 4 x 4 block of A, transposed in registers, so a k step's floats leave in one store where one at a time took twelve
// strided loads and twelve stores a k step.
template <int MR>
void pack_a_full_panel(std::int64_t kc, const float* a, std::int64_t lda, float alpha, float* packed) {
  std::int64_t p = 0;
#if defined(__SSE2__)
  constexpr int kGrouped = MR / 4 * 4;
  const __m128 scale = _mm_set1_ps(alpha);
  for (; p + 4 <= kc; p += 4) {
#pragma GCC unroll 4
    for (int g = 0; g < kGrouped; g += 4) {
      __m128 k0 = _mm_loadu_ps(a + (g + 0) * lda + p), k1 = _mm_loadu_ps(a + (g + 1) * lda + p);
      __m128 k2 = _mm_loadu_ps(a + (g + 2) * lda + p), k3 = _mm_loadu_ps(a + (g + 3) * lda + p);
      _MM_TRANSPOSE4_PS(k0, k1, k2, k3);
      _mm_storeu_ps(packed + (p + 0) * MR + g, _mm_mul_ps(scale, k0));
      _mm_storeu_ps(packed + (p + 1) * MR + g, _mm_mul_ps(scale, k1));
      _mm_storeu_ps(packed + (p + 2) * MR + g, _mm_mul_ps(scale, k2));
      _mm_storeu_ps(packed + (p + 3) * MR + g, _mm_mul_ps(scale, k3));
    }
    for (int i = kGrouped; i < MR; ++i)
      for (int q = 0; q < 4; ++q) packed[(p + q) * MR + i] = alpha * a[i * lda + p + q];
  }
#endif
  for (; p < kc; ++p) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) packed[p * MR + i] = alpha * a[i * lda + p];
  }
}

// Rows [p0, p1) of B's full NR-column panels, NR known when compiling: panel by panel, each panel's slice of those
// rows being contiguous in the packed block, with one fixed-size copy a row, which the compiler writes as vector moves
// in place (a std::copy a row became a call to memmove every 128 bytes).
template <int NR>
void copy_rows_to_panels(std::int64_t p0, std::int64_t p1, std::int64_t panels, const float* b, std::int64_t ldb,
                         float* packed, std::int64_t panel_floats) {
  for (std::int64_t j = 0; j < panels; ++j)
    for (std::int64_t p = p0; p < p1; ++p)
      std::memcpy(packed + j * panel_floats + p * NR, b + p * ldb + j * NR, NR * sizeof(float));
}

// One micro-panel of a transposed A (element (i, p) at a[p*lda + i]): each k step's rows are contiguous already.
void pack_transposed_a_panel(int mr, std::int64_t rows, std::int64_t kc, const float* a, std::int64_t lda,
                             float alpha, float* packed) {
  for (std::int64_t p = 0; p < kc; ++p) {
    const float* column = a + p * lda;
    for (std::int64_t i = 0; i < rows; ++i) packed[p * mr + i] = alpha * column[i];
    for (std::int64_t i = rows; i < mr; ++i) packed[p * mr + i] = 0.0f;
  }
}

// The panels of a transposed B (element (p, j) at b[j*ldb + p]): each of a panel's columns is a contiguous run of B.
// Four columns and four k steps at a time make a 4 x 4 block, transposed in registers (as A's panels are packed), so
// a k step's four floats leave in one store; one float at a time, strided, cost cpu/blis 7-10% at 2048 (bench/NOTES.md,
// "Layouts on the CPU"). Columns past nc are zero.
void pack_transposed_b(int nr, std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, float* packed) {
  const std::int64_t panel_floats = kc * nr;
  for (std::int64_t j0 = 0; j0 < nc; j0 += nr) {
    float* panel = packed + j0 / nr * panel_floats;
    const std::int64_t cols = std::min<std::int64_t>(nr, nc - j0);
    std::int64_t j = 0;
#if defined(__SSE2__)
    const std::int64_t k4 = kc / 4 * 4;
    for (; j + 4 <= cols; j += 4) {
      const float* c0 = b + (j0 + j) * ldb;
      for (std::int64_t p = 0; p < k4; p += 4) {
        __m128 r0 = _mm_loadu_ps(c0 + p), r1 = _mm_loadu_ps(c0 + ldb + p);
        __m128 r2 = _mm_loadu_ps(c0 + 2 * ldb + p), r3 = _mm_loadu_ps(c0 + 3 * ldb + p);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        _mm_storeu_ps(panel + (p + 0) * nr + j, r0);
        _mm_storeu_ps(panel + (p + 1) * nr + j, r1);
        _mm_storeu_ps(panel + (p + 2) * nr + j, r2);
        _mm_storeu_ps(panel + (p + 3) * nr + j, r3);
      }
      for (std::int64_t p = k4; p < kc; ++p)
        for (int q = 0; q < 4; ++q) panel[p * nr + j + q] = c0[q * ldb + p];
    }
#endif
    for (; j < cols; ++j) {
      const float* column = b + (j0 + j) * ldb;
      for (std::int64_t p = 0; p < kc; ++p) panel[p * nr + j] = column[p];
    }
    for (j = cols; j < nr; ++j)
      for (std::int64_t p = 0; p < kc; ++p) panel[p * nr + j] = 0.0f;
  }
}

}  // namespace

void pack_a_block(int mr, std::int64_t mc, std::int64_t kc, const float* a, std::int64_t lda, bool transposed,
                  float alpha, float* packed) {
  if (transposed) {
    for (std::int64_t ir = 0; ir < mc; ir += mr)
      pack_transposed_a_panel(mr, std::min<std::int64_t>(mr, mc - ir), kc, a + ir, lda, alpha, packed + ir * kc);
    return;
  }
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

void pack_b_block(int nr, std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, bool transposed,
                  float* packed) {
  if (transposed) {
    pack_transposed_b(nr, kc, nc, b, ldb, packed);
    return;
  }
  const std::int64_t full = nc / nr, rest = nc - full * nr, panel_floats = kc * nr;
  // kRowGroup rows at a time, panel by panel: the writes go to one place at a time while the rows are read as
  // streams. Row by row across all panels wrote each row to every panel, 96 KiB apart (KC 768), and read about half
  // as fast; a panel at a time read 128 bytes from each of kc rows, a new page each, which no hardware prefetcher
  // follows (bench/NOTES.md, "Where one Xeon thread goes").
  constexpr std::int64_t kRowGroup = 16;
  for (std::int64_t p0 = 0; p0 < kc; p0 += kRowGroup) {
    const std::int64_t p1 = std::min(kc, p0 + kRowGroup);
    if (nr == 32)
      copy_rows_to_panels<32>(p0, p1, full, b, ldb, packed, panel_floats);
    else if (nr == 16)
      copy_rows_to_panels<16>(p0, p1, full, b, ldb, packed, panel_floats);
    else
      for (std::int64_t j = 0; j < full; ++j)
        for (std::int64_t p = p0; p < p1; ++p)
          std::copy(b + p * ldb + j * nr, b + p * ldb + (j + 1) * nr, packed + j * panel_floats + p * nr);
    if (rest > 0)
      for (std::int64_t p = p0; p < p1; ++p) {
        float* last = packed + full * panel_floats + p * nr;
        std::copy(b + p * ldb + full * nr, b + p * ldb + nc, last);
        std::fill(last + rest, last + nr, 0.0f);
      }
  }
}

}  // namespace matcompare::cpu::blis
