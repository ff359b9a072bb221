#include "sm_clock.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <map>
#include <mutex>

namespace matcompare {
namespace {

// The four NVML entry points used, as nvml.h declares them (C functions, stable since NVML 6): every one returns
// nvmlReturn_t, 0 on success; NVML_CLOCK_SM is 1.
using NvmlDevice = void*;
using InitFn = int (*)();
using HandleByBusIdFn = int (*)(const char*, NvmlDevice*);
using ClockFn = int (*)(NvmlDevice, int, unsigned int*);
constexpr int kNvmlClockSm = 1;

struct Nvml {
  InitFn init = nullptr;
  HandleByBusIdFn handle_by_bus_id = nullptr;
  ClockFn clock = nullptr, max_clock = nullptr;
  bool ready = false;
  std::mutex mutex;
  // CUDA ordinal -> NVML handle (the two may number devices differently) and its maximum SM clock, asked once: the
  // clock is read after every timed run, and each NVML call is a call into the driver.
  struct Device {
    NvmlDevice handle = nullptr;
    unsigned int max_mhz = 0;
  };
  std::map<int, Device> devices;
};

Nvml& nvml() {
  static Nvml n;
  static std::once_flag loaded;
  std::call_once(loaded, [] {
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    n.init = reinterpret_cast<InitFn>(dlsym(library, "nvmlInit_v2"));
    n.handle_by_bus_id = reinterpret_cast<HandleByBusIdFn>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
    n.clock = reinterpret_cast<ClockFn>(dlsym(library, "nvmlDeviceGetClockInfo"));
    n.max_clock = reinterpret_cast<ClockFn>(dlsym(library, "nvmlDeviceGetMaxClockInfo"));
    n.ready = n.init && n.handle_by_bus_id && n.clock && n.max_clock && n.init() == 0;
  });
  return n;
}

}  // namespace

ClockReading read_sm_clock(int cuda_device) {
  Nvml& n = nvml();
  if (!n.ready) return {};
  Nvml::Device device;
  {
    std::lock_guard<std::mutex> lock(n.mutex);
    auto found = n.devices.find(cuda_device);
    if (found == n.devices.end()) {
      char bus_id[32] = {};
      Nvml::Device d;
      if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess ||
          n.handle_by_bus_id(bus_id, &d.handle) != 0 || n.max_clock(d.handle, kNvmlClockSm, &d.max_mhz) != 0)
        d = {};
      found = n.devices.emplace(cuda_device, d).first;
    }
    device = found->second;
  }
  unsigned int mhz = 0;
  if (!device.handle || n.clock(device.handle, kNvmlClockSm, &mhz) != 0) return {};
  return {double(mhz), double(device.max_mhz)};
}

}  // namespace matcompare
