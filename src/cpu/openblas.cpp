// The CPU vendor row: OpenBLAS SGEMM, with the thread count set by set_threads().
#include <cblas.h>

#include "kernels.hpp"

namespace matcompare::cpu {

void gemm_openblas(const HostGemm& g) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(g.m), blasint(g.n), blasint(g.k), g.alpha, g.a,
              blasint(g.lda), g.b, blasint(g.ldb), g.beta, g.c, blasint(g.ldc));
}

}  // namespace matcompare::cpu
