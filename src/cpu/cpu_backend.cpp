#include "cpu_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "../core/workspace_checks.hpp"
#include "cache_flush.hpp"

namespace matcompare::cpu {
namespace {

class SteadyStopwatch final : public Stopwatch {
 public:
  void start() override { start_ = std::chrono::steady_clock::now(); }
  void stop() override { stop_ = std::chrono::steady_clock::now(); }
  double elapsed_ms() override { return std::chrono::duration<double, std::milli>(stop_ - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_, stop_;
};

class CpuWorkspace final : public Workspace {
 public:
  CpuWorkspace(const GemmShape& s, CpuKernel kernel)
      : shape_(s), kernel_(kernel), a_(stored_a_rows(s), stored_a_cols(s)), b_(stored_b_rows(s), stored_b_cols(s)),
        c_(s.m, s.n) {}

  void upload(const MatrixF& a, const MatrixF& b) override {
    copy_into(a_, a, "A");
    copy_into(b_, b, "B");
  }
  void set_output(const MatrixF& c) override { copy_into(c_, c, "C"); }
  void poison_output(const GemmShape&) override {
    std::fill(c_.data(), c_.data() + c_.size(), std::numeric_limits<float>::quiet_NaN());
  }
  void compute(float alpha, float beta) override {
    kernel_(HostGemm{shape_.m, shape_.n, shape_.k, alpha, beta, a_.data(), std::int64_t(a_.cols()), b_.data(),
                     std::int64_t(b_.cols()), c_.data(), shape_.n, a_transposed(shape_.layout),
                     b_transposed(shape_.layout)});
  }
  void download(MatrixF& c) override { copy_into(c, c_, "C"); }
  void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) override {
    check_download_rows(rows, shape, shape_, out);
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::copy_n(&c_(std::size_t(rows[i]), 0), c_.cols(), &out(i, 0));
  }
  void flush_cache() override { flush_host_cache(); }
  void synchronize() override {}
  std::unique_ptr<Stopwatch> stopwatch() override { return std::make_unique<SteadyStopwatch>(); }

 private:
  static void copy_into(MatrixF& dst, const MatrixF& src, const char* what) {
    if (dst.rows() != src.rows() || dst.cols() != src.cols())
      throw std::invalid_argument(std::string(what) + " is " + std::to_string(src.rows()) + "x" +
                                  std::to_string(src.cols()) + " but the workspace holds " +
                                  std::to_string(dst.rows()) + "x" + std::to_string(dst.cols()));
    std::memcpy(dst.data(), src.data(), src.size() * sizeof(float));
  }

  GemmShape shape_;
  CpuKernel kernel_;
  MatrixF a_, b_, c_;
};

class CpuBackend final : public Backend {
 public:
  CpuBackend(BackendInfo info, CpuKernel kernel) : info_(std::move(info)), kernel_(kernel) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override { return {true, ""}; }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    if (shape.m < 1 || shape.n < 1 || shape.k < 1) throw std::invalid_argument("gemm needs M, N, K >= 1");
    check_layout(info_, shape);
    return std::make_unique<CpuWorkspace>(shape, kernel_);
  }

 private:
  BackendInfo info_;
  CpuKernel kernel_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(BackendInfo info, CpuKernel kernel) {
  info.device = DeviceKind::cpu;
  return std::make_unique<CpuBackend>(std::move(info), kernel);
}

void scale_c_by_beta(const HostGemm& g) {
  for (std::int64_t i = 0; i < g.m; ++i) {
    float* row = g.c + i * g.ldc;
    if (g.beta == 0.0f)
      std::fill(row, row + g.n, 0.0f);
    else
      for (std::int64_t j = 0; j < g.n; ++j) row[j] *= g.beta;
  }
}

}  // namespace matcompare::cpu
