#pragma once
// cuBLAS, cuBLASXt and cuBLASLt, opened at their first use instead of linked: a program that runs only CPU rows, or
// one on a machine without a GPU, never maps them (libcublasLt alone is several hundred MB). The GPU rows call them
// through the table here, whose members are named and typed after the headers' own functions.
#include <cublasLt.h>
#include <cublasXt.h>
#include <cublas_v2.h>

namespace matcompare::gpu {

// Every function the GPU rows call, as X(library, function): library is cublas (cuBLAS and cuBLASXt) or cublaslt.
// cublas_v2.h maps some names to their _v2 symbols; the table follows it, so callers write the documented names.
#define MC_CUBLAS_FUNCTIONS(X)                                                                                         \
  X(cublas, cublasCreate)                                                                                              \
  X(cublas, cublasDestroy)                                                                                             \
  X(cublas, cublasSetStream)                                                                                           \
  X(cublas, cublasSetMathMode)                                                                                         \
  X(cublas, cublasSgemm)                                                                                               \
  X(cublas, cublasGetProperty)                                                                                         \
  X(cublas, cublasGetStatusName)                                                                                       \
  X(cublas, cublasGetStatusString)                                                                                     \
  X(cublas, cublasXtCreate)                                                                                            \
  X(cublas, cublasXtDestroy)                                                                                           \
  X(cublas, cublasXtDeviceSelect)                                                                                      \
  X(cublas, cublasXtSetBlockDim)                                                                                       \
  X(cublas, cublasXtSgemm)                                                                                             \
  X(cublaslt, cublasLtCreate)                                                                                          \
  X(cublaslt, cublasLtDestroy)                                                                                         \
  X(cublaslt, cublasLtMatrixLayoutCreate)                                                                              \
  X(cublaslt, cublasLtMatrixLayoutDestroy)                                                                             \
  X(cublaslt, cublasLtMatmulDescCreate)                                                                                \
  X(cublaslt, cublasLtMatmulDescDestroy)                                                                               \
  X(cublaslt, cublasLtMatmulDescSetAttribute)                                                                          \
  X(cublaslt, cublasLtMatmulPreferenceCreate)                                                                          \
  X(cublaslt, cublasLtMatmulPreferenceDestroy)                                                                         \
  X(cublaslt, cublasLtMatmulPreferenceSetAttribute)                                                                    \
  X(cublaslt, cublasLtMatmulAlgoGetHeuristic)                                                                          \
  X(cublaslt, cublasLtMatmulAlgoConfigGetAttribute)                                                                    \
  X(cublaslt, cublasLtMatmul)                                                                                          \
  X(cublaslt, cublasLtGetStatusName)                                                                                   \
  X(cublaslt, cublasLtGetStatusString)

struct CublasLibrary {
#define MC_CUBLAS_MEMBER(library, function) decltype(&::function) function = nullptr;
  MC_CUBLAS_FUNCTIONS(MC_CUBLAS_MEMBER)
#undef MC_CUBLAS_MEMBER
};

// Opens libcublas and libcublasLt of the toolkit's major version once, from the loader's search path or else the
// toolkit the library was built with, and resolves every function; throws CudaError saying what could not be found
// (and tries again at the next call).
const CublasLibrary& cublas_library();

}  // namespace matcompare::gpu
