#pragma once
// The rows that run on several GPUs at once, with NVIDIA's own engines: cuBLASXt (inside cuBLAS, host-resident
// matrices, out of core) and cuBLASMp (distributed over NCCL, one process per GPU). Plain C++, so the registry
// and the build without CUDA see the same declarations.
#include <memory>
#include <string>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

// cuBLASXt SGEMM on every GPU of selected_gpus(), on matrices in host memory.
std::unique_ptr<Backend> make_cublasxt_backend(BackendInfo info);

// cuBLASMp SGEMM, A, B and C block-cyclic over one worker process per GPU of selected_gpus().
std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info);

// The edge of cuBLASXt's square tiles: MATCOMPARE_CUBLASXT_BLOCK_DIM when set, else the tuned default.
// Throws std::invalid_argument for a value that is not a whole number from 64 to 65536.
int cublasxt_block_dim();
constexpr const char* kCublasXtBlockDimVariable = "MATCOMPARE_CUBLASXT_BLOCK_DIM";

// "cuBLASMp 0.7.0 over NCCL 2.28.9", or why cuBLASMp rows are unavailable.
std::string cublasmp_description();

// The first argument that makes the CLI a cuBLASMp worker instead of a run (see run_cublasmp_worker).
constexpr const char* kCublasMpWorkerFlag = "--cublasmp-worker";
// A worker's whole life, called by the CLI when argv[1] is kCublasMpWorkerFlag: joins the NCCL communicator,
// computes its block-cyclic part of C on its GPU as the parent asks, and returns the exit status.
int run_cublasmp_worker(int argc, char** argv);

}  // namespace matcompare::gpu
