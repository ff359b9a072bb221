#pragma once
// gpu/cutlass-tf32: CUTLASS 3.x's Hopper warp-specialized TF32 GEMM as a vendor library's row. cutlass_row.cpp
// builds the row in every build; the kernels (kernel_*.cu, from cutlass_gemm.cuh) only where cmake/Cutlass.cmake
// found CUTLASS's headers and an sm_90a target.
#include <memory>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

// The row. Its kernel is `kernel` where given (one of cutlass_kernel_names()), else the one the environment's
// MATCOMPARE_CUTLASS_KERNEL names, else the first; an unknown name is an error when a workspace is prepared.
std::unique_ptr<Backend> make_cutlass_backend(BackendInfo info, std::string kernel = "");

// "CUTLASS 4.2.0 <the default kernel's schedule, tile, cluster, stages and operand path>", or why the row cannot
// run in this build: for the run context's list of vendor libraries.
const char* cutlass_description();

// The kernels the row can run, the default first; empty in a build without CUTLASS.
std::vector<std::string> cutlass_kernel_names();

}  // namespace matcompare::gpu
