#pragma once
// The parent side of gpu/cublasmp-fp32: a Workspace whose matrices live in worker processes, one per GPU, started
// with posix_spawn and driven over a socket each, with A, B and C shared through one memfd mapping. Plain POSIX, no
// CUDA: the CPU tests drive it with a fake worker that speaks the same protocol.
#include <memory>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

// Variables the cuBLASMp row reads: the worker's path, its block edge, and how long a worker may take to answer.
constexpr const char* kCublasMpWorkerVariable = "MATCOMPARE_CUBLASMP_WORKER";
constexpr const char* kCublasMpBlockVariable = "MATCOMPARE_CUBLASMP_BLOCK";
constexpr const char* kCublasMpTimeoutVariable = "MATCOMPARE_CUBLASMP_TIMEOUT_S";

// Starts one worker per entry of `devices` (rank i on GPU devices[i]) for one shape, waits until each has set up
// NCCL and cuBLASMp, and returns the workspace they make together. Its stopwatch reports, for each compute, the
// slowest rank's CUDA-event time. A worker that fails, dies or does not answer within the timeout becomes a
// std::runtime_error naming its rank, its GPU and the call; every worker is then stopped and reaped.
std::unique_ptr<Workspace> make_mp_workspace(const std::string& worker, const std::vector<int>& devices,
                                             const GemmShape& shape);

// MATCOMPARE_CUBLASMP_BLOCK when set (a whole number from 1 to 65536), else 0: mp::choose_block picks the edge.
// Throws std::invalid_argument for anything else.
long cublasmp_block_override();

// MATCOMPARE_CUBLASMP_TIMEOUT_S when set (seconds, 1 to 86400), else 300. Throws std::invalid_argument otherwise.
int cublasmp_timeout_s();

}  // namespace matcompare::gpu
