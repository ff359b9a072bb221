// The vendor rows timed outside matcompare (issue 29: every vendor row within 3% of an independent timing of the same
// library call). Shares no code with the library: its own allocation, data, L2 flush, events and cuBLASLt search.
//
//   build/bench/matcompare-independent-vendors [--min-time S] [--sustained] 1024 2048 4096 8192 7680x16x2560
//
// For each size (N for N×N×N, or MxNxK) it times, on one non-blocking stream with the L2 made cold before every run
// by writing a buffer of twice its size (as matcompare's samples are):
//   cublasSgemm with the default math (gpu/cublas-fp32) and with TF32 tensor-op math (gpu/cublas-tf32);
//   cublasLtMatmul with FP32 and with TF32 compute (gpu/cublaslt-fp32, gpu/cublaslt-tf32), its algorithm searched
//   first as NVIDIA's LtSgemmSimpleAutoTuning sample does: the heuristic's best 8 candidates, each run once untimed
//   and 5 times timed (cold L2), the fastest median kept.
// Row-major C = A·B runs as the column-major Cᵀ = Bᵀ·Aᵀ on rows pitched by cudaMallocPitch, the layout matcompare's
// GPU rows get. Inputs are uniform in [-1, 1]; β = 0. Each configuration takes at least 20 samples and S seconds of
// timed work (0.5 unless --min-time says otherwise) after 3 untimed runs; the median is reported, and beside it the
// medians of the first and the last tenth of the samples, which show whether the GPU slowed down under the
// sustained load (its clock falls when the board reaches its power limit). As nvbench does (with a tighter threshold,
// the one matcompare uses), a sample after which the SM clock reads under 95% of its maximum is dropped and the GPU
// given 50 ms to recover; --sustained keeps every sample instead, to show what back-to-back runs get. The clock comes
// from NVML, loaded here on its own. One JSON line per size and configuration.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "CUDA error %s in %s\n", cudaGetErrorString(e), what);
  std::exit(2);
}
void check(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "cuBLAS error %s in %s\n", cublasGetStatusName(s), what);
  std::exit(2);
}
#define CHECK(expr) check((expr), #expr)

// The SM clock of CUDA device 0 through NVML (nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetClockInfo
// and nvmlDeviceGetMaxClockInfo as nvml.h declares them; NVML_CLOCK_SM is 1), found by its PCI bus id since the two
// may number devices differently. Unknown (0) without a driver's NVML.
class SmClock {
 public:
  SmClock() {
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0) != cudaSuccess) return;
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    auto init = reinterpret_cast<int (*)()>(dlsym(library, "nvmlInit_v2"));
    auto handle = reinterpret_cast<int (*)(const char*, void**)>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(library, "nvmlDeviceGetClockInfo"));
    auto max_clock = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(library, "nvmlDeviceGetMaxClockInfo"));
    if (!init || !handle || !clock_ || !max_clock || init() != 0 || handle(bus_id, &device_) != 0 ||
        max_clock(device_, 1, &max_mhz_) != 0)
      device_ = nullptr;
  }
  unsigned mhz() const {
    unsigned value = 0;
    return device_ && clock_(device_, 1, &value) == 0 ? value : 0;
  }
  unsigned max_mhz() const { return device_ ? max_mhz_ : 0; }

 private:
  void* device_ = nullptr;
  int (*clock_)(void*, int, unsigned*) = nullptr;
  unsigned max_mhz_ = 0;
};

struct Shape {
  int m, n, k;
};

bool parse_shape(const char* text, Shape& s) {
  int m = 0, n = 0, k = 0;
  char rest = 0;
  if (std::sscanf(text, "%dx%dx%d%c", &m, &n, &k, &rest) == 3 && m > 0 && n > 0 && k > 0) {
    s = {m, n, k};
    return true;
  }
  if (std::sscanf(text, "%d%c", &m, &rest) == 1 && m > 0) {
    s = {m, m, m};
    return true;
  }
  return false;
}

// A pitched row-major matrix, filled from the host.
struct Matrix {
  float* data = nullptr;
  int ld = 0;
  Matrix(int rows, int cols, std::mt19937_64& rng) {
    std::size_t pitch = 0;
    CHECK(cudaMallocPitch(reinterpret_cast<void**>(&data), &pitch, std::size_t(cols) * sizeof(float), rows));
    ld = int(pitch / sizeof(float));
    std::vector<float> host(std::size_t(rows) * std::size_t(cols));
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& x : host) x = uniform(rng);
    CHECK(cudaMemcpy2D(data, pitch, host.data(), std::size_t(cols) * sizeof(float), std::size_t(cols) * sizeof(float),
                       rows, cudaMemcpyHostToDevice));
  }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  ~Matrix() { cudaFree(data); }
};

