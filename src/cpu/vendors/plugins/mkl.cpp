// cpu/onemkl's plugin: Intel oneMKL linked in statically (LP64, GNU OpenMP threading, so its threads are libgomp's
// like ours), every MKL symbol hidden by the link (cmake/Vendors.cmake): the plugin exports its entry point alone.
#include <cpuid.h>
#include <mkl.h>

#include <climits>
#include <cstdio>
#include <cstring>

#include "plugin.hpp"

namespace {

// The one GEMM the plugin calls, bound inside the plugin at link time; gemm_library() reports the file it lives in.
const auto gemm = &cblas_sgemm;

const char* sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                  int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
    return "oneMKL's LP64 interface takes dimensions and strides below 2^31";
  // MKL's cblas_sgemm: with beta == 0, C is not read (BLAS convention).
  gemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, MKL_INT(m),
       MKL_INT(n), MKL_INT(k), alpha, a, MKL_INT(lda), b, MKL_INT(ldb), beta, c, MKL_INT(ldc));
  return nullptr;
}

// The count is MKL's alone, whatever OpenMP's is; never adjusted down by MKL at run time.
void set_threads(int threads) {
  mkl_set_dynamic(0);
  mkl_set_num_threads(threads > 0 ? threads : 1);
}

int threads() { return mkl_get_max_threads(); }

const char* version() {
  static char text[256];
  mkl_get_version_string(text, sizeof text);
  return text;
}

const char* build() { return "static, LP64, GNU OpenMP threading (libgomp)"; }

const char* branch_name(int branch) {
  switch (branch) {
    case MKL_CBWR_AUTO: return "AUTO";
    case MKL_CBWR_COMPATIBLE: return "COMPATIBLE";
    case MKL_CBWR_SSE2: return "SSE2";
    case MKL_CBWR_SSE4_2: return "SSE4_2";
    case MKL_CBWR_AVX2: return "AVX2";
    case MKL_CBWR_AVX512: return "AVX512";
    case MKL_CBWR_AVX512_E1: return "AVX512_E1";
    case MKL_CBWR_AVX10: return "AVX10";
    default: {
      static char number[32];
      std::snprintf(number, sizeof number, "branch code %d", branch);
      return number;
    }
  }
}

// The instruction-set branch MKL dispatches to on this CPU and how MKL names the processor. On an Intel CPU both name
// the ISA (AVX2, AVX512, …); elsewhere MKL reports AUTO and "Intel(R) Architecture processors", and on AMD Zen runs
// its AVX2 Zen kernels (bench/NOTES.md, "CPU vendors' threads"), so the CPU's vendor is recorded too.
const char* kernel_path() {
  static char text[320];
  MKLVersion v;
  mkl_get_version(&v);
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  char cpu_vendor[13] = "unknown";
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
    std::memcpy(cpu_vendor, &ebx, 4);
    std::memcpy(cpu_vendor + 4, &edx, 4);
    std::memcpy(cpu_vendor + 8, &ecx, 4);
  }
  std::snprintf(text, sizeof text, "%s branch; MKL's processor: %s; CPU vendor %s",
                branch_name(mkl_cbwr_get_auto_branch()), v.Processor ? v.Processor : "not named", cpu_vendor);
  return text;
}

const char* gemm_library() { return matcompare_plugin::file_defining(reinterpret_cast<const void*>(gemm)); }

const matcompare_vendor_api api = {MATCOMPARE_VENDOR_ABI_VERSION, "oneMKL", sgemm, set_threads, threads, version,
                                   build, kernel_path, gemm_library};

}  // namespace

MATCOMPARE_VENDOR_PLUGIN(api)
