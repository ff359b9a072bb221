// The list of micro-kernels of the BLIS-style CPU GEMM and the run-time choice among them (CPUID through
// __builtin_cpu_supports, which also checks that the OS saves the wider registers).
#include "microkernel.hpp"

#include <cstdlib>
#include <stdexcept>

#include "few_rows_isa.hpp"
#include "microkernel_isa.hpp"

namespace matcompare::cpu::blis {
namespace {

MicroKernel describe(const char* name, const IsaKernel& k, const FewRowsKernels& few_rows, bool cpu_has_it,
                     const char* missing) {
  const bool built = k.run && few_rows.untransposed && few_rows.transposed;
  const char* why_not = !built ? "not built for this architecture" : !cpu_has_it ? missing : "";
  return {name, k.mr, k.nr, k.run, k.run_half, few_rows, why_not};
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
bool cpu_has_avx512() { return __builtin_cpu_init(), __builtin_cpu_supports("avx512f"); }
bool cpu_has_avx2() { return __builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#else
bool cpu_has_avx512() { return false; }
bool cpu_has_avx2() { return false; }
#endif

}  // namespace

const std::vector<MicroKernel>& microkernels() {
  static const std::vector<MicroKernel> all = {
      describe("avx512", kAvx512Kernel, kAvx512FewRows, cpu_has_avx512(), "this CPU does not report AVX-512F"),
      describe("avx2+fma", kAvx2Kernel, kAvx2FewRows, cpu_has_avx2(), "this CPU does not report AVX2 and FMA"),
      describe("generic", kGenericKernel, kGenericFewRows, true, ""),
  };
  return all;
}

const MicroKernel* forced_microkernel() {
  const char* wanted = std::getenv(kMicroKernelVariable);
  if (!wanted || !*wanted) return nullptr;
  std::string runnable, not_here;
  for (const MicroKernel& k : microkernels()) {
    if (k.unsupported.empty() && k.name == wanted) return &k;
    std::string& list = k.unsupported.empty() ? runnable : not_here;
    list += (list.empty() ? "" : ", ") + k.name + (k.unsupported.empty() ? "" : " (" + k.unsupported + ")");
  }
  throw std::runtime_error(std::string(kMicroKernelVariable) + "=" + wanted +
                           " is not a micro-kernel this CPU can run (give " + runnable +
                           (not_here.empty() ? "" : "; not here: " + not_here) + ")");
}

const MicroKernel& select_microkernel() {
  static const MicroKernel& chosen = []() -> const MicroKernel& {
    if (const MicroKernel* forced = forced_microkernel()) return *forced;
    for (const MicroKernel& k : microkernels())
      if (k.unsupported.empty()) return k;
    throw std::logic_error("no micro-kernel can run here, not even the portable one");
  }();
  return chosen;
}

}  // namespace matcompare::cpu::blis
