#pragma once
// Packing for the BLIS-style CPU GEMM (the project's step beyond the seeds, after seed 003's
// packing): A blocks into MR-row micro-panels (alpha folded in), B blocks into NR-column ones.
#include <cstdint>

namespace matcompare::cpu::blis {

// Packs the mc x kc block of row-major A starting at `a` (row stride lda) into ceil(mc/MR)
// micro-panels of MR rows, each stored k-major (MR floats per k), scaled by alpha. Rows past mc
// in the last panel are zero, so the micro-kernel always runs a full MR x NR tile.
void pack_a_block(std::int64_t mc, std::int64_t kc, const float* a, std::int64_t lda, float alpha,
                  float* packed);

// Packs one NR-column micro-panel: the kc x nr (nr <= NR) block of row-major B at `b` (row stride
// ldb) into kc rows of NR floats; columns past nr are zero.
void pack_b_panel(std::int64_t kc, std::int64_t nr, const float* b, std::int64_t ldb, float* packed);

// Packs the kc x nc block of B (all its micro-panels, one after another, KC*NR floats apart at
// stride kc*NR). The OpenMP loop in loops.cpp calls pack_b_panel directly to share this work.
void pack_b_block(std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, float* packed);

}  // namespace matcompare::cpu::blis
