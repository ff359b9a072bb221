#pragma once
// The GPU side as plain C++: usable from files that are compiled without CUDA.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "matcompare/backend.hpp"
#include "matcompare/context.hpp"

namespace matcompare::gpu {

struct DeviceGemm;  // defined in device_gemm.cuh
using LaunchFn = void (*)(const DeviceGemm&);

using ScratchBytesFn = std::size_t (*)(const GemmShape&);

// What a row that picks its kernel per shape chose (see choosing_with): its name, the workspace's kernel(), and
// what its launches need, handed back in DeviceGemm::choice so that no compute looks it up.
struct KernelChoice {
  std::string kernel;
  const void* plan = nullptr;
};
using ChooseFn = KernelChoice (*)(const DeviceGemm& g);

// What a GPU step asks of the runtime: its launch, how its matrices are laid out, its device scratch, whether it
// needs a cuBLAS or cuBLASLt handle, whether it chooses its kernel per shape, and the oldest GPU it runs on. Built by
// name, never by position (it is no aggregate, so GpuKernelSpec{fn, 16, 64} does not compile):
//   GpuKernelSpec(launch).padded_to(16, 64, 32).with_scratch(bytes).needs_compute_capability(90)
struct GpuKernelSpec {
  GpuKernelSpec() = default;
  explicit GpuKernelSpec(LaunchFn launch_fn) : launch(launch_fn) {}

  // Rows and columns are allocated rounded up to these multiples and the padding is zero, so kernels may read it.
  // The defaults (1, 4, 4) give every row a 16-byte aligned start and a width that is a multiple of 4 floats,
  // which float4 loads need.
  GpuKernelSpec padded_to(int m, int n, int k) const {
    GpuKernelSpec s = *this;
    s.pad_m = m;
    s.pad_n = n;
    s.pad_k = k;
    return s;
  }
  // Device scratch of bytes(shape), allocated with the workspace and passed as DeviceGemm::scratch.
  GpuKernelSpec with_scratch(ScratchBytesFn bytes) const {
    GpuKernelSpec s = *this;
    s.scratch_bytes = bytes;
    return s;
  }
  // The workspace creates a cuBLAS handle on its stream (DeviceGemm::cublas).
  GpuKernelSpec with_cublas_handle() const {
    GpuKernelSpec s = *this;
    s.uses_cublas = true;
    return s;
  }
  // The workspace creates a cuBLASLt handle (DeviceGemm::cublaslt).
  GpuKernelSpec with_cublaslt_handle() const {
    GpuKernelSpec s = *this;
    s.uses_cublaslt = true;
    return s;
  }
  // After every upload, with A and B resident and before anything is timed, the workspace calls choose(g) (α = 1,
  // β = 0): a row that picks its kernel per shape by timing candidates on the real data (cuBLASLt's algorithm
  // search) picks here, so no compute sample, the verification run included, pays for it. It returns a
  // KernelChoice: the workspace's kernel(), and the plan its launches then find in DeviceGemm::choice. The choice may write C: every caller sets or poisons C after upload (Backend::gemm, the
  // harness's trials, timed workspaces and end-to-end samples). A compute() before any upload chooses first.
  GpuKernelSpec choosing_with(ChooseFn fn) const {
    GpuKernelSpec s = *this;
    s.choose = fn;
    return s;
  }
  // major * 10 + minor, e.g. 90 for Hopper-only instructions: on an older GPU the row reads "unavailable".
  GpuKernelSpec needs_compute_capability(int capability) const {
    GpuKernelSpec s = *this;
    s.min_compute_capability = capability;
    return s;
  }

  LaunchFn launch = nullptr;  // nullptr when built without CUDA
  int pad_m = 1, pad_n = 4, pad_k = 4;
  ScratchBytesFn scratch_bytes = nullptr;
  bool uses_cublas = false;
  bool uses_cublaslt = false;
  ChooseFn choose = nullptr;
  int min_compute_capability = 0;  // 0: any GPU
};
static_assert(!std::is_aggregate_v<GpuKernelSpec>, "kernel specs are built with named fields");

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

// The selected GPU's peaks (gpu_peak of its properties), read once per device; the reference stays valid.
const Peak& selected_device_peak();

}  // namespace matcompare::gpu
