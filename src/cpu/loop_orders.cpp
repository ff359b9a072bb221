// Seed 004's loop-order table: the same product C += A·B with its three independent loops in
// all six orders, one thread, accumulating in C. Only the memory access pattern changes; ikj and
// kij stream rows of B and C (unit stride), jki and kji walk down columns (stride N).
#include "kernels.hpp"

namespace matcompare::cpu {
namespace {

inline void update(const HostGemm& g, std::int64_t i, std::int64_t j, std::int64_t p) {
  g.c[i * g.ldc + j] += g.alpha * g.a[i * g.lda + p] * g.b[p * g.ldb + j];
}

}  // namespace

void gemm_loop_ijk(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j)
      for (std::int64_t p = 0; p < g.k; ++p) update(g, i, j, p);
}

void gemm_loop_ikj(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t p = 0; p < g.k; ++p)
      for (std::int64_t j = 0; j < g.n; ++j) update(g, i, j, p);
}

void gemm_loop_jik(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t j = 0; j < g.n; ++j)
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t p = 0; p < g.k; ++p) update(g, i, j, p);
}

void gemm_loop_jki(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t j = 0; j < g.n; ++j)
    for (std::int64_t p = 0; p < g.k; ++p)
      for (std::int64_t i = 0; i < g.m; ++i) update(g, i, j, p);
}

void gemm_loop_kij(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t p = 0; p < g.k; ++p)
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t j = 0; j < g.n; ++j) update(g, i, j, p);
}

void gemm_loop_kji(const HostGemm& g) {
  scale_c_by_beta(g);
  for (std::int64_t p = 0; p < g.k; ++p)
    for (std::int64_t j = 0; j < g.n; ++j)
      for (std::int64_t i = 0; i < g.m; ++i) update(g, i, j, p);
}

}  // namespace matcompare::cpu
