#pragma once
// Packing for the BLIS-style CPU GEMM (the project's step beyond the seeds, after seed 003's
// packing): A blocks into MR-row micro-panels (alpha folded in), B blocks into NR-column ones, for the
// register tile (mr x nr) of the micro-kernel in use.
#include <cstdint>

namespace matcompare::cpu::blis {

// Packs the mc x kc block of op(A) starting at `a` into ceil(mc/mr) micro-panels of mr rows, each stored k-major (mr
// floats per k), scaled by alpha. Rows past mc in the last panel are zero, so the micro-kernel always runs a full
// tile. op(A) is A (row-major, row stride lda), or where `transposed` the transpose of a row-major K×M A: element
// (i, p) at a[p*lda + i], so a k step's mr floats are contiguous and the packing is a scaled copy.
void pack_a_block(int mr, std::int64_t mc, std::int64_t kc, const float* a, std::int64_t lda, bool transposed,
                  float alpha, float* packed);

// Packs the kc x nc block of op(B) at `b` into ceil(nc/nr) micro-panels of nr columns, each stored as kc rows of nr
// floats, one after another; columns past nc in the last panel are zero. op(B) is B (row-major, row stride ldb), or
// where `transposed` the transpose of a row-major N×K B: element (p, j) at b[j*ldb + p].
void pack_b_block(int nr, std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, bool transposed,
                  float* packed);

}  // namespace matcompare::cpu::blis