// What one configuration's samples read: the median of all, of the first tenth and of the last tenth.
struct Timing {
  double median_ms = 0, first_ms = 0, last_ms = 0, clock_mhz = 0;
  int samples = 0, dropped = 0;
};

struct Bench {
  double min_time_ms = 500.0;
  bool sustained = false;
  SmClock clock;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* flush = nullptr;
  std::size_t flush_bytes = 0;
  int flush_value = 0;

  Bench() {
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int device = 0, l2 = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    flush_bytes = 2 * std::size_t(l2 > 0 ? l2 : 64 << 20);
    CHECK(cudaMalloc(&flush, flush_bytes));
  }
  ~Bench() {
    cudaFree(flush);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
  }

  // One run between events, the L2 cold before it.
  template <typename Run>
  float cold_ms(Run run) {
    CHECK(cudaMemsetAsync(flush, ++flush_value & 0xff, flush_bytes, stream));
    CHECK(cudaEventRecord(start, stream));
    run();
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }

  template <typename Run>
  Timing timing(Run run) {
    for (int i = 0; i < 3; ++i) run();
    CHECK(cudaStreamSynchronize(stream));
    std::vector<float> ms;
    std::vector<unsigned> mhz;
    double timed = 0;
    int dropped = 0, dropped_in_a_row = 0;
    const auto began = std::chrono::steady_clock::now();
    while (ms.size() < 20 || timed < min_time_ms) {
      const float t = cold_ms(run);
      const unsigned now_mhz = clock.mhz();
      if (!sustained && now_mhz && now_mhz < 0.95 * clock.max_mhz() && dropped_in_a_row < 20) {
        ++dropped, ++dropped_in_a_row;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      dropped_in_a_row = 0;
      ms.push_back(t);
      mhz.push_back(now_mhz);
      timed += ms.back();
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      if (ms.size() >= 20000 || (ms.size() >= 5 && wall > 20.0)) break;
    }
    const std::size_t tenth = std::max<std::size_t>(1, ms.size() / 10);
    std::sort(mhz.begin(), mhz.end());
    return {median(ms), median({ms.begin(), ms.begin() + tenth}), median({ms.end() - tenth, ms.end()}),
            double(mhz[mhz.size() / 2]), int(ms.size()), dropped};
  }

  static double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    const std::size_t mid = v.size() / 2;
    return v.size() % 2 ? v[mid] : 0.5 * (double(v[mid - 1]) + double(v[mid]));
  }
};

void print(const char* device, const Shape& s, const char* row, const char* call, const Timing& t, double min_time_s,
           const std::string& algo) {
  const double tflops = 2.0 * double(s.m) * double(s.n) * double(s.k) / (t.median_ms * 1e9);
  std::printf("{\"device\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"row\": \"%s\", \"call\": \"%s\", "
              "\"median_ms\": %.6f, \"first_tenth_ms\": %.6f, \"last_tenth_ms\": %.6f, \"tflops\": %.3f, "
              "\"samples\": %d, \"dropped_at_lowered_clock\": %d, \"clock_mhz\": %.0f, \"min_time_s\": %g, "
              "\"algo\": \"%s\"}\n",
              device, s.m, s.n, s.k, row, call, t.median_ms, t.first_ms, t.last_ms, tflops, t.samples, t.dropped,
              t.clock_mhz, min_time_s, algo.c_str());
  std::fflush(stdout);
}

template <typename T>
T algo_attribute(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
  T value{};
  std::size_t written = 0;
  CHECK(cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof value, &written));
  return value;
}

// The numbers cublasLt.h gives (matcompare names them; the ids are compared as they are).
std::string algo_ids(const cublasLtMatmulAlgo_t& algo, int index, int count) {
  char text[200];
  std::snprintf(text, sizeof text, "algo %d tile-id %u stages-id %u split-K %d reduction %u swizzle %u cluster-id %u; "
                "candidate %d of %d",
                algo_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID),
                algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID),
                algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID),
                algo_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM),
                algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME),
                algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING),
                unsigned(algo_attribute<std::uint16_t>(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID)), index + 1, count);
  return text;
}

