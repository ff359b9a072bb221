#pragma once
// The rows that run on several GPUs at once, with NVIDIA's own engines: cuBLASXt (inside cuBLAS, host-resident
// matrices, out of core) and cuBLASMp (distributed over NCCL, one process per GPU). Plain C++, so the registry
// and the build without CUDA see the same declarations.
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

// cuBLASXt SGEMM on every GPU of selected_gpus(), on matrices in host memory.
std::unique_ptr<Backend> make_cublasxt_backend(BackendInfo info);

// cuBLASMp SGEMM over one worker process per GPU of selected_gpus() (cublasmp.cpp); unavailable, with the reason,
// where its worker was not built (no cuBLASMp or NCCL at configure time) or no GPU can run.
std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info);

// The edge of cuBLASXt's square tiles: MATCOMPARE_CUBLASXT_BLOCK_DIM when set, else the tuned default.
// Throws std::invalid_argument for a value that is not a whole number from 64 to 65536.
int cublasxt_block_dim();
constexpr const char* kCublasXtBlockDimVariable = "MATCOMPARE_CUBLASXT_BLOCK_DIM";

// A set MATCOMPARE_CUBLASXT_BLOCK_DIM's tile edge; throws as cublasxt_block_dim() does. Plain C++, so that the
// build without CUDA checks the variable too.
inline int parse_cublasxt_block_dim(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 64 || value > 65536)
    throw std::invalid_argument(std::string(kCublasXtBlockDimVariable) + "='" + text +
                                "' is not a tile edge from 64 to 65536");
  return int(value);
}

// cuBLASMp's version, worker and block rule for the context, or why the row is unavailable.
std::string cublasmp_description();

}  // namespace matcompare::gpu
