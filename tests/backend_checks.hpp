#pragma once
// The correctness contract every backend is held to, CPU or GPU alike.
#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace matcompare_test {

// C = α·op(A)·op(B) + βC by `gemm(alpha, a, b, beta, c)`, on fresh random inputs stored as shape.layout says (A
// K×M where it is transposed, B N×K), with C poisoned (NaN) whenever β = 0 so that a kernel reading C, or leaving an
// element unwritten, fails.
template <typename Gemm>
void check_gemm_against_reference(const std::string& name, matcompare::Precision precision, Gemm gemm,
                                  const matcompare::GemmShape& shape, Scaling scaling) {
  using namespace matcompare;
  const std::uint64_t seed = fresh_seed();
  const MatrixF a = MatrixF::random(stored_a_rows(shape), stored_a_cols(shape), seed);
  const MatrixF b = MatrixF::random(stored_b_rows(shape), stored_b_cols(shape), seed + 1);
  const MatrixF c0 = MatrixF::random(shape.m, shape.n, seed + 2);
  const Reference ref = compute_reference(scaling.alpha, a, b, scaling.beta, c0, shape.layout);
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
      [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
        backend.gemm(alpha, a, b, beta, c, shape.layout);
      },
      shape, scaling);
}

inline const std::vector<matcompare::Layout>& all_layouts() {
  static const std::vector<matcompare::Layout> layouts{matcompare::Layout::nn, matcompare::Layout::nt,
                                                       matcompare::Layout::tn, matcompare::Layout::tt};
  return layouts;
}

// A row that takes only NN refuses the others: unavailable with the reason, and prepare() and gemm() throw rather
// than read a transposed operand as an untransposed one.
inline void check_refuses_other_layouts(const matcompare::Backend& backend) {
  using namespace matcompare;
  for (Layout layout : {Layout::nt, Layout::tn, Layout::tt}) {
    INFO(backend.info().name, " ", to_string(layout));
    const Availability refused = backend.availability(layout);
    CHECK_FALSE(refused.available);
    CHECK(refused.reason.find("takes A and B untransposed (layout NN only)") != std::string::npos);
    CHECK_THROWS_AS(backend.prepare(GemmShape{17, 33, 65, layout}), std::invalid_argument);
    MatrixF a(65, 17), b(33, 65), c(17, 33);  // TT's stored shapes
    if (layout == Layout::tt) CHECK_THROWS_AS(backend.gemm(1, a, b, 0, c, layout), std::runtime_error);
  }
}

// Computing twice from the same resident inputs gives bit-identical output: a race or a read of
// memory nothing wrote would show up as a difference.
inline void check_repeatable(const matcompare::Backend& backend, const matcompare::GemmShape& shape) {
  using namespace matcompare;
  const std::uint64_t seed = fresh_seed();
  const MatrixF a = MatrixF::random(stored_a_rows(shape), stored_a_cols(shape), seed);
  const MatrixF b = MatrixF::random(stored_b_rows(shape), stored_b_cols(shape), seed + 1);
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

// The odd shapes, the scalings, a large odd shape (not under a sanitizer: kSanitized) and repeatability, in each of
// `layouts`.
inline void check_backend_in(const matcompare::Backend& backend, const std::vector<matcompare::Layout>& layouts) {
  using namespace matcompare;
  for (Layout layout : layouts) {
    for (auto shape : odd_shapes()) {
      shape.layout = layout;
      for (const auto& scaling : scalings()) check_against_reference(backend, shape, scaling);
    }
    if (!kSanitized) check_against_reference(backend, {1000, 1001, 999, layout}, {0.5f, 2.0f});
    check_repeatable(backend, {127, 253, 61, layout});
  }
}

// Every layout the row takes (all four where BackendInfo::all_layouts, else NN and the refusal of the others).
inline void check_backend(const matcompare::Backend& backend) {
  using namespace matcompare;
  check_backend_in(backend, backend.info().all_layouts ? all_layouts() : std::vector<Layout>{Layout::nn});
  if (!backend.info().all_layouts) check_refuses_other_layouts(backend);
}

}  // namespace matcompare_test
