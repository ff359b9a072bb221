#pragma once
// What a CPU algorithm implements: one function on row-major host arrays.
#include <cstdint>
#include <memory>

#include "matcompare/backend.hpp"

namespace matcompare::cpu {

struct HostGemm {
  std::int64_t m, n, k;
  float alpha, beta;
  const float* a;  // op(A) M×K: A stored M×K, or K×M where trans_a; row stride lda as stored
  std::int64_t lda;
  const float* b;  // op(B) K×N: B stored K×N, or N×K where trans_b; row stride ldb as stored
  std::int64_t ldb;
  float* c;        // M×N, row stride ldc; not read when beta == 0
  std::int64_t ldc;
  // Set only for the rows whose BackendInfo::all_layouts is true: the harness never hands the others a transpose.
  bool trans_a = false, trans_b = false;
};

using CpuKernel = void (*)(const HostGemm&);

std::unique_ptr<Backend> make_cpu_backend(BackendInfo info, CpuKernel kernel);

// The rule every CPU kernel applies when it writes an element: BLAS semantics, C not read when β = 0.
inline float scale_output(const HostGemm& g, float dot, float c_old) {
  return g.beta == 0.0f ? g.alpha * dot : g.alpha * dot + g.beta * c_old;
}

// Replaces C by β·C (by 0 when β = 0): the start of algorithms that accumulate into C.
void scale_c_by_beta(const HostGemm& g);

}  // namespace matcompare::cpu
