#pragma once
// The warp-specialized TF32 kernel (tensor_core_tf32_ws.cu) as an engine that 3xTF32 drives with split operands.
#include <cstddef>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

// Rows of C per block tile; the split A of 3xTF32 rounds its row count up to it.
constexpr int kTf32PassRows = 256;

// passes == 1: C = alpha A B + beta C in TF32, A being `a` (a_rows x g.k_padded, lda apart) and B g.b.
// passes == 3: `a` holds small TF32 parts of A in rows [0, big_a_rows) and big parts from big_a_rows on; the
// result is big(A)big(B) + big(A)small(B) + small(A)big(B), FP32-accurate.
void launch_tf32_passes(const DeviceGemm& g, const char* step, const float* a, int a_rows, int lda, int passes,
                        int big_a_rows);

// Device scratch of gpu/tensor-core-3xtf32: A's small and big parts, rows rounded up to kTf32PassRows, the
// columns to the default padding of K (a multiple of 4).
inline std::size_t split_a_rows(const GemmShape& s) {
  return std::size_t((s.m + kTf32PassRows - 1) / kTf32PassRows * kTf32PassRows);
}
inline std::size_t split_a_scratch_bytes(const GemmShape& s) {
  return 2 * split_a_rows(s) * std::size_t((s.k + 3) / 4 * 4) * sizeof(float);
}

}  // namespace matcompare::gpu
