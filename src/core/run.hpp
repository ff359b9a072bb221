#pragma once
// run_benchmarks over a given list of backends instead of the registry's: what tests use to run backends of their
// own (fake vendors whose speeds are known) through the whole run, and to see how it planned each shape's budget.
#include <functional>
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// How the budget planned one shape and what it learnt from it (budget.hpp, FixedCosts): what a shape's fixed costs
// were predicted and observed to be, seen directly, where a run's wall time would tell them apart only by margins a
// loaded machine or a sanitizer build blurs.
struct ShapeBudget {
  GemmShape shape;
  double left_s = 0;  // of the run's budget, when the shape started
  // The fixed costs predicted for it and the shapes after it (at most kMostFixedShare of left_s), and its own part.
  double fixed_left_s = 0, fixed_here_s = 0;
  // Before each row, in the order measured: what of fixed_here_s was not yet spent, kept out of the rows' shares.
  std::vector<double> kept_for_fixed_s;
  double fixed_s = 0;  // its fixed costs as observed, which FixedCosts learnt with shape_bytes(shape)
};
using ShapeBudgetFn = std::function<void(const ShapeBudget&)>;

// As run_benchmarks, with `universe` in place of all_backends(): its order, and the vendors taken from it. When given,
// `budget_seen` is called once each shape is done (after shape_done), with how its budget was planned.
std::vector<BenchmarkResult> run_benchmarks_among(const std::vector<const Backend*>& universe,
                                                  const std::vector<const Backend*>& selected,
                                                  const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                                  const ProgressFn& progress = {},
                                                  const ShapeResultsFn& shape_done = {},
                                                  const ShapeBudgetFn& budget_seen = {});

}  // namespace matcompare
