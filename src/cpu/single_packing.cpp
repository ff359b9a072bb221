// Over gold-omp: each inner step produces 1x4 outputs, so one load of A serves four columns of B
// (seed 003 S_packing). Columns that do not fill a group of four are done one at a time.
#include "kernels.hpp"

namespace matcompare::cpu {

void gemm_single_packing(const HostGemm& g) {
  constexpr std::int64_t kWidth = 4;
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t i = 0; i < g.m; ++i) {
    const float* a_row = g.a + i * g.lda;
    float* c_row = g.c + i * g.ldc;
    std::int64_t j = 0;
    for (; j + kWidth <= g.n; j += kWidth) {
      float acc[kWidth] = {};
      for (std::int64_t p = 0; p < g.k; ++p) {
        const float a = a_row[p];
        const float* b = g.b + p * g.ldb + j;
        for (int w = 0; w < kWidth; ++w) acc[w] += a * b[w];
      }
      for (int w = 0; w < kWidth; ++w) c_row[j + w] = scale_output(g, acc[w], c_row[j + w]);
    }
    for (; j < g.n; ++j) {
      float dot = 0.0f;
      for (std::int64_t p = 0; p < g.k; ++p) dot += a_row[p] * g.b[p * g.ldb + j];
      c_row[j] = scale_output(g, dot, c_row[j]);
    }
  }
}

}  // namespace matcompare::cpu
