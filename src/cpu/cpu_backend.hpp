#pragma once
// What a CPU algorithm implements: one function on row-major host arrays.
#include <cstdint>
#include <memory>

#include "matcompare/backend.hpp"

namespace matcompare::cpu {

struct HostGemm {
  std::int64_t m, n, k;
  float alpha, beta;
  const float* a;  // M×K, row stride lda
  std::int64_t lda;
  const float* b;  // K×N, row stride ldb
  std::int64_t ldb;
  float* c;        // M×N, row stride ldc; not read when beta == 0
  std::int64_t ldc;
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
