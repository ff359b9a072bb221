// The one place GPU data is allocated, moved and timed: every GPU step only supplies a launch.
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>


#include "../../core/workspace_checks.hpp"
#include "cuda_check.cuh"
#include "device_gemm.cuh"
#include "device_state.cuh"
#include "gpu_runtime.hpp"
#include "sm_clock.hpp"

namespace matcompare::gpu {
namespace {

int round_up(std::int64_t x, int multiple) { return int((x + multiple - 1) / multiple * multiple); }

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / double(1ull << 30));
  return text;
}

// A pitched, zero-filled device matrix (cudaMallocPitch keeps every row start aligned).
struct PitchedMatrix {
  float* data = nullptr;
  int rows = 0, cols = 0, ld = 0;

  PitchedMatrix(int r, int c) : rows(r), cols(c) {
    std::size_t pitch = 0;
    MC_CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&data), &pitch, std::size_t(c) * sizeof(float), r));
    ld = int(pitch / sizeof(float));
    try {
      // The memset runs on the legacy stream, which the workspace's non-blocking stream does not
      // wait for: finish it here, before any upload can be overtaken by it.
      MC_CUDA_CHECK(cudaMemset2D(data, pitch, 0, std::size_t(c) * sizeof(float), r));
      MC_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (...) {
      cudaFree(data);
      throw;
    }
  }
  PitchedMatrix(const PitchedMatrix&) = delete;
  PitchedMatrix& operator=(const PitchedMatrix&) = delete;
  ~PitchedMatrix() { cudaFree(data); }
  std::size_t pitch() const { return std::size_t(ld) * sizeof(float); }
};

