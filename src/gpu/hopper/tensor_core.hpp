#pragma once
// The launch functions of the Hopper tensor-core rows (sm_90a), one per file in this folder; src/core/registry.cpp
// lists them. tf32_passes.hpp describes the warp-specialized engine that the last two share.
#include "../runtime/gpu_runtime.hpp"

namespace matcompare::gpu {

struct DeviceGemm;

void launch_tensor_core_tf32(const DeviceGemm& g);     // tensor_core_tf32.cu
void launch_tensor_core_tf32_ws(const DeviceGemm& g);  // tensor_core_tf32_ws.cu
void launch_tensor_core_3xtf32(const DeviceGemm& g);   // tensor_core_3xtf32.cu

// What the last two run for a shape, named at upload (GpuKernelSpec::choosing_with): the result's kernel.
KernelChoice choose_tensor_core_tf32_ws(const DeviceGemm& g);
KernelChoice choose_tensor_core_3xtf32(const DeviceGemm& g);

}  // namespace matcompare::gpu
