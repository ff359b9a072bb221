#pragma once
// Every CUDA and cuBLAS call goes through these: a failure becomes an exception with the
// call, the place and the driver's message, which the harness turns into a failed row.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "cublas_library.hpp"

namespace matcompare::gpu {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* what, const char* file, int line) {
  throw CudaError(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " + what +
                  " at " + file + ":" + std::to_string(line));
}

[[noreturn]] inline void throw_cublas(cublasStatus_t s, const char* what, const char* file, int line) {
  throw CudaError(std::string("cuBLAS error ") + cublas_library().cublasGetStatusName(s) + " (" +
                  cublas_library().cublasGetStatusString(s) +
                  ") in " + what + " at " + file + ":" + std::to_string(line));
}

// cuBLASLt names its statuses itself (gpu/cublaslt-*): the message does not depend on the cuBLAS library.
[[noreturn]] inline void throw_cublaslt(cublasStatus_t s, const char* what, const char* file, int line) {
  throw CudaError(std::string("cuBLASLt error ") + cublas_library().cublasLtGetStatusName(s) + " (" +
                  cublas_library().cublasLtGetStatusString(s) +
                  ") in " + what + " at " + file + ":" + std::to_string(line));
}

}  // namespace matcompare::gpu

#define MC_CUDA_CHECK(expr)                                                                  \
  do {                                                                                       \
    const cudaError_t mc_err_ = (expr);                                                      \
    if (mc_err_ != cudaSuccess) ::matcompare::gpu::throw_cuda(mc_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After every kernel launch: reports bad launch configurations at once.
#define MC_CHECK_LAUNCH() MC_CUDA_CHECK(cudaGetLastError())

#define MC_CUBLAS_CHECK(expr)                                                                    \
  do {                                                                                           \
    const cublasStatus_t mc_st_ = (expr);                                                        \
    if (mc_st_ != CUBLAS_STATUS_SUCCESS) ::matcompare::gpu::throw_cublas(mc_st_, #expr, __FILE__, __LINE__); \
  } while (0)

#define MC_CUBLASLT_CHECK(expr)                                                                    \
  do {                                                                                             \
    const cublasStatus_t mc_st_ = (expr);                                                          \
    if (mc_st_ != CUBLAS_STATUS_SUCCESS) ::matcompare::gpu::throw_cublaslt(mc_st_, #expr, __FILE__, __LINE__); \
  } while (0)