class EventStopwatch final : public Stopwatch {
 public:
  explicit EventStopwatch(cudaStream_t stream) : stream_(stream) {
    MC_CUDA_CHECK(cudaEventCreate(&start_));
    const cudaError_t e = cudaEventCreate(&stop_);
    if (e != cudaSuccess) {
      cudaEventDestroy(start_);
      MC_CUDA_CHECK(e);
    }
  }
  ~EventStopwatch() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() override { MC_CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  void stop() override { MC_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }
  double elapsed_ms() override {
    MC_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    MC_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_{}, stop_{};
};

std::size_t pitched_bytes(int rows, int cols) {
  return std::size_t(rows) * (std::size_t(round_up(cols, 128)) * sizeof(float));
}

class GpuWorkspace final : public Workspace {
 public:
  GpuWorkspace(const GemmShape& s, const GpuKernelSpec& spec)
      : shape_(s),
        spec_(spec),
        m_p_(round_up(s.m, spec.pad_m)),
        n_p_(round_up(s.n, spec.pad_n)),
        k_p_(round_up(s.k, spec.pad_k)),
        a_((check_memory(s, spec), a_transposed(s.layout) ? k_p_ : m_p_),
           a_transposed(s.layout) ? stored_m_cols() : k_p_),
        b_(b_transposed(s.layout) ? n_p_ : k_p_, b_transposed(s.layout) ? k_p_ : n_p_),
        c_(m_p_, n_p_) {
    // The destructor does not run when the constructor throws: release what was made so far.
    try {
      if (spec.scratch_bytes) {
        scratch_bytes_ = spec.scratch_bytes(s);
        if (scratch_bytes_) {
          MC_CUDA_CHECK(cudaMalloc(&scratch_, scratch_bytes_));
          // Zeroed once: the few-rows kernels' tile counters start at zero, and each run leaves them so. The memset
          // runs on the legacy stream, which the workspace's non-blocking stream does not wait for: wait here.
          MC_CUDA_CHECK(cudaMemset(scratch_, 0, scratch_bytes_));
          MC_CUDA_CHECK(cudaDeviceSynchronize());
        }
      }
      MC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      if (spec.uses_cublas) {
        MC_CUBLAS_CHECK(cublas_library().cublasCreate(&cublas_));
        MC_CUBLAS_CHECK(cublas_library().cublasSetStream(cublas_, stream_));
      }
      if (spec.uses_cublaslt) MC_CUBLASLT_CHECK(cublas_library().cublasLtCreate(&cublaslt_));
    } catch (...) {
      release();
      throw;
    }
  }
  ~GpuWorkspace() override { release(); }

  void upload(const MatrixF& a, const MatrixF& b) override {
    copy_in(a_, a, stored_a_rows(shape_), stored_a_cols(shape_), "A");
    copy_in(b_, b, stored_b_rows(shape_), stored_b_cols(shape_), "B");
    synchronize();
    if (spec_.choose) choose();
  }
  void set_output(const MatrixF& c) override {
    copy_in(c_, c, shape_.m, shape_.n, "C");
    synchronize();
  }
  void compute(float alpha, float beta) override {
    if (spec_.choose && !chosen_) choose();
    spec_.launch(gemm(alpha, beta));
  }
  void download(MatrixF& c) override {
    if (std::int64_t(c.rows()) != shape_.m || std::int64_t(c.cols()) != shape_.n)
      throw std::invalid_argument("download target has the wrong shape");
    MC_CUDA_CHECK(cudaMemcpy2DAsync(c.data(), std::size_t(shape_.n) * sizeof(float), c_.data, c_.pitch(),
                                    std::size_t(shape_.n) * sizeof(float), shape_.m, cudaMemcpyDeviceToHost,
                                    stream_));
    synchronize();
  }
  void poison_output(const GemmShape&) override {
    // All bits set is a NaN; a byte-wise fill needs no host copy.
    MC_CUDA_CHECK(cudaMemset2DAsync(c_.data, c_.pitch(), 0xFF, std::size_t(shape_.n) * sizeof(float), shape_.m,
                                    stream_));
    synchronize();
  }
  void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) override {
    check_download_rows(rows, shape, shape_, out);
    for (std::size_t i = 0; i < rows.size(); ++i)
      MC_CUDA_CHECK(cudaMemcpyAsync(&out(i, 0), c_.data + std::size_t(rows[i]) * c_.pitch() / sizeof(float),
                                    std::size_t(shape_.n) * sizeof(float), cudaMemcpyDeviceToHost, stream_));
    synchronize();
  }
  void flush_cache() override {
    std::size_t bytes = 0;
    void* buffer = l2_flush_buffer(bytes);
    MC_CUDA_CHECK(cudaMemsetAsync(buffer, ++flush_value_, bytes, stream_));
  }
  void synchronize() override { MC_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  std::unique_ptr<Stopwatch> stopwatch() override { return std::make_unique<EventStopwatch>(stream_); }
  std::string kernel() const override { return kernel_; }
  ClockReading clock() override {
    int device = 0;
    MC_CUDA_CHECK(cudaGetDevice(&device));
    return read_sm_clock(device);
  }

 private:
  DeviceGemm gemm(float alpha, float beta) const {
    return DeviceGemm{int(shape_.m), int(shape_.n), int(shape_.k), m_p_, n_p_, k_p_, a_transposed(shape_.layout),
                      b_transposed(shape_.layout), a_.data, a_.ld, b_.data, b_.ld, c_.data, c_.ld, alpha, beta,
                      scratch_, scratch_bytes_, stream_, cublas_, cublaslt_, choice_};
  }
  // Outside every timed region (see GpuKernelSpec::choosing_with); the choice's own work is finished on return.
  void choose() {
    KernelChoice chosen = spec_.choose(gemm(1.0f, 0.0f));
    kernel_ = std::move(chosen.kernel);
    choice_ = chosen.plan;
    synchronize();
    chosen_ = true;
  }

  // A stored transposed has M along its rows: padded to whole float4s, as every row is.
  int stored_m_cols() const { return round_up(m_p_, 4); }

  // Runs before any allocation (in a_'s initialiser, the first matrix): a clear message beats an OOM. A transposed
  // operand takes the same bytes within the rounding of its rows.
  static void check_memory(const GemmShape& s, const GpuKernelSpec& spec) {
    const int m = round_up(s.m, spec.pad_m), n = round_up(s.n, spec.pad_n), k = round_up(s.k, spec.pad_k);
    const double need = double(pitched_bytes(m, k)) + double(pitched_bytes(k, n)) + double(pitched_bytes(m, n)) +
                        double(spec.scratch_bytes ? spec.scratch_bytes(s) : 0);
    std::size_t free_bytes = 0, total_bytes = 0;
    MC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > double(free_bytes))
      throw ResourceLimit("needs " + gib(need) + " of GPU memory for " + std::to_string(s.m) + "x" +
                               std::to_string(s.n) + "x" + std::to_string(s.k) + " but only " +
                               gib(double(free_bytes)) + " is free");
  }

  void copy_in(PitchedMatrix& dst, const MatrixF& src, std::int64_t rows, std::int64_t cols, const char* what) {
    if (std::int64_t(src.rows()) != rows || std::int64_t(src.cols()) != cols)
      throw std::invalid_argument(std::string(what) + " has the wrong shape for this workspace");
    MC_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch(), src.data(), std::size_t(cols) * sizeof(float),
                                    std::size_t(cols) * sizeof(float), rows, cudaMemcpyHostToDevice, stream_));
  }

  void release() noexcept {
    if (cublaslt_) cublas_library().cublasLtDestroy(cublaslt_);
    if (cublas_) cublas_library().cublasDestroy(cublas_);
    if (stream_) cudaStreamDestroy(stream_);
    cudaFree(scratch_);
  }

  GemmShape shape_;
  GpuKernelSpec spec_;
  int m_p_, n_p_, k_p_;
  PitchedMatrix a_, b_, c_;
  void* scratch_ = nullptr;
  std::size_t scratch_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  cublasLtHandle_t cublaslt_ = nullptr;
  bool chosen_ = false;
  std::string kernel_;
  const void* choice_ = nullptr;
  unsigned char flush_value_ = 0;
};