void time_lt(Bench& bench, cublasLtHandle_t lt, const char* device, const Shape& s, const Matrix& a, const Matrix& b,
             Matrix& c, cublasComputeType_t compute, const char* row, const char* call) {
  constexpr std::size_t kWorkspaceBytes = std::size_t(32) << 20;
  void* workspace = nullptr;
  CHECK(cudaMalloc(&workspace, kWorkspaceBytes));
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  CHECK(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F));
  CHECK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, s.n, s.k, b.ld));  // Bᵀ, column-major n×k
  CHECK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, s.k, s.m, a.ld));  // Aᵀ, column-major k×m
  CHECK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, s.n, s.m, c.ld));  // Cᵀ, column-major n×m
  CHECK(cublasLtMatmulPreferenceCreate(&preference));
  const std::uint64_t workspace_bytes = kWorkspaceBytes;
  CHECK(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                             sizeof workspace_bytes));
  cublasLtMatmulHeuristicResult_t proposed[8] = {};
  int count = 0;
  CHECK(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, preference, 8, proposed, &count));
  const float one = 1.0f, zero = 0.0f;
  auto run_with = [&](const cublasLtMatmulAlgo_t& algo) {
    return cublasLtMatmul(lt, desc, &one, b.data, la, a.data, lb, &zero, c.data, lc, c.data, lc, &algo, workspace,
                          kWorkspaceBytes, bench.stream);
  };
  int best = -1;
  double best_ms = 0;
  for (int i = 0; i < count; ++i) {
    if (proposed[i].state != CUBLAS_STATUS_SUCCESS || run_with(proposed[i].algo) != CUBLAS_STATUS_SUCCESS) continue;
    CHECK(cudaStreamSynchronize(bench.stream));
    std::vector<float> ms;
    for (int r = 0; r < 5; ++r) ms.push_back(bench.cold_ms([&] { CHECK(run_with(proposed[i].algo)); }));
    const double median = Bench::median(ms);
    if (best < 0 || median < best_ms) best = i, best_ms = median;
  }
  if (best < 0) {
    std::fprintf(stderr, "no cuBLASLt candidate ran for %dx%dx%d (%s)\n", s.m, s.n, s.k, call);
  } else {
    const Timing t = bench.timing([&] { CHECK(run_with(proposed[best].algo)); });
    print(device, s, row, call, t, bench.min_time_ms / 1000.0, algo_ids(proposed[best].algo, best, count));
  }
  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatmulDescDestroy(desc);
  cudaFree(workspace);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Shape> shapes;
  double min_time_s = 0.5;
  bool sustained = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--sustained") {
      sustained = true;
      continue;
    }
    if (std::string(argv[i]) == "--min-time") {
      char* end = nullptr;
      min_time_s = i + 1 < argc ? std::strtod(argv[i + 1], &end) : -1.0;
      if (!end || *end || !(min_time_s >= 0.0 && min_time_s <= 60.0)) {
        std::fprintf(stderr, "%s: --min-time takes seconds in [0, 60]\n", argv[0]);
        return 1;
      }
      ++i;
      continue;
    }
    Shape s{};
    if (!parse_shape(argv[i], s)) {
      std::fprintf(stderr, "usage: %s SIZE|MxNxK ...  (bad size '%s')\n", argv[0], argv[i]);
      return 1;
    }
    shapes.push_back(s);
  }
  if (shapes.empty()) shapes = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  Bench bench;
  bench.min_time_ms = 1000.0 * min_time_s;
  bench.sustained = sustained;
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t lt = nullptr;
  CHECK(cublasCreate(&handle));
  CHECK(cublasSetStream(handle, bench.stream));
  CHECK(cublasLtCreate(&lt));
  std::mt19937_64 rng(29);
  for (const Shape& s : shapes) {
    const Matrix a(s.m, s.k, rng), b(s.k, s.n, rng);
    Matrix c(s.m, s.n, rng);
    const float one = 1.0f, zero = 0.0f;
    for (const bool tf32 : {false, true}) {
      CHECK(cublasSetMathMode(handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
      const Timing t = bench.timing(
          [&] {
            CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b.data, b.ld, a.data, a.ld, &zero,
                              c.data, c.ld));
          });
      print(prop.name, s, tf32 ? "gpu/cublas-tf32" : "gpu/cublas-fp32",
            tf32 ? "cublasSgemm TF32 tensor-op math" : "cublasSgemm default math", t, min_time_s, "");
    }
    time_lt(bench, lt, prop.name, s, a, b, c, CUBLAS_COMPUTE_32F, "gpu/cublaslt-fp32", "cublasLtMatmul COMPUTE_32F");
    time_lt(bench, lt, prop.name, s, a, b, c, CUBLAS_COMPUTE_32F_FAST_TF32, "gpu/cublaslt-tf32",
            "cublasLtMatmul COMPUTE_32F_FAST_TF32");
  }
  cublasLtDestroy(lt);
  cublasDestroy(handle);
  return 0;
}
