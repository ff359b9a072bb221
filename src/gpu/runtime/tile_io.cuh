#pragma once
// The data movement the steps of the 000/001 ladder share, and the fast paths built on them (simt/, hopper/'s
// warp-specialized engine) reuse: guarded float4 tile loads with zero fill, the transposed store of an A tile,
// cp.async copies and the alpha/beta epilogue. It lives here so that each step file shows only what its step
// teaches (its layout and compute loop). Everything is force-inlined and keeps the arithmetic the steps had
// written out, so the generated code is what it was.
#include <cstddef>

#include "device_gemm.cuh"

namespace matcompare::gpu {

// The layout guarantees every float4 these are given is 16-byte aligned (see GpuKernelSpec).
__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }
__device__ __forceinline__ void store4(float* p, const float4& v) { *reinterpret_cast<float4*>(p) = v; }

__device__ __forceinline__ void unpack4(const float4& v, float* dst) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// The float4 that thread slot `slot` moves from a tile of A: rows block_row.., columns k0.., kBK columns wide.
// kBK / 4 consecutive slots share a row, so a warp reads consecutive rows in whole pieces (32-byte sectors at kBK = 8).
template <int kBK>
struct ATileFloat4 {
  static_assert(kBK % 4 == 0, "a tile row is whole float4s");
  int r, c;          // where the float4 sits in the tile
  bool row_in;       // rows past m do not exist (m_padded == m with the default spec)
  const float* src;  // row 0 stands in for a missing row: a valid address that is never read

  __device__ __forceinline__ ATileFloat4(const float* a, int lda, int m, int block_row, int slot)
      : r(slot / (kBK / 4)),
        c(slot % (kBK / 4) * 4),
        row_in(block_row + r < m),
        src(a + std::size_t(row_in ? block_row + r : 0) * lda + c) {}

  // k_padded is a multiple of 4, so a float4 that starts inside it lies wholly inside; what lies outside
  // the matrix is returned as 0 and adds nothing.
  __device__ __forceinline__ float4 load(int k0, int k_padded) const {
    return row_in && k0 + c < k_padded ? load4(src + k0) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
};

// The float4 that thread slot `slot` moves from a tile of B: rows k0.., columns block_col.., kBN columns wide.
// kBN / 4 consecutive slots cover a row, so a warp reads contiguous segments of whole rows.
template <int kBN>
struct BTileFloat4 {
  static_assert(kBN % 4 == 0, "a tile row is whole float4s");
  int r, c;
  bool col_in;  // n_padded is a multiple of 4: a float4 that starts below n ends inside the row
  const float* src;
  int ldb;

  __device__ __forceinline__ BTileFloat4(const float* b, int ldb, int n, int block_col, int slot)
      : r(slot / (kBN / 4)),
        c(slot % (kBN / 4) * 4),
        col_in(block_col + c < n),
        src(b + std::size_t(r) * ldb + (block_col + c)),
        ldb(ldb) {}

  // Rows past k_padded do not exist and are returned as 0.
  __device__ __forceinline__ bool in_range(int k0, int k_padded) const { return k0 + r < k_padded && col_in; }
  __device__ __forceinline__ float4 load(int k0, int k_padded) const {
    return in_range(k0, k_padded) ? load4(src + std::size_t(k0) * ldb) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
};

// Writes a float4 of A (row r, columns c..c+3 of the tile) into a tile stored transposed, [k][m]: the A values
// of one k then form a row, which the compute loop reads as float4s. Four scalar stores, one per k.
template <int kBK, int kLd>
__device__ __forceinline__ void store_transposed4(float (&as)[kBK][kLd], int r, int c, const float4& v) {
  as[c + 0][r] = v.x;
  as[c + 1][r] = v.y;
  as[c + 2][r] = v.z;
  as[c + 3][r] = v.w;
}

// 16 bytes global -> shared without passing through registers, so a prefetched tile costs no registers.
// When !in_range nothing is read (src only has to be a valid address) and the 16 bytes are filled with zeros.
__device__ __forceinline__ void copy16_async(float* dst, const float* src, bool in_range) {
  const unsigned dst_addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int src_bytes = in_range ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_addr), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Only this thread's copies are waited for: a __syncthreads() must follow before others read them.
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }
// Waits until at most kPending of this thread's most recent commit groups are still in flight.
template <int kPending>
__device__ __forceinline__ void wait_copies_but() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// The scale_output rule for 4 adjacent outputs; C is not read when beta == 0.
__device__ __forceinline__ void store_scaled4(float alpha, float beta, const float4& dot, float* out) {
  float4 r = make_float4(alpha * dot.x, alpha * dot.y, alpha * dot.z, alpha * dot.w);
  if (beta != 0.0f) {
    const float4 old = load4(out);
    r.x += beta * old.x;
    r.y += beta * old.y;
    r.z += beta * old.z;
    r.w += beta * old.w;
  }
  store4(out, r);
}

// C as the epilogue sees it. Rows >= m do not exist and are never written. A float4 is written when its first
// column is < n: n_padded is a multiple of 4, so it then ends inside the row (padding columns may be written).
// put and put4 check both bounds. Loops over a thread's rows (put_blocks among them) still skip rows >= m
// themselves: one branch per row instead of per float4 is the code the steps were measured with (ptxas
// allocates the main loop differently otherwise), and the repeated check folds away.
struct ScaledOutput {
  float* c;
  int ldc, m, n;
  float alpha, beta;