class GpuBackend final : public Backend {
 public:
  GpuBackend(BackendInfo info, GpuKernelSpec spec) : info_(std::move(info)), spec_(spec) {}
  const BackendInfo& info() const override { return info_; }
  Availability availability() const override {
    std::string why = unavailable_reason();
    if (why.empty() && (spec_.uses_cublas || spec_.uses_cublaslt)) {
      try {  // the vendor rows open cuBLAS at their first use: one that is missing makes them unavailable
        cublas_library();
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    if (why.empty() && spec_.min_compute_capability > 0) {
      try {  // the harness asks before its own error handling: report, never throw
        const int have = compute_capability();
        if (have < spec_.min_compute_capability)
          why = "needs compute capability " + std::to_string(spec_.min_compute_capability / 10) + "." +
                std::to_string(spec_.min_compute_capability % 10) + " or newer; this GPU has " +
                std::to_string(have / 10) + "." + std::to_string(have % 10);
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    return {why.empty(), why};
  }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    if (shape.m < 1 || shape.n < 1 || shape.k < 1) throw std::invalid_argument("gemm needs M, N, K >= 1");
    check_layout(info(), shape);
    constexpr std::int64_t kMaxExtent = (1ll << 31) - 1024;
    if (shape.m > kMaxExtent || shape.n > kMaxExtent || shape.k > kMaxExtent)
      throw ResourceLimit("GPU backends take M, N, K up to " + std::to_string(kMaxExtent));
    recover_if_broken();
    return std::make_unique<GpuWorkspace>(shape, spec_);
  }

 private:
  BackendInfo info_;
  GpuKernelSpec spec_;
};

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(BackendInfo info, GpuKernelSpec spec) {
  info.device = DeviceKind::gpu;
  return std::make_unique<GpuBackend>(std::move(info), spec);
}

}  // namespace matcompare::gpu
