// gpu/cublasmp-fp32 as it stands: the row, its place in the registry and CMake's search for cuBLASMp and NCCL
// exist, the worker processes (one per GPU, block-cyclic A, B, C) that would run it do not yet, so it says so.
#include <utility>

#include "../../core/unavailable_backend.hpp"
#include "multi_gpu.hpp"

namespace matcompare::gpu {
namespace {

constexpr const char* kReason =
    "not implemented yet: the per-GPU worker processes that run cuBLASMp are the open part of issue 10 (CMake "
    "already finds cuBLASMp and NCCL, see README)";

}  // namespace

std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info) {
  info.device = DeviceKind::gpu;
  info.multi_gpu = true;
  return make_unavailable_backend(std::move(info), kReason);
}

std::string cublasmp_description() { return kReason; }

}  // namespace matcompare::gpu
