#pragma once
// The CUTLASS kernels built into this library (one translation unit each, kernel_*.cu): plain C++, for
// cutlass_row.cpp, which is compiled without CUTLASS's headers.
#include <string>

#include "../runtime/gpu_runtime.hpp"

namespace matcompare::gpu {

struct CutlassKernel {
  std::string name;         // what MATCOMPARE_CUTLASS_KERNEL selects it by
  std::string description;  // CUTLASS's version, schedule, tile, cluster, stages and operand path
  LaunchFn launch;
  ScratchBytesFn scratch_bytes;  // CUTLASS's workspace (and the transposed B, where there is one)
};

// Matrices padded as the kernels need: N and K to whole 16-byte rows for TMA (the runtime's default).
constexpr int kCutlassPadM = 1, kCutlassPadN = 4, kCutlassPadK = 4;

const CutlassKernel& cutlass_cooperative();               // kernel_cooperative.cu: the row's default
const CutlassKernel& cutlass_pingpong();                  // kernel_pingpong.cu
const CutlassKernel& cutlass_cooperative_transposed_b();  // kernel_transposed_b.cu

}  // namespace matcompare::gpu
