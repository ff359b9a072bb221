// Gold with its rows of C spread over OpenMP threads (seed 003 Gold_with_omp); dynamic
// scheduling as in the seed. Memory access is still gold's: B read down its columns.
#include "kernels.hpp"

namespace matcompare::cpu {

void gemm_gold_omp(const HostGemm& g) {
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) {
      float dot = 0.0f;
      for (std::int64_t p = 0; p < g.k; ++p) dot += g.a[i * g.lda + p] * g.b[p * g.ldb + j];
      float* out = g.c + i * g.ldc + j;
      *out = scale_output(g, dot, *out);
    }
}

}  // namespace matcompare::cpu
