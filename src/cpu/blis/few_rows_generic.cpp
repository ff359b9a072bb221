// cpu/blis's few-rows loops (few_rows_simd.hpp) for any CPU: a "vector" of 4 floats in plain loops, which the
// compiler turns into the baseline instruction set's (SSE2 on x86-64) or scalar code.
#include "few_rows_simd.hpp"

namespace matcompare::cpu::blis {
namespace {

struct Generic {
  struct Vec {
    float x[4];
  };
  static constexpr int kLanes = 4;
  static constexpr int kRegisters = 16;
  static Vec zero() { return Vec{}; }
  static Vec broadcast(const float* x) { return Vec{{*x, *x, *x, *x}}; }
  static Vec loadu(const float* x) { return Vec{{x[0], x[1], x[2], x[3]}}; }
  static void storeu(float* x, Vec v) {
    for (int i = 0; i < 4; ++i) x[i] = v.x[i];
  }
  static Vec fmadd(Vec a, Vec b, Vec c) {
    for (int i = 0; i < 4; ++i) c.x[i] += a.x[i] * b.x[i];
    return c;
  }
  static float sum(Vec v) { return (v.x[0] + v.x[1]) + (v.x[2] + v.x[3]); }
};

}  // namespace

const FewRowsKernels kGenericFewRows = few_rows::kKernels<Generic, 2>;

}  // namespace matcompare::cpu::blis
