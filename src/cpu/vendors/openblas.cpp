// The CPU baseline vendor row: OpenBLAS SGEMM, linked to the library, with the thread count set by set_threads().
#include <cblas.h>

#include <sstream>

#include "../kernels.hpp"
#include "vendors.hpp"

namespace matcompare::cpu {

void gemm_openblas(const HostGemm& g) {
  cblas_sgemm(CblasRowMajor, g.trans_a ? CblasTrans : CblasNoTrans, g.trans_b ? CblasTrans : CblasNoTrans,
              blasint(g.m), blasint(g.n), blasint(g.k), g.alpha, g.a, blasint(g.lda), g.b, blasint(g.ldb), g.beta, g.c,
              blasint(g.ldc));
}

namespace vendors {

// Through the GOT, as the call above is bound: the address the dynamic linker resolved for this library.
void* openblas_sgemm_address() { return reinterpret_cast<void*>(&cblas_sgemm); }

VendorContext openblas_context() {
  VendorContext v;
  v.backend = "cpu/openblas";
  v.library = "OpenBLAS";
  v.available = true;
  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Cooperlake MAX_THREADS=64": the version, then the build.
  std::istringstream config(openblas_get_config());
  std::string name, word;
  config >> name >> v.version;
  while (config >> word) v.build += (v.build.empty() ? "" : " ") + word;
  const int parallel = openblas_get_parallel();
  v.build += std::string(v.build.empty() ? "" : ", ") +
             (parallel == 0 ? "sequential" : parallel == 1 ? "pthreads" : "OpenMP");
  v.kernel_path = openblas_get_corename();
  v.threads = openblas_get_num_threads();
  return v;
}

}  // namespace vendors
}  // namespace matcompare::cpu
