// gpu/cublasxt-fp32: cuBLAS's own multi-GPU engine. The matrices stay in host memory and cuBLASXt streams square
// tiles of them through every selected GPU, so a product larger than one GPU's memory runs (out of core) and its
// time is end to end by nature. The tile edge is the one setting it has: tuned, recorded in the context.
#include <cublasXt.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../core/workspace_checks.hpp"
#include "../../cpu/cache_flush.hpp"
#include "../runtime/cuda_check.cuh"
#include "../runtime/gpu_runtime.hpp"
#include "multi_gpu.hpp"

namespace matcompare::gpu {
namespace {

// Tiles of 8192: the host traffic is about 8·M·N·K / tile bytes, and on 2 H200s at 16384 the sweep in
// bench/multi_gpu_session.sh found each doubling of the tile nearly halving the time (bench/NOTES.md, "2× H200,
// cuBLASXt"). A product of 8192 or less is then one tile on one GPU.
constexpr int kDefaultBlockDim = 8192;

class HostStopwatch final : public Stopwatch {
 public:
  void start() override { start_ = Clock::now(); }
  void stop() override { stop_ = Clock::now(); }
  double elapsed_ms() override { return std::chrono::duration<double, std::milli>(stop_ - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_, stop_;
};

class CublasXtWorkspace final : public Workspace {
 public:
  explicit CublasXtWorkspace(const GemmShape& s) : shape_(s), c_(std::size_t(s.m), std::size_t(s.n)) {
    MC_CUBLAS_CHECK(cublas_library().cublasXtCreate(&handle_));
    try {
      std::vector<int> devices = multi_devices();
      MC_CUBLAS_CHECK(cublas_library().cublasXtDeviceSelect(handle_, int(devices.size()), devices.data()));
      MC_CUBLAS_CHECK(cublas_library().cublasXtSetBlockDim(handle_, cublasxt_block_dim()));
    } catch (...) {
      cublas_library().cublasXtDestroy(handle_);
      throw;
    }
  }
  ~CublasXtWorkspace() override { cublas_library().cublasXtDestroy(handle_); }

  void upload(const MatrixF& a, const MatrixF& b) override {
    if (std::int64_t(a.rows()) != shape_.m || std::int64_t(a.cols()) != shape_.k ||
        std::int64_t(b.rows()) != shape_.k || std::int64_t(b.cols()) != shape_.n)
      throw std::invalid_argument("A or B has the wrong shape for this workspace");
    a_ = &a;  // host-resident: cuBLASXt reads them where they are
    b_ = &b;
  }
  void set_output(const MatrixF& c) override {
    if (c.rows() != c_.rows() || c.cols() != c_.cols())
      throw std::invalid_argument("C has the wrong shape for this workspace");
    std::copy_n(c.data(), c.size(), c_.data());  // into the one C buffer: no second one at 64 GiB
  }
  void compute(float alpha, float beta) override {
    if (!a_ || !b_) throw std::logic_error("cuBLASXt workspace: compute before upload");
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ; cublasXtSgemm returns when C is back in host memory.
    MC_CUBLAS_CHECK(cublas_library().cublasXtSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, std::size_t(shape_.n), std::size_t(shape_.m),
                                  std::size_t(shape_.k), &alpha, b_->data(), std::size_t(shape_.n), a_->data(),
                                  std::size_t(shape_.k), &beta, c_.data(), std::size_t(shape_.n)));
  }
  void download(MatrixF& c) override {
    if (c.rows() != c_.rows() || c.cols() != c_.cols())
      throw std::invalid_argument("download target has the wrong shape");
    std::copy_n(c_.data(), c_.size(), c.data());
  }
  void poison_output(const GemmShape&) override { c_.fill(std::numeric_limits<float>::quiet_NaN()); }
  void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) override {
    check_download_rows(rows, shape, shape_, out);
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::copy_n(&c_(std::size_t(rows[i]), 0), c_.cols(), &out(i, 0));
  }
  // The inputs are read from host memory: evict them from the host's caches.
  void flush_cache() override { cpu::flush_host_cache(); }
  void synchronize() override {}
  std::unique_ptr<Stopwatch> stopwatch() override { return std::make_unique<HostStopwatch>(); }

 private:
  GemmShape shape_;
  const MatrixF* a_ = nullptr;
  const MatrixF* b_ = nullptr;
  MatrixF c_;
  cublasXtHandle_t handle_ = nullptr;
};

class CublasXtBackend final : public Backend {
 public:
  explicit CublasXtBackend(BackendInfo info) : info_(std::move(info)) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override {
    std::string why = unavailable_reason();
    if (why.empty()) {
      try {
        cublasxt_block_dim();
        cublas_library();  // opened at first use: a missing cuBLAS makes the row unavailable
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    return {why.empty(), why};
  }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    if (shape.m < 1 || shape.n < 1 || shape.k < 1) throw std::invalid_argument("gemm needs M, N, K >= 1");
    check_layout(info(), shape);
    return std::make_unique<CublasXtWorkspace>(shape);
  }

 private:
  BackendInfo info_;
};

}  // namespace

int cublasxt_block_dim() {
  const char* text = std::getenv(kCublasXtBlockDimVariable);
  return text ? parse_cublasxt_block_dim(text) : kDefaultBlockDim;
}

std::unique_ptr<Backend> make_cublasxt_backend(BackendInfo info) {
  info.device = DeviceKind::gpu;
  info.multi_gpu = true;
  info.host_resident = true;
  return std::make_unique<CublasXtBackend>(std::move(info));
}

}  // namespace matcompare::gpu
