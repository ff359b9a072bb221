#pragma once
// The cuBLASLt rows (issue 29): cublasLtMatmul with the algorithm found by timing the heuristic's best candidates
// for each shape, as NVIDIA's LtSgemmSimpleAutoTuning sample does; src/core/registry.cpp lists them.
#include <cstddef>
#include <optional>
#include <string>

#include "cublaslt_text.hpp"
#include "matcompare/backend.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

void launch_cublaslt_fp32(const DeviceGemm& g);  // CUBLAS_COMPUTE_32F
void launch_cublaslt_tf32(const DeviceGemm& g);  // CUBLAS_COMPUTE_32F_FAST_TF32
// The search (GpuKernelSpec::choosing_with), done once per LtSearchKey in the process; returns the winner's name.
KernelChoice choose_cublaslt_fp32(const DeviceGemm& g);
KernelChoice choose_cublaslt_tf32(const DeviceGemm& g);

// The device workspace cublasLtMatmul may use, allocated with each workspace (32 MiB, as cuBLAS takes on Hopper).
constexpr std::size_t kCublasLtWorkspaceBytes = std::size_t(32) << 20;
std::size_t cublaslt_workspace_bytes(const GemmShape&);

// For tests: the search this process made for the shape in the precision on the current GPU, with any leading
// dimensions, or nullopt when none was made.
std::optional<LtChoice> cublaslt_choice(Precision p, const GemmShape& shape);

}  // namespace matcompare::gpu
