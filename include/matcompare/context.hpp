#pragma once
// The machine a result was measured on: every report carries it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "matcompare/suite.hpp"

namespace matcompare {

struct GpuContext {
  int index = 0;
  std::string name;
  std::string compute_capability;   // "9.0"
  int multiprocessors = 0;
  double l2_mib = 0;
  double memory_gib = 0;
  int sm_clock_max_mhz = 0;         // the device's rated peak
  int sm_clock_observed_mhz = 0;    // measured by a clock64() spin right after the benchmarks, while warm
  int memory_clock_max_mhz = 0;
  int memory_bus_bits = 0;          // 0 where unknown (runs saved before it was recorded)
  std::string driver_version;       // CUDA driver API version, e.g. "13.0"
  std::string runtime_version;
  std::string cublas_version;
  std::string cache_policy;
  std::string pci_bus_id;           // e.g. "0000:18:00.0"; in the list of every GPU
};

// A CPU vendor library of the run: OpenBLAS (the baseline), BLIS, oneMKL.
struct VendorContext {
  std::string backend;              // its row, e.g. "cpu/onemkl"
  std::string library;              // "OpenBLAS", "BLIS", "oneMKL"
  bool available = false;
  std::string version;              // the library's own version string
  std::string build;                // how it was built: threading layer, integer width, options
  std::string kernel_path;          // what it picked for this CPU: OpenBLAS's core, BLIS's configuration, MKL's ISA
  int threads = 0;                  // the count its next call uses
  std::string plugin;               // the plugin it was loaded from (empty for OpenBLAS, linked to the library)
  std::string unavailable_reason;
};

// A device's ceilings, for % of peak and the roofline: the FP32 rate, the TF32 tensor-core rate (0 without tensor
// cores, or on the CPU) and the memory bandwidth (0: unknown), with how each was derived (docs/method.md, "Peaks").
struct Peak {
  DeviceKind device = DeviceKind::cpu;
  std::string name;                 // the CPU model or the GPU's name
  double fp32_gflops = 0;
  double tf32_gflops = 0;
  double bandwidth_gbs = 0;
  std::string basis;
};

// A GPU's peaks from its properties: SMs x FP32 lanes per SM x 2 x the rated SM clock; SMs x dense TF32 flops per SM
// per clock x the clock; memory clock x 2 (double data rate) x bus width. The per-SM figures are NVIDIA's for each
// compute capability (7.x to 12.x); an unknown capability, or an SM count or clock of 0, gives 0 for that figure.
Peak gpu_peak(const GpuContext& gpu);

struct RunContext {
  std::string matcompare_version;
  std::string git_commit;
  std::string build_type;
  std::string cxx_compiler;
  std::string cuda_compiler;        // empty when built without CUDA
  std::string hostname;
  std::string cpu_model;
  int cpu_cores = 0;                // logical processors this process may use
  int omp_threads = 0;
  std::string openblas_config;
  std::string openblas_core;
  std::string openblas_parallel;    // "sequential", "pthreads" or "openmp"
  int openblas_threads = 0;
  std::string cpu_blis;             // cpu/blis's micro-kernel and block sizes on this machine
  std::vector<VendorContext> vendors;  // every CPU vendor library, OpenBLAS first
  std::string host_cache_policy;
  std::string thread_waits;         // thread_wait_settings()
  std::optional<GpuContext> gpu;
  std::string gpu_unavailable_reason;
  std::vector<GpuContext> gpus;     // every GPU this process sees (static properties)
  std::vector<int> multi_gpu_devices;  // the GPUs multi-GPU rows ran on (--devices)
  int cublasxt_block_dim = 0;       // cuBLASXt's tile edge (0 without CUDA)
  std::string cublasmp;             // cuBLASMp's version, or why it is unavailable
  std::vector<Peak> peaks;          // the CPU's (measured) and the GPU's (from its properties), where known
  BenchmarkOptions options;         // how every result of the run was measured
  // Wall seconds the whole run took, beside options.budget_s: a run whose fixed costs outgrew its budget shows it
  // (docs/method.md, "Budget"). 0 until the run ends (a stopped run's .partial file) and in runs saved before it.
  double run_s = 0;
  std::string command_line;
  std::string timestamp_utc;
  // The suite the run's shapes came from (--suite, --shapes), with its problems' names, so a report can say which
  // workload each shape is; empty (no name) for shapes given by size.
  Suite suite;
};

const char* version();

// Makes GPU `index` the one GPU backends use; throws std::runtime_error when it does not exist.
void select_gpu(int index);

// GPUs this process sees: 0 without CUDA, a driver or a device.
int gpu_count();

// The GPUs of --devices: "all" (every one of `gpu_count`), or a comma-separated list of indices like "0,1".
// Pure, so it is testable without GPUs. Throws std::invalid_argument naming the problem: an empty list or item,
// an index that is not a number or does not exist, one listed twice, or "all" on a machine without GPUs.
std::vector<int> parse_device_list(const std::string& text, int gpu_count);

// Makes multi-GPU backends run on these GPUs and the first the single-GPU backends' device. Throws
// std::invalid_argument naming `devices`, changing nothing, for an empty list, a duplicate or a GPU that does not
// exist (a negative index included).
void select_gpus(const std::vector<int>& devices);

// The GPUs multi-GPU backends run on: select_gpus's list, by default the single-GPU backends' device alone.
std::vector<int> selected_gpus();

// OpenBLAS picks its kernels when it loads; an OpenBLAS older than the CPU falls back to a generic
// core (Prescott) and runs several times slower; its AVX2 kernels (Haswell, Zen) on an AVX-512 CPU run at about
// half the speed of SkylakeX's (bench/NOTES.md, "The Zen 5 VM"). Returns the OPENBLAS_CORETYPE to restart with ("SkylakeX" on AVX-512,
// "Haswell" on AVX2), or nullptr when the loaded core is fine or was chosen by the user through
// OPENBLAS_CORETYPE.
const char* openblas_coretype_fix();
// The core this CPU should run when the loaded one is below it, whoever chose it (nullptr when it is fine).
const char* openblas_core_below_cpu();
// The rule behind both, for a loaded core name and what the CPU has.
const char* openblas_core_for(const std::string& core, bool cpu_has_avx512, bool cpu_has_avx2_fma);

// Two thread pools share the cores: OpenMP's (this library's CPU steps and cache flush) and OpenBLAS's
// pthreads. Left alone, each spins after its work (libgomp ~300k pause loops, OpenBLAS 2^28 cycles of
// sched_yield) and slows the other's next run many times over on a 16-core host (bench/NOTES.md, "A ratio that
// holds: paired samples"). The settings that make both
// park within about a millisecond, for those the user has not set: GOMP_SPINCOUNT (unless OMP_WAIT_POLICY is
// set) and OPENBLAS_THREAD_TIMEOUT. Both libraries read them when they load, so a program sets them and
// restarts itself (the CLI does).
std::vector<std::pair<std::string, std::string>> thread_wait_fixes();

// "GOMP_SPINCOUNT=10000 OPENBLAS_THREAD_TIMEOUT=20": the wait settings of this process, for the context.
std::string thread_wait_settings();

// The most threads set_threads accepts, as the CLI's --threads: libgomp starts a team with an array of one entry per
// thread on the calling thread's stack, and a team of 100000 threads overflowed it.
constexpr int kMaxThreads = 4096;

// Sets OpenMP's, OpenBLAS's and the CPU vendor plugins' (BLIS's, oneMKL's) thread counts (0 = one per logical processor this process may use). Throws
// std::invalid_argument naming `threads` and the cap, changing nothing, when it is negative or above kMaxThreads.
void set_threads(int threads);

// The peak a result is measured against: its device's, TF32 for TF32 rows, FP32 otherwise (a tensor-core row that
// emulates FP32 can pass 100%), times the GPUs a multi-GPU row used; 0 where the context has no such peak.
double peak_gflops(const RunContext& context, const BenchmarkResult& result);

// Collects what can be read now; call after the benchmarks so the observed clock is a warm one. Measures the CPU's
// peaks (a fraction of a second: cpu/cpu_peak.hpp).
RunContext collect_context(const std::string& command_line, const BenchmarkOptions& options);

}  // namespace matcompare
