#pragma once
// A stored transposed (K×M, layouts TN and TT) made K-major for the TF32 engine, whose TMA reads A's rows along K:
// the copy is part of the timed computation, as packing is on the CPU. Shared by gpu/tensor-core-tf32-ws (one part)
// and gpu/tensor-core-3xtf32 (its small and big parts).
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

// out (dense, rows x k_padded per part): row r, column k holds A's element (r, k), stored at a_t[k * lda + r], rows
// from m on zero. kParts == 1: the value rounded to TF32. kParts == 2: the small part tf32(x - tf32(x)) in rows
// [0, rows) and the big part tf32(x) in rows [rows, 2 rows), as split_a writes them from an untransposed A. A 32x32
// tile goes through shared memory, its rows padded by one word, so that reads and writes are both whole rows.
template <int kParts>
__global__ void k_major_a(const float* __restrict__ a_t, int lda, int m, int rows, int k_padded,
                          float* __restrict__ out) {
  static_assert(kParts == 1 || kParts == 2, "one part (TF32) or two (3xTF32's small and big)");
  __shared__ float tile[32][33];
  const int r0 = blockIdx.x * 32, tx = threadIdx.x;
  for (int k0 = blockIdx.y * 32; k0 < k_padded; k0 += gridDim.y * 32) {
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int k = k0 + i, r = r0 + tx;
      tile[i][tx] = r < m && k < k_padded ? a_t[std::size_t(k) * lda + r] : 0.0f;
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int r = r0 + i, k = k0 + tx;
      if (r >= rows || k >= k_padded) continue;
      const float x = tile[tx][i], big = round_to_tf32(x);
      if (kParts == 1) {
        out[std::size_t(r) * k_padded + k] = big;
      } else {
        out[std::size_t(r) * k_padded + k] = round_to_tf32(x - big);
        out[(std::size_t(rows) + r) * k_padded + k] = big;
      }
    }
    __syncthreads();  // the tile is rewritten for the next k block
  }
}

template <int kParts>
void launch_k_major_a(const DeviceGemm& g, int rows, float* out) {
  const dim3 grid(ceil_div(rows, 32), unsigned(std::min(ceil_div(g.k_padded, 32), 65535u)));
  k_major_a<kParts><<<grid, dim3(32, 8), 0, g.stream>>>(g.a, g.lda, g.m, rows, g.k_padded, out);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
