// Compiled instead of the cuBLASMp sources when CMake found no cuBLASMp (an optional dependency, see README):
// the row still exists and says why it cannot run, and how to get it.
#include <stdexcept>
#include <utility>

#include "../../core/unavailable_backend.hpp"
#include "multi_gpu.hpp"

namespace matcompare::gpu {
namespace {

constexpr const char* kReason =
    "built without cuBLASMp (pip install nvidia-cublasmp-cu13, then configure with -DCUBLASMP_ROOT=... or let CMake "
    "find it in python's site-packages; see README)";

}  // namespace

std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info) {
  info.device = DeviceKind::gpu;
  info.multi_gpu = true;
  return make_unavailable_backend(std::move(info), kReason);
}

std::string cublasmp_description() { return kReason; }

int run_cublasmp_worker(int, char**) { throw std::runtime_error(kReason); }

}  // namespace matcompare::gpu
