#pragma once
// "x best vendor": each row of one shape against the fastest vendor library of its precision on its device.
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// Sets vs_best_vendor and best_vendor on the results of one shape. A vendor library's speed is its ratio to the
// baseline vendor of its precision, vs_precision_vendor (1 for the baseline itself); only rows measured in full
// compete. A row already timed against the best (set_ratios) keeps that ratio; any other row with a ratio to the
// baseline gets vs_precision_vendor / the best's. Multi-GPU rows, compared by speedup, get none.
void set_best_vendors(std::vector<BenchmarkResult>& shape_results);

}  // namespace matcompare
