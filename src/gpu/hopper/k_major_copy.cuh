#pragma once
// An operand stored K by M or K by N made K-major for the TF32 engine, whose TMA reads its operands' rows along K:
// A stored transposed (layouts TN and TT) for both TF32 rows, and B stored as it is (layouts NN and TN) for
// gpu/tensor-core-3xtf32, which reads B from shared memory too. The copy is part of the timed
// computation, as packing is on the CPU. One part (TF32) or two (3xTF32's small and big).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../runtime/device_gemm.cuh"

namespace matcompare::gpu {

// x rounded to TF32 as cvt.rna rounds: to nearest, ties away from zero.
__device__ __forceinline__ float round_to_tf32(float x) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

// Where gpu/tensor-core-3xtf32 keeps B^T's row r (C's column r) in its split B: in each group of 16 rows, the even
// rows first, then the odd ones. A warp's wgmma accumulators hold rows g and g + 8 of each 16 (PTX's accumulator
// fragment), which this order makes C's columns 2g and 2g + 1: one 8-byte store, as the register-fragment kernels
// get by choosing their fragments' rows. Rows stay in their group, so a split of rows a multiple of 16 keeps them.
__host__ __device__ constexpr int paired_row(int r) { return r - r % 16 + r % 2 * 8 + r % 16 / 2; }

// out (dense, rows x k_padded per part): row r, column k holds the source's element (r, k), stored at src[k * ld +
// r], rows from src_rows on zero; kPaired: at row paired_row(r) instead. kParts == 1: the value rounded to TF32.
// kParts == 2: the small part tf32(x - tf32(x)) in rows [0, rows) and the big part tf32(x) in rows [rows, 2 rows),
// as split_k_major (tensor_core_3xtf32.cu) writes them from an operand stored K-major. A 32x32 tile goes through
// shared memory, its rows padded by one word, so that reads and writes are both whole rows.
template <int kParts, bool kPaired>
__global__ void k_major_copy(const float* __restrict__ src, int ld, int src_rows, int rows, int k_padded,
                             float* __restrict__ out) {
  static_assert(kParts == 1 || kParts == 2, "one part (TF32) or two (3xTF32's small and big)");
  __shared__ float tile[32][33];
  const int r0 = blockIdx.x * 32, tx = threadIdx.x;
  for (int k0 = blockIdx.y * 32; k0 < k_padded; k0 += gridDim.y * 32) {
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int k = k0 + i, r = r0 + tx;
      tile[i][tx] = r < src_rows && k < k_padded ? src[std::size_t(k) * ld + r] : 0.0f;
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int r = r0 + i, k = k0 + tx;
      if (r >= rows || k >= k_padded) continue;
      const std::size_t row = kPaired ? paired_row(r) : r;
      const float x = tile[tx][i], big = round_to_tf32(x);
      if (kParts == 1) {
        out[row * k_padded + k] = big;
      } else {
        out[row * k_padded + k] = round_to_tf32(x - big);
        out[(std::size_t(rows) + row) * k_padded + k] = big;
      }
    }
    __syncthreads();  // the tile is rewritten for the next k block
  }
}

// src (K padded x src_rows, rows ld apart) into out as k_major_copy writes it, `rows` rows per part.
template <int kParts, bool kPaired>
void launch_k_major_copy(const DeviceGemm& g, const float* src, int ld, int src_rows, int rows, float* out) {
  const dim3 grid(ceil_div(rows, 32), unsigned(std::min(ceil_div(g.k_padded, 32), 65535u)));
  k_major_copy<kParts, kPaired><<<grid, dim3(32, 8), 0, g.stream>>>(src, ld, src_rows, rows, g.k_padded, out);
  MC_CHECK_LAUNCH();
}

// A stored transposed, K-major, rows in order.
template <int kParts>
void launch_k_major_a(const DeviceGemm& g, int rows, float* out) {
  launch_k_major_copy<kParts, false>(g, g.a, g.lda, g.m, rows, out);
}

}  // namespace matcompare::gpu
