#pragma once
// The warp-specialized TF32 kernel (tensor_core_tf32_ws.cu) as an engine that 3xTF32 drives with split operands.
#include <cstddef>
#include <cstdint>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

// The most rows of C a block tile has; the split A of 3xTF32 rounds its row count up to it.
constexpr int kTf32PassRows = 256;

// A block tile of the engine: rows of C (the wgmma N; A arrives by TMA) by columns of C (B, through registers).
struct Tf32Tile {
  int rows, cols;
};
inline constexpr Tf32Tile kTf32Tiles[] = {{256, 128}, {128, 256}, {128, 128}};

// The persistent grid walks the tiles in waves of sm_count, and a wave takes as long full or not: the tile with
// the least waves x area wins, the first on a tie. A 128 x 128 tile moves a third more bytes through L2 per FLOP
// than the others and counts 10% dearer (bench/NOTES.md, "Tile shapes chosen by waves").
inline Tf32Tile tf32_tile_choice(const GemmShape& s, int sm_count) {
  Tf32Tile best{};
  double best_cost = 0;
  for (const Tf32Tile& t : kTf32Tiles) {
    const std::int64_t tiles = (s.m + t.rows - 1) / t.rows * ((s.n + t.cols - 1) / t.cols);
    const std::int64_t waves = (tiles + sm_count - 1) / sm_count;
    const double cost = double(waves) * t.rows * t.cols * (t.rows * t.cols < 256 * 128 ? 1.1 : 1.0);
    if (best.rows == 0 || cost < best_cost) best = t, best_cost = cost;
  }
  return best;
}

// The tile is tf32_tile_choice's unless MATCOMPARE_TF32_TILE names one of kTf32Tiles ("128x256").
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
