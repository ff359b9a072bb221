// Compiled instead of the CUDA sources when no CUDA compiler was found: the GPU rows still
// exist, and say why they cannot run.
#include <stdexcept>
#include <utility>

#include "../../core/unavailable_backend.hpp"
#include "../multi/multi_gpu.hpp"
#include "gpu_runtime.hpp"

namespace matcompare::gpu {
namespace {

constexpr const char* kReason = "built without CUDA (no nvcc found when matcompare was configured)";

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(BackendInfo info, GpuKernelSpec) {
  info.device = DeviceKind::gpu;
  return make_unavailable_backend(std::move(info), kReason);
}

std::unique_ptr<Backend> make_cublasxt_backend(BackendInfo info) {
  info.multi_gpu = true;
  info.host_resident = true;
  return make_gpu_backend(std::move(info), GpuKernelSpec{});
}

std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info) {
  info.multi_gpu = true;
  return make_gpu_backend(std::move(info), GpuKernelSpec{});
}

int cublasxt_block_dim() { return 0; }

std::string cublasmp_description() { return kReason; }

void select_device(int) { throw std::runtime_error(kReason); }

std::optional<GpuContext> describe_device(std::string& why_not) {
  why_not = kReason;
  return std::nullopt;
}

std::string unavailable_reason() { return kReason; }

int compute_capability() { return 0; }

int device_count() { return 0; }

void set_multi_devices(const std::vector<int>&) { throw std::runtime_error(kReason); }

std::vector<int> multi_devices() { return {0}; }

std::vector<GpuContext> describe_all_devices() { return {}; }

}  // namespace matcompare::gpu
