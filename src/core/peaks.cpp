// The ceilings a result is measured against (context.hpp: Peak). A GPU's come from its properties and NVIDIA's
// per-SM rates; the CPU's are measured (src/cpu/cpu_peak.cpp), since no property says how many FMA units a core has.
#include <cstdio>
#include <string>

#include "matcompare/context.hpp"
#include "number_text.hpp"

namespace matcompare {
namespace {

// FP32 lanes (FMA units) per SM, by compute capability: 64 on Volta, Turing and GA100; 128 since GA10x.
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7 || (major == 8 && minor == 0)) return 64;
  if (major >= 8) return 128;
  return 0;
}

// Dense TF32 tensor-core flops per SM per clock, where NVIDIA's whitepapers give them: A100, GA10x and AD10x, Hopper.
int tf32_flops_per_sm_clock(int major, int minor) {
  if (major == 8 && minor == 0) return 1024;
  if (major == 8 && (minor == 6 || minor == 7 || minor == 9)) return 256;
  if (major == 9 && minor == 0) return 2048;
  return 0;
}

}  // namespace

Peak gpu_peak(const GpuContext& gpu) {
  Peak peak;
  peak.device = DeviceKind::gpu;
  peak.name = gpu.name;
  int major = 0, minor = 0;
  if (std::sscanf(gpu.compute_capability.c_str(), "%d.%d", &major, &minor) != 2) major = minor = 0;
  const double sms = gpu.multiprocessors, ghz = gpu.sm_clock_max_mhz / 1000.0;
  const int lanes = fp32_lanes_per_sm(major, minor), tf32 = tf32_flops_per_sm_clock(major, minor);
  const std::string cc = "sm " + gpu.compute_capability;
  peak.fp32_gflops = sms * lanes * 2 * ghz;
  peak.basis = "FP32: " + std::to_string(gpu.multiprocessors) + " SMs x " + std::to_string(lanes) +
               " lanes x 2 flops x " + std::to_string(gpu.sm_clock_max_mhz) + " MHz (the rated SM clock)";
  if (lanes == 0) peak.basis = "FP32: lanes per SM unknown for " + cc;
  peak.tf32_gflops = sms * tf32 * ghz;
  if (tf32 > 0)
    peak.basis += "; TF32: " + std::to_string(gpu.multiprocessors) + " SMs x " + std::to_string(tf32) +
                  " dense flops per clock x the same clock";
  else if (major >= 8)
    peak.basis += "; TF32: per-SM rate unknown for " + cc;
  peak.bandwidth_gbs = gpu.memory_clock_max_mhz * 2.0 * gpu.memory_bus_bits / 8 / 1000;
  if (peak.bandwidth_gbs > 0)
    peak.basis += "; memory: " + std::to_string(gpu.memory_clock_max_mhz) + " MHz x 2 (double data rate) x " +
                  std::to_string(gpu.memory_bus_bits) + "-bit bus = " + format("%.0f", peak.bandwidth_gbs) + " GB/s";
  return peak;
}

double peak_gflops(const RunContext& context, const BenchmarkResult& result) {
  for (const Peak& peak : context.peaks) {
    if (peak.device != result.backend.device) continue;
    const double rate = result.backend.precision == Precision::tf32 ? peak.tf32_gflops : peak.fp32_gflops;
    return rate * (result.backend.multi_gpu && result.devices > 1 ? result.devices : 1);
  }
  return 0;
}

}  // namespace matcompare
