#pragma once
// B stored transposed (N×K: layouts NT and TT) copied K×N for gpu/simt-tuned, from kSimtCopyBRows rows of C on
// (simt_tuning.hpp): the kernel's cp.async ring then reads B's rows along N as in NN. Read along K, B goes through
// registers and the kernel loses about a quarter of its speed (bench/NOTES.md, "The suites at 9f5f3f6, and prefill's
// B stored N×K copied K×N first"). The copy is part of the timed computation, as the TF32 rows' K-major copy of A is
// (hopper/k_major_copy.cuh).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../runtime/device_gemm.cuh"

namespace matcompare::gpu::simt {

// out (k_padded × ld_out, ld_out a multiple of 4 from n on): row k, column j holds B's element (k, j), stored at
// b_t[j * ldb + k]; columns from n on are zero. A 32x32 tile goes through shared memory, its rows padded by one
// word, so that the reads (along K) and the writes (along N) are both whole rows.
__global__ void b_k_by_n(const float* __restrict__ b_t, int ldb, int n, int k_padded, int ld_out,
                         float* __restrict__ out) {
  __shared__ float tile[32][33];
  const int j0 = blockIdx.x * 32, tx = threadIdx.x;
  for (int k0 = blockIdx.y * 32; k0 < k_padded; k0 += gridDim.y * 32) {
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int j = j0 + i, k = k0 + tx;
      tile[i][tx] = j < n && k < k_padded ? b_t[std::size_t(j) * ldb + k] : 0.0f;
    }
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
      const int k = k0 + i, j = j0 + tx;
      if (k < k_padded && j < ld_out) out[std::size_t(k) * ld_out + j] = tile[tx][i];
    }
    __syncthreads();  // the tile is rewritten for the next k block
  }
}

// The copy's row stride: N rounded up to 4, as the NN kernel's float4 copies of B's rows need.
inline int b_k_by_n_ld(int n) { return (n + 3) / 4 * 4; }
// The copy's bytes: `rows` rows (K padded) of `cols` columns at that stride.
inline std::size_t k_by_n_bytes(std::int64_t rows, int cols) {
  return std::size_t(rows) * std::size_t(b_k_by_n_ld(cols)) * sizeof(float);
}

// Any operand stored `cols` × K (row stride ld) copied K × cols the same way: B of NT and TT, or A of an NT product
// turned around (simt_tuning.hpp, simt_turns).
inline void launch_k_by_n(const float* t, int ld, int cols, int k_padded, float* out, cudaStream_t stream) {
  const int ld_out = b_k_by_n_ld(cols);
  const dim3 grid(ceil_div(ld_out, 32), std::min(ceil_div(k_padded, 32), 65535u));
  b_k_by_n<<<grid, dim3(32, 8), 0, stream>>>(t, ld, cols, k_padded, ld_out, out);
  MC_CHECK_LAUNCH();
}

inline void launch_b_k_by_n(const DeviceGemm& g, float* out) {
  launch_k_by_n(g.b, g.ldb, g.n, g.k_padded, out, g.stream);
}

}  // namespace matcompare::gpu::simt
