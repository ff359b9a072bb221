#include "timed_workspace.hpp"

namespace matcompare {

TimedWorkspace::TimedWorkspace(const Backend& backend, const GemmShape& shape, const MatrixF& a, const MatrixF& b,
                               const MatrixF& c_in, float beta)
    : ws(backend.prepare(shape)) {
  ws->upload(a, b);
  if (beta == 0.0f)
    ws->poison_output(shape);
  else
    ws->set_output(c_in);
  watch = ws->stopwatch();
}

double TimedWorkspace::compute_ms(float alpha, float beta, const MatrixF& c_in, const BenchmarkOptions& o) {
  if (beta != 0.0f) ws->set_output(c_in);
  if (o.flush_cache) ws->flush_cache();
  watch->start();
  ws->compute(alpha, beta);
  watch->stop();
  const double ms = watch->elapsed_ms();
  clock = ws->clock();
  return ms;
}

}  // namespace matcompare
