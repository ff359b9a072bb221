// gpu/cutlass-tf32 in every build: where CUTLASS's kernels were built, the runtime's GPU backend around the kernel
// MATCOMPARE_CUTLASS_KERNEL names (the first of kernels() by default), its workspace naming that kernel in the
// result; elsewhere a row that says why it cannot run (MATCOMPARE_CUTLASS_MISSING, from cmake/Cutlass.cmake).
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../core/unavailable_backend.hpp"
#include "../runtime/gpu_runtime.hpp"
#include "cutlass_kernels.hpp"
#include "cutlass_tf32.hpp"

namespace matcompare::gpu {
namespace {

#if MATCOMPARE_HAVE_CUTLASS
std::vector<const CutlassKernel*> kernels() {
  return {&cutlass_cooperative(), &cutlass_pingpong(), &cutlass_cooperative_transposed_b()};
}

// The kernel named, else the one MATCOMPARE_CUTLASS_KERNEL names, else the default for the layout: the register
// path where B is stored K×N (N-major, which it reads as it is), the all-K-major one where B is stored N×K (no copy
// of B either way; cutlass_gemm.cuh).
std::size_t chosen_kernel(const std::string& fixed, Layout layout) {
  const char* from_environment = std::getenv("MATCOMPARE_CUTLASS_KERNEL");
  std::string name = !fixed.empty() ? fixed : from_environment ? from_environment : "";
  if (name.empty()) {
    if (!b_transposed(layout)) return 0;
    name = cutlass_cooperative_transposed_b().name;
  }
  const auto all = kernels();
  std::string known;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i]->name == name) return i;
    known += (known.empty() ? "" : ", ") + all[i]->name;
  }
  throw std::runtime_error((fixed.empty() ? "MATCOMPARE_CUTLASS_KERNEL=" + name : "the CUTLASS kernel " + name) +
                           " is not one of " + known);
}

// The runtime's workspace, which also names the CUTLASS kernel it runs.
class CutlassWorkspace final : public Workspace {
 public:
  CutlassWorkspace(std::unique_ptr<Workspace> inner, std::string kernel)
      : inner_(std::move(inner)), kernel_(std::move(kernel)) {}
  void upload(const MatrixF& a, const MatrixF& b) override { inner_->upload(a, b); }
  void set_output(const MatrixF& c) override { inner_->set_output(c); }
  void compute(float alpha, float beta) override { inner_->compute(alpha, beta); }
  void download(MatrixF& c) override { inner_->download(c); }
  void poison_output(const GemmShape& shape) override { inner_->poison_output(shape); }
  void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) override {
    inner_->download_rows(rows, shape, out);
  }
  void flush_cache() override { inner_->flush_cache(); }
  void synchronize() override { inner_->synchronize(); }
  std::unique_ptr<Stopwatch> stopwatch() override { return inner_->stopwatch(); }
  std::string kernel() const override { return kernel_; }
  ClockReading clock() override { return inner_->clock(); }

 private:
  std::unique_ptr<Workspace> inner_;
  std::string kernel_;
};

class CutlassBackend final : public Backend {
 public:
  CutlassBackend(BackendInfo info, std::string kernel) : kernel_(std::move(kernel)) {
    for (const CutlassKernel* k : kernels())
      rows_.push_back(make_gpu_backend(info, GpuKernelSpec(k->launch)
                                                 .padded_to(kCutlassPadM, kCutlassPadN, kCutlassPadK)
                                                 .with_scratch(k->scratch_bytes)
                                                 .needs_compute_capability(90)));
    info_ = rows_.front()->info();
  }
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override {
    Availability a = rows_.front()->availability();
    if (!a.available) return a;
    try {  // sm_90a code runs on compute capability 9.0 alone
      const int have = compute_capability();
      if (have != 90)
        return {false, "CUTLASS's kernels are built for sm_90a (Hopper, compute capability 9.0) alone; this GPU has " +
                           std::to_string(have / 10) + "." + std::to_string(have % 10)};
    } catch (const std::exception& e) {
      return {false, e.what()};
    }
    return a;
  }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    const std::size_t i = chosen_kernel(kernel_, shape.layout);
    const CutlassKernel& k = *kernels()[i];
    return std::make_unique<CutlassWorkspace>(rows_[i]->prepare(shape), k.name + ": " + k.description);
  }

 private:
  std::string kernel_;  // "": the environment's or the default
  BackendInfo info_;
  std::vector<std::unique_ptr<Backend>> rows_;  // one per kernel, in kernels()'s order
};
#endif

}  // namespace

std::unique_ptr<Backend> make_cutlass_backend(BackendInfo info, [[maybe_unused]] std::string kernel) {
#if MATCOMPARE_HAVE_CUTLASS
  return std::make_unique<CutlassBackend>(std::move(info), std::move(kernel));
#elif MATCOMPARE_HAVE_CUDA
  info.device = DeviceKind::gpu;
  return make_unavailable_backend(std::move(info), MATCOMPARE_CUTLASS_MISSING);
#else
  return make_gpu_backend(std::move(info), GpuKernelSpec{});  // says "built without CUDA"
#endif
}

const char* cutlass_description() {
#if MATCOMPARE_HAVE_CUTLASS
  return kernels().front()->description.c_str();
#elif MATCOMPARE_HAVE_CUDA
  return MATCOMPARE_CUTLASS_MISSING;
#else
  static const std::string why = unavailable_reason();  // "built without CUDA ..."
  return why.c_str();
#endif
}

std::vector<std::string> cutlass_kernel_names() {
  std::vector<std::string> names;
#if MATCOMPARE_HAVE_CUTLASS
  for (const CutlassKernel* k : kernels()) names.push_back(k->name);
#endif
  return names;
}

}  // namespace matcompare::gpu
