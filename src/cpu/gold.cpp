// The baseline every other step is measured against: the textbook triple loop, one thread,
// the dot product kept in a register (seed 003 "Gold", seed 004's original CPU code).
#include "kernels.hpp"

namespace matcompare::cpu {

void gemm_gold(const HostGemm& g) {
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) {
      float dot = 0.0f;
      for (std::int64_t p = 0; p < g.k; ++p) dot += g.a[i * g.lda + p] * g.b[p * g.ldb + j];
      float* out = g.c + i * g.ldc + j;
      *out = scale_output(g, dot, *out);
    }
}

}  // namespace matcompare::cpu
