#pragma once
// What a GPU step receives: device-resident, row-major, zero-padded matrices (see GpuKernelSpec).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.cuh"
#include "gpu_runtime.hpp"

namespace matcompare::gpu {

struct DeviceGemm {
  int m, n, k;                       // the problem: C is m×n, op(A) is m×k, op(B) is k×n
  int m_padded, n_padded, k_padded;  // allocated extents (multiples of the spec's pad_*); padding is 0
  // The layout (matcompare/layout.hpp). Only rows with BackendInfo::all_layouts see a transposed operand; A stored
  // transposed is k_padded × m_padded rounded up to 4, B stored transposed n_padded × k_padded.
  bool a_transposed, b_transposed;
  const float* a;                    // m_padded × k_padded (or as above), row stride lda (floats, multiple of 4)
  int lda;
  const float* b;                    // k_padded × n_padded (or as above), row stride ldb
  int ldb;
  float* c;                          // m_padded × n_padded, row stride ldc; not read when beta == 0
  int ldc;
  float alpha, beta;
  void* scratch;                     // spec.scratch_bytes(shape) bytes, or nullptr
  std::size_t scratch_bytes;         // what scratch holds, sized when the workspace was prepared
  cudaStream_t stream;
  cublasHandle_t cublas;             // only when spec.uses_cublas
  cublasLtHandle_t cublaslt;         // only when spec.uses_cublaslt
  const void* choice;                // KernelChoice::plan of spec.choose, else nullptr
};

inline Layout layout_of(const DeviceGemm& g) {
  return g.a_transposed ? (g.b_transposed ? Layout::tt : Layout::tn) : (g.b_transposed ? Layout::nt : Layout::nn);
}
inline GemmShape shape_of(const DeviceGemm& g) { return GemmShape{g.m, g.n, g.k, layout_of(g)}; }

inline unsigned ceil_div(int x, int y) { return unsigned((x + y - 1) / y); }

// The epilogue every step applies: BLAS semantics, C not read when beta == 0.
__device__ __forceinline__ float scale_output(float alpha, float beta, float dot, const float* c) {
  return beta == 0.0f ? alpha * dot : alpha * dot + beta * *c;
}

// Block tile coordinates of linear block `id`: groups of `group` block rows are swept column by column, so the
// blocks resident at one time share A rows and B columns.
__device__ __forceinline__ void rasterize(int id, int tiles_m, int tiles_n, int group, int& tile_m, int& tile_n) {
  const int per_group = group * tiles_n;
  const int first_m = id / per_group * group;
  const int rows = min(tiles_m - first_m, group);
  const int in_group = id % per_group;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

}  // namespace matcompare::gpu
