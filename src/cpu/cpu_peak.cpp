// The CPU's FP32 ceiling and memory bandwidth, measured (cpu_peak.hpp). The FMA loops are built for their
// instruction set with target attributes: each is a leaf that inlines nothing shared, so no AVX-512 instruction
// can reach code that runs on a CPU without it.
#include "cpu_peak.hpp"

#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "../core/number_text.hpp"

namespace matcompare::cpu {
namespace {

// Enough chains to cover two FMA ports times four cycles of latency, with room to spare.
constexpr int kChains = 12;
constexpr std::int64_t kTrips = 2'000'000;  // ~10 ms per try at 3 GHz with two AVX-512 FMA ports
constexpr int kTries = 3;      // reads of the buffer
constexpr int kFmaTries = 5;   // 10 ms each: a neighbour that takes a core for one is outvoted
constexpr std::size_t kHugePage = std::size_t(2) << 20;

struct Isa {
  const char* name;
  int lanes;
  float (*run)(std::int64_t trips);  // kChains FMAs of `lanes` floats per trip; returns a sum so none is dropped
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx512f"))) float fma_avx512(std::int64_t trips) {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm512_set1_ps(float(c));
  const __m512 scale = _mm512_set1_ps(0.999999f), shift = _mm512_set1_ps(1e-6f);
  for (std::int64_t t = 0; t < trips; ++t)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], scale, shift);
  for (int c = 1; c < kChains; ++c) acc[0] = _mm512_add_ps(acc[0], acc[c]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, acc[0]);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}

__attribute__((target("avx2,fma"))) float fma_avx2(std::int64_t trips) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_ps(float(c));
  const __m256 scale = _mm256_set1_ps(0.999999f), shift = _mm256_set1_ps(1e-6f);
  for (std::int64_t t = 0; t < trips; ++t)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], scale, shift);
  for (int c = 1; c < kChains; ++c) acc[0] = _mm256_add_ps(acc[0], acc[c]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc[0]);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}
#endif

// A multiply and an add per chain: two flops, whether or not the compiler fuses them.
float fma_scalar(std::int64_t trips) {
  float acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = float(c);
  for (std::int64_t t = 0; t < trips; ++t)
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * 0.999999f + 1e-6f;
  float sum = 0;
  for (float x : acc) sum += x;
  return sum;
}

Isa widest_isa() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (__builtin_cpu_supports("avx512f")) return {"AVX-512", 16, fma_avx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return {"AVX2", 8, fma_avx2};
#endif
  return {"scalar", 1, fma_scalar};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double fma_ceiling_gflops(const Isa& isa, int threads) {
  double best = 0;
  volatile float sink = 0;
  for (int attempt = 0; attempt < kFmaTries; ++attempt) {
    const auto start = std::chrono::steady_clock::now();
    int ran = 1;  // OpenMP may give fewer threads than asked (OMP_THREAD_LIMIT, a call from a parallel region)
#pragma omp parallel num_threads(threads)
    {
      const float s = isa.run(kTrips);
#pragma omp critical
      {
        sink = sink + s;
        ran = omp_get_num_threads();
      }
    }
    const double flops = double(kTrips) * kChains * isa.lanes * 2 * ran;
    best = std::max(best, flops / seconds_since(start) / 1e9);
  }
  return best;
}

// Twice the last-level cache, at least 128 MiB and at most 512 MiB and a quarter of the host's memory: past the cache,
// yet small enough to take a fraction of a second on every run.
std::size_t bandwidth_bytes() {
  const long llc = std::max(sysconf(_SC_LEVEL3_CACHE_SIZE), sysconf(_SC_LEVEL2_CACHE_SIZE));
  std::size_t bytes = std::max<std::size_t>(std::size_t(128) << 20, std::size_t(std::max(llc, 0L)) * 2);
  bytes = std::min<std::size_t>(bytes, std::size_t(512) << 20);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) bytes = std::min<std::size_t>(bytes, std::size_t(pages) * std::size_t(page) / 4);
  return bytes / kHugePage * kHugePage;
}

// The buffer's first touch and its reads, outside a sanitizer's checks: a sanitized build would time its own checks
// and take seconds on every run.
__attribute__((no_sanitize("address", "undefined"))) void fill(float* data, std::int64_t n, int threads) {
  // Each thread first touches the part it reads, so its pages are on its own memory node.
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) data[i] = 1.0f;
}

__attribute__((no_sanitize("address", "undefined"))) float sum(const float* data, std::int64_t n, int threads) {
  float total = 0;
#pragma omp parallel for simd schedule(static) num_threads(threads) reduction(+ : total)
  for (std::int64_t i = 0; i < n; ++i) total += data[i];
  return total;
}

double read_bandwidth_gbs(int threads, std::size_t bytes) {
  const std::int64_t n = std::int64_t(bytes / sizeof(float));
  // In 2 MiB pages where the kernel gives them: the first touch then costs a few hundred faults, not a hundred thousand.
  const std::unique_ptr<float, decltype(&std::free)> data(static_cast<float*>(std::aligned_alloc(kHugePage, bytes)),
                                                          &std::free);
  if (!data) return 0;
  madvise(data.get(), bytes, MADV_HUGEPAGE);
  fill(data.get(), n, threads);
  double best = 0;
  volatile float sink = 0;
  for (int attempt = 0; attempt < kTries; ++attempt) {
    const auto start = std::chrono::steady_clock::now();
    const float total = sum(data.get(), n, threads);
    best = std::max(best, double(bytes) / seconds_since(start) / 1e9);
    sink = sink + total;
  }
  return best;
}

}  // namespace

Peak measure_cpu_peak(int threads) {
  threads = std::max(threads, 1);
  const Isa isa = widest_isa();
  Peak peak;
  peak.device = DeviceKind::cpu;
  peak.fp32_gflops = fma_ceiling_gflops(isa, threads);
  const std::size_t bytes = bandwidth_bytes();
  peak.bandwidth_gbs = read_bandwidth_gbs(threads, bytes);
  peak.basis = "measured on " + std::to_string(threads) + " threads: FP32 " + std::to_string(kChains) +
               " independent " + isa.name + " FMA chains per thread, best of " + std::to_string(kFmaTries) + " (" +
               format(peak.fp32_gflops / threads < 100 ? "%.1f" : "%.0f", peak.fp32_gflops / threads) + " GFLOP/s per thread); memory: reading " +
               std::to_string(bytes >> 20) + " MiB in 2 MiB pages, best of " + std::to_string(kTries);
  return peak;
}

}  // namespace matcompare::cpu
