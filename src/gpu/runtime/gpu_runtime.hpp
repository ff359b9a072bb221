#pragma once
// The GPU side as plain C++: usable from files that are compiled without CUDA.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"
#include "matcompare/context.hpp"

namespace matcompare::gpu {

struct DeviceGemm;  // defined in device_gemm.cuh
using LaunchFn = void (*)(const DeviceGemm&);

// How a GPU step wants its matrices laid out. Rows and columns are allocated rounded up to these
// multiples and the padding is zero, so kernels may read it; the defaults give every row a
// 16-byte aligned start and a width that is a multiple of 4 floats, which float4 loads need.
struct GpuKernelSpec {
  LaunchFn launch = nullptr;       // nullptr when built without CUDA
  int pad_m = 1, pad_n = 4, pad_k = 4;
  std::size_t (*scratch_bytes)(const GemmShape&) = nullptr;  // device scratch the step needs
  bool uses_cublas = false;
  int min_compute_capability = 0;  // e.g. 90 for Hopper-only instructions; 0: any GPU
};

std::unique_ptr<Backend> make_gpu_backend(BackendInfo info, GpuKernelSpec spec);

// Throws std::runtime_error when the index is not a usable device.
void select_device(int index);

// GPUs this process can see; 0 without CUDA, a driver or a device.
int device_count();
// The GPUs multi-GPU backends run on (set by select_gpus); default: the selected device alone.
void set_multi_devices(const std::vector<int>& devices);
std::vector<int> multi_devices();
// Every GPU this process sees, described without touching the selected one's state (no clock measurement).
std::vector<GpuContext> describe_all_devices();

// The selected GPU, or nullopt with the reason (no CUDA build, no device, driver missing).
std::optional<GpuContext> describe_device(std::string& why_not);

// Why GPU backends cannot run here, or "" when they can.
std::string unavailable_reason();

// The selected GPU's compute capability as major*10 + minor (90 for Hopper).
int compute_capability();

// The selected GPU's number of SMs.
int multiprocessor_count();

}  // namespace matcompare::gpu
