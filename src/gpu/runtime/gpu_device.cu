#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "device_state.cuh"
#include "gpu_runtime.hpp"
#include "l2_flush.hpp"

namespace matcompare::gpu {
namespace {

int g_device = 0;
std::vector<int> g_multi_devices;  // empty: the selected device alone
void* g_flush = nullptr;
std::size_t g_flush_bytes = 0;

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// Spins every SM for a fixed number of cycles; cycles over event time is the clock it ran at.
__global__ void spin_kernel(long long cycles, long long* sink) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0 && now == 0) *sink = now;
}

int observed_sm_clock_mhz(int multiprocessors) {
  constexpr long long kCycles = 20'000'000;
  long long* raw_sink = nullptr;
  MC_CUDA_CHECK(cudaMalloc(&raw_sink, sizeof(long long)));
  const std::unique_ptr<long long, decltype(&cudaFree)> sink(raw_sink, &cudaFree);
  cudaEvent_t raw_start = nullptr, raw_stop = nullptr;
  MC_CUDA_CHECK(cudaEventCreate(&raw_start));
  const std::unique_ptr<CUevent_st, decltype(&cudaEventDestroy)> start(raw_start, &cudaEventDestroy);
  MC_CUDA_CHECK(cudaEventCreate(&raw_stop));
  const std::unique_ptr<CUevent_st, decltype(&cudaEventDestroy)> stop(raw_stop, &cudaEventDestroy);
  spin_kernel<<<multiprocessors, 32>>>(kCycles / 10, sink.get());  // wakes the clocks up
  MC_CHECK_LAUNCH();
  MC_CUDA_CHECK(cudaEventRecord(start.get()));
  spin_kernel<<<multiprocessors, 32>>>(kCycles, sink.get());
  MC_CHECK_LAUNCH();
  MC_CUDA_CHECK(cudaEventRecord(stop.get()));
  MC_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  float ms = 0;
  MC_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms > 0 ? int(double(kCycles) / (double(ms) * 1000.0) + 0.5) : 0;
}

// What cudaGetDeviceProperties and the attributes say of GPU `index`, without touching its state.
GpuContext device_properties(int index) {
  cudaDeviceProp p{};
  MC_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  GpuContext g;
  g.index = index;
  g.name = p.name;
  g.compute_capability = std::to_string(p.major) + "." + std::to_string(p.minor);
  g.multiprocessors = p.multiProcessorCount;
  g.l2_mib = double(p.l2CacheSize) / (1 << 20);
  g.memory_gib = double(p.totalGlobalMem) / (1ull << 30);
  int khz = 0;
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index));
  g.sm_clock_max_mhz = khz / 1000;
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, index));
  g.memory_clock_max_mhz = khz / 1000;
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&g.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) g.pci_bus_id = bus;
  return g;
}

}  // namespace

int compute_capability() {
  int major = 0, minor = 0;
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, g_device));
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, g_device));
  return major * 10 + minor;
}

int multiprocessor_count() {
  int count = 0;
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, g_device));
  return count;
}

const Peak& selected_device_peak() {
  // Read once per device: cudaGetDeviceProperties takes milliseconds, and the rows that choose by it launch often.
  static std::mutex mutex;
  static std::map<int, Peak> peaks;
  const std::lock_guard<std::mutex> lock(mutex);
  auto at = peaks.find(g_device);
  if (at == peaks.end()) at = peaks.emplace(g_device, gpu_peak(device_properties(g_device))).first;
  return at->second;
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void set_multi_devices(const std::vector<int>& devices) { g_multi_devices = devices; }

std::vector<int> multi_devices() { return g_multi_devices.empty() ? std::vector<int>{g_device} : g_multi_devices; }

std::vector<GpuContext> describe_all_devices() {
  std::vector<GpuContext> all;
  for (int index = 0; index < device_count(); ++index) all.push_back(device_properties(index));
  return all;
}

void select_device(int index) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) throw CudaError(std::string("no usable GPU: ") + cudaGetErrorString(e));
  if (index < 0 || index >= count)
    throw std::runtime_error("--device " + std::to_string(index) + " does not exist: this machine has " +
                             std::to_string(count) + " GPU(s), numbered from 0");
  MC_CUDA_CHECK(cudaSetDevice(index));
  if (g_flush) MC_CUDA_CHECK(cudaFree(g_flush));
  g_flush = nullptr;
  g_device = index;
}

std::string unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
      return "no NVIDIA GPU or driver on this machine";
    return std::string("no usable GPU (") + cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no GPU found";
  return "";
}

void* l2_flush_buffer(std::size_t& bytes) {
  if (!g_flush) {
    MC_CUDA_CHECK(l2_flush_bytes(g_device, g_flush_bytes));
    MC_CUDA_CHECK(cudaMalloc(&g_flush, g_flush_bytes));
  }
  bytes = g_flush_bytes;
  return g_flush;
}

void recover_if_broken() {
  if (cudaDeviceSynchronize() == cudaSuccess) return;
  cudaGetLastError();
  MC_CUDA_CHECK(cudaDeviceReset());
  g_flush = nullptr;
  MC_CUDA_CHECK(cudaSetDevice(g_device));
}

std::optional<GpuContext> describe_device(std::string& why_not) {
  why_not = unavailable_reason();
  if (!why_not.empty()) return std::nullopt;
  try {
    recover_if_broken();  // a fault in the last GPU row must not hide the GPU from the context
    GpuContext g = device_properties(g_device);
    int v = 0;
    MC_CUDA_CHECK(cudaDriverGetVersion(&v));
    g.driver_version = version_text(v);
    MC_CUDA_CHECK(cudaRuntimeGetVersion(&v));
    g.runtime_version = version_text(v);
    int major = 0, minor = 0, patch = 0;
    MC_CUBLAS_CHECK(cublas_library().cublasGetProperty(MAJOR_VERSION, &major));
    MC_CUBLAS_CHECK(cublas_library().cublasGetProperty(MINOR_VERSION, &minor));
    MC_CUBLAS_CHECK(cublas_library().cublasGetProperty(PATCH_LEVEL, &patch));
    g.cublas_version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    std::size_t flush_bytes = 0;
    l2_flush_buffer(flush_bytes);
    g.cache_policy = "L2 flushed by writing " + std::to_string(flush_bytes >> 20) +
                     " MiB (2x L2) on the device between samples";
    g.sm_clock_observed_mhz = observed_sm_clock_mhz(g.multiprocessors);
    return g;
  } catch (const std::exception& e) {
    why_not = e.what();
    return std::nullopt;
  }
}

}  // namespace matcompare::gpu