  __device__ __forceinline__ void put(int row, int col, float dot) const {
    if (row < m && col < n) {
      float* out = c + std::size_t(row) * ldc + col;
      *out = scale_output(alpha, beta, dot, out);
    }
  }
  __device__ __forceinline__ void put4(int row, int col, const float4& dot) const {
    if (row < m && col < n) store_scaled4(alpha, beta, dot, c + std::size_t(row) * ldc + col);
  }
  // dot[0..3] are the 4 outputs from column col on.
  __device__ __forceinline__ void put4(int row, int col, const float* dot) const {
    put4(row, col, make_float4(dot[0], dot[1], dot[2], dot[3]));
  }

  // A thread's results as a grid of 4x4 blocks: acc[i][j] goes to row row0 + i%4 + (i/4)*row_step and column
  // col0 + j%4 + (j/4)*col_step; steps of 4 make the blocks one contiguous tile.
  template <int kTM, int kTN>
  __device__ __forceinline__ void put_blocks(const float (&acc)[kTM][kTN], int row0, int row_step, int col0,
                                             int col_step) const {
    static_assert(kTM % 4 == 0 && kTN % 4 == 0, "whole 4x4 blocks");
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
      const int row = row0 + i % 4 + i / 4 * row_step;
      if (row >= m) continue;
#pragma unroll
      for (int j = 0; j < kTN; j += 4) put4(row, col0 + j / 4 * col_step, &acc[i][j]);
    }
  }
};

// C^T as the epilogue of a product turned around sees it: the kernel computes C' = C^T (m × n here: C's columns by
// its rows), and its element (row, col) is C's (col, row), written through the ScaledOutput of C itself (n × m). A
// float4 of C' along a row is four rows of C, written one by one; put_blocks writes each column of a 4x4 block as one
// float4 of a row of C (its 4 rows are consecutive there: row0 and row_step are multiples of 4).
struct TransposedScaledOutput {
  ScaledOutput c_out;

  __device__ __forceinline__ TransposedScaledOutput(float* c, int ldc, int m, int n, float alpha, float beta)
      : c_out{c, ldc, n, m, alpha, beta} {}

  __device__ __forceinline__ void put(int row, int col, float dot) const { c_out.put(col, row, dot); }
  __device__ __forceinline__ void put4(int row, int col, const float4& dot) const {
    put(row, col, dot.x);
    put(row, col + 1, dot.y);
    put(row, col + 2, dot.z);
    put(row, col + 3, dot.w);
  }

  template <int kTM, int kTN>
  __device__ __forceinline__ void put_blocks(const float (&acc)[kTM][kTN], int row0, int row_step, int col0,
                                             int col_step) const {
    static_assert(kTM % 4 == 0 && kTN % 4 == 0, "whole 4x4 blocks");
#pragma unroll
    for (int i = 0; i < kTM; i += 4) {
      const int row = row0 + i / 4 * row_step;
      if (row >= c_out.n) continue;
#pragma unroll
      for (int j = 0; j < kTN; ++j)
        c_out.put4(col0 + j % 4 + j / 4 * col_step, row,
                   make_float4(acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]));
    }
  }
};

}  // namespace matcompare::gpu
