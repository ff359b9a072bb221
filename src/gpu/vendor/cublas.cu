// The vendor rows: cuBLAS SGEMM with default FP32 math, and with TF32 tensor-core math
// (seed 000 §8.4.8, 001 v9, 004 matmulC). Row-major C = op(A)·op(B) is computed as the column-major
// Cᵀ = op(B)ᵀ·op(A)ᵀ, so no data is transposed: a row-major matrix read as column-major is its transpose, so B
// stored as it is (K×N) is cuBLAS's first operand untransposed, and B stored transposed (N×K) is that operand with
// transa = T; A likewise with transb. The handle is created with the workspace, untimed.
#include "../runtime/device_gemm.cuh"
#include "cublas.hpp"

namespace matcompare::gpu {
namespace {

void cublas_sgemm(const DeviceGemm& g, cublasMath_t math) {
  MC_CUBLAS_CHECK(cublas_library().cublasSetMathMode(g.cublas, math));
  MC_CUBLAS_CHECK(cublas_library().cublasSgemm(g.cublas, g.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N,
                              g.a_transposed ? CUBLAS_OP_T : CUBLAS_OP_N, g.n, g.m, g.k, &g.alpha, g.b, g.ldb, g.a,
                              g.lda, &g.beta, g.c, g.ldc));
}

}  // namespace

void launch_cublas_fp32(const DeviceGemm& g) { cublas_sgemm(g, CUBLAS_DEFAULT_MATH); }
void launch_cublas_tf32(const DeviceGemm& g) { cublas_sgemm(g, CUBLAS_TF32_TENSOR_OP_MATH); }

}  // namespace matcompare::gpu
