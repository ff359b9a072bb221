// Compiled instead of the CUDA sources when no CUDA compiler was found: the GPU rows still
// exist, and say why they cannot run.
#include <stdexcept>
#include <utility>

#include "gpu_runtime.hpp"

namespace matcompare::gpu {
namespace {

constexpr const char* kReason = "built without CUDA (no nvcc found when matcompare was configured)";

class UnbuiltGpuBackend final : public Backend {
 public:
  explicit UnbuiltGpuBackend(BackendInfo info) : info_(std::move(info)) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override { return {false, kReason}; }
  std::unique_ptr<Workspace> prepare(const GemmShape&) const override {
    throw std::runtime_error(info_.name + ": " + kReason);
  }

 private:
  BackendInfo info_;
};

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(BackendInfo info, GpuKernelSpec) {
  info.device = DeviceKind::gpu;
  return std::make_unique<UnbuiltGpuBackend>(std::move(info));
}

void select_device(int) { throw std::runtime_error(kReason); }

std::optional<GpuContext> describe_device(std::string& why_not) {
  why_not = kReason;
  return std::nullopt;
}

std::string unavailable_reason() { return kReason; }

int compute_capability() { return 0; }

}  // namespace matcompare::gpu
