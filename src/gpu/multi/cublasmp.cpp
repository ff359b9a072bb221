// gpu/cublasmp-fp32: cuBLASMp's distributed SGEMM, one worker process per GPU of --devices (matcompare-mp-worker,
// built when CMake finds cuBLASMp and NCCL), A, B and C block-cyclic on the GPUs. This file decides whether the row
// can run and where its worker is; mp_workspace.cpp drives the workers.
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "../../core/workspace_checks.hpp"
#include "../runtime/gpu_runtime.hpp"
#include "mp_workspace.hpp"
#include "multi_gpu.hpp"

namespace matcompare::gpu {
namespace {

constexpr const char* kWorkerName = "matcompare-mp-worker";

// MATCOMPARE_CUBLASMP_WORKER, else the worker beside the running program (the CLI's folder, where the build and
// the install put it); empty when neither names an executable file.
std::string find_worker() {
  if (const char* forced = std::getenv(kCublasMpWorkerVariable)) return access(forced, X_OK) == 0 ? forced : "";
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string dir(self, std::size_t(n));
  dir.erase(dir.find_last_of('/') + 1);
  const std::string beside = dir + kWorkerName;
  return access(beside.c_str(), X_OK) == 0 ? beside : "";
}

// Why the row cannot run on this machine, or "".
std::string why_unavailable() {
  if (std::string why = unavailable_reason(); !why.empty()) return why;
  if (find_worker().empty()) {
    if (const char* forced = std::getenv(kCublasMpWorkerVariable))
      return std::string(kCublasMpWorkerVariable) + "='" + forced + "' is not an executable file";
    return MATCOMPARE_HAVE_CUBLASMP
               ? std::string("its worker ") + kWorkerName + " is not beside this program (set " +
                     kCublasMpWorkerVariable + " to its path)"
               : "built without cuBLASMp (CMake found no cublasmp.h, libcublasmp and NCCL; docs/multi-gpu.md: installing "
                 "cuBLASMp)";
  }
  try {
    cublasmp_block_override();
    cublasmp_timeout_s();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

class CublasMpBackend final : public Backend {
 public:
  explicit CublasMpBackend(BackendInfo info) : info_(std::move(info)) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override {
    const std::string why = why_unavailable();
    return {why.empty(), why};
  }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    check_layout(info(), shape);
    const std::string worker = find_worker();
    if (worker.empty()) throw std::runtime_error(why_unavailable());
    return make_mp_workspace(worker, multi_devices(), shape);
  }

 private:
  BackendInfo info_;
};

}  // namespace

std::unique_ptr<Backend> make_cublasmp_backend(BackendInfo info) {
  info.device = DeviceKind::gpu;
  info.multi_gpu = true;
  return std::make_unique<CublasMpBackend>(std::move(info));
}

std::string cublasmp_description() {
  const std::string why = why_unavailable();
  if (!why.empty()) return "cuBLASMp unavailable: " + why;
  const long forced = cublasmp_block_override();
  return std::string("cuBLASMp ") + MATCOMPARE_CUBLASMP_VERSION + " via " + find_worker() +
         ": one process per GPU, the most square process grid, square blocks of " +
         (forced ? std::to_string(forced) + " (" + kCublasMpBlockVariable + ")"
                 : "min(1024, each split dimension / its process count)");
}

}  // namespace matcompare::gpu
