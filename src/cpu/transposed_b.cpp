// Over gold-omp: B is transposed first (inside the timed call), so each dot product reads both
// operands along rows, with unit stride (seed 003 Gold_with_transpose).
#include <vector>

#include "kernels.hpp"

namespace matcompare::cpu {

void gemm_transposed_b(const HostGemm& g) {
  std::vector<float> bt(std::size_t(g.n) * std::size_t(g.k));
#pragma omp parallel for schedule(static)
  for (std::int64_t j = 0; j < g.n; ++j)
    for (std::int64_t p = 0; p < g.k; ++p) bt[std::size_t(j * g.k + p)] = g.b[p * g.ldb + j];

#pragma omp parallel for schedule(dynamic)
  for (std::int64_t i = 0; i < g.m; ++i) {
    const float* a_row = g.a + i * g.lda;
    for (std::int64_t j = 0; j < g.n; ++j) {
      const float* bt_row = bt.data() + j * g.k;
      float dot = 0.0f;
      for (std::int64_t p = 0; p < g.k; ++p) dot += a_row[p] * bt_row[p];
      float* out = g.c + i * g.ldc + j;
      *out = scale_output(g, dot, *out);
    }
  }
}

}  // namespace matcompare::cpu
