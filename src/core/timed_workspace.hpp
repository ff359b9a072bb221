#pragma once
// One backend's workspace, ready for compute samples: the inputs resident, C set (or poisoned) before each, the
// cache flush outside the timed region.
#include <memory>

#include "matcompare/benchmark.hpp"

namespace matcompare {

struct TimedWorkspace {
  std::unique_ptr<Workspace> ws;
  std::unique_ptr<Stopwatch> watch;
  ClockReading clock;  // the device's, read right after the last compute sample

  // With β = 0 C is poisoned: NaN there makes any read of it, or any element left unwritten, show in the result.
  TimedWorkspace(const Backend& backend, const GemmShape& shape, const MatrixF& a, const MatrixF& b,
                 const MatrixF& c_in, float beta);
  TimedWorkspace(const Backend& backend, const Problem& p) : TimedWorkspace(backend, p.shape, p.a, p.b, p.c, p.beta) {}
  // One compute sample; resetting C, flushing the caches and reading the clock are outside the timed region.
  double compute_ms(float alpha, float beta, const MatrixF& c_in, const BenchmarkOptions& o);
  double compute_ms(const Problem& p, const BenchmarkOptions& o) { return compute_ms(p.alpha, p.beta, p.c, o); }
};

}  // namespace matcompare
