#pragma once
// run_benchmarks over a given list of backends instead of the registry's: what tests use to run backends of their
// own (fake vendors whose speeds are known) through the whole run.
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// As run_benchmarks, with `universe` in place of all_backends(): its order, and the vendors taken from it.
std::vector<BenchmarkResult> run_benchmarks_among(const std::vector<const Backend*>& universe,
                                                  const std::vector<const Backend*>& selected,
                                                  const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                                  const ProgressFn& progress = {},
                                                  const ShapeResultsFn& shape_done = {});

}  // namespace matcompare
