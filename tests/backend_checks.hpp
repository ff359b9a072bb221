#pragma once
// The correctness contract every backend is held to, CPU or GPU alike.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "test_support.hpp"

namespace matcompare_test {

// C = αAB + βC by `gemm(alpha, a, b, beta, c)`, on fresh random inputs, with C poisoned (NaN) whenever
// β = 0 so that a kernel reading C, or leaving an element unwritten, fails.
template <typename Gemm>
void check_gemm_against_reference(const std::string& name, matcompare::Precision precision, Gemm gemm,
                                  const matcompare::GemmShape& shape, Scaling scaling) {
  using namespace matcompare;
  const std::uint64_t seed = fresh_seed();
  const MatrixF a = MatrixF::random(shape.m, shape.k, seed), b = MatrixF::random(shape.k, shape.n, seed + 1);
  const MatrixF c0 = MatrixF::random(shape.m, shape.n, seed + 2);
  const Reference ref = compute_reference(scaling.alpha, a, b, scaling.beta, c0);
  MatrixF c = scaling.beta == 0.0f ? MatrixF(shape.m, shape.n, std::numeric_limits<float>::quiet_NaN()) : c0;
  gemm(scaling.alpha, a, b, scaling.beta, c);
  const ErrorStats stats = compare_to_reference(c, ref, precision);
  INFO(name, " ", matcompare::to_string(shape), " alpha=", scaling.alpha, " beta=", scaling.beta, " seed=", seed,
       " blas_ratio=", stats.blas_ratio, " threshold=", blas_ratio_threshold(precision, shape.k),
       " max_abs=", stats.max_abs);
  CHECK(stats.passed);
}

// The same through a backend's public gemm() call.
inline void check_against_reference(const matcompare::Backend& backend, const matcompare::GemmShape& shape,
                                    Scaling scaling) {
  using namespace matcompare;
  check_gemm_against_reference(
      backend.info().name, backend.info().precision,
      [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) { backend.gemm(alpha, a, b, beta, c); },
      shape, scaling);
}

// Computing twice from the same resident inputs gives bit-identical output: a race or a read of
// memory nothing wrote would show up as a difference.
inline void check_repeatable(const matcompare::Backend& backend, const matcompare::GemmShape& shape) {
  using namespace matcompare;
  const std::uint64_t seed = fresh_seed();
  const MatrixF a = MatrixF::random(shape.m, shape.k, seed), b = MatrixF::random(shape.k, shape.n, seed + 1);
  const MatrixF c0 = MatrixF::random(shape.m, shape.n, seed + 2);
  auto ws = backend.prepare(shape);
  ws->upload(a, b);
  ws->set_output(c0);
  MatrixF first(shape.m, shape.n), second(shape.m, shape.n);
  ws->compute(0.75f, -0.5f);
  ws->download(first);
  ws->set_output(c0);
  ws->compute(0.75f, -0.5f);
  ws->download(second);
  INFO(backend.info().name, " ", matcompare::to_string(shape), " seed=", seed);
  CHECK(first == second);
}

inline void check_backend(const matcompare::Backend& backend) {
  for (const auto& shape : odd_shapes())
    for (const auto& scaling : scalings()) check_against_reference(backend, shape, scaling);
  check_against_reference(backend, {1000, 1001, 999}, {0.5f, 2.0f});
  check_repeatable(backend, {127, 253, 61});
}

}  // namespace matcompare_test
