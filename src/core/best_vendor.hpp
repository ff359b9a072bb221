#pragma once
// "x best vendor": each row of one shape against the fastest vendor library of its precision on its device.
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// A vendor library other than the baseline is ranked only on at least this many pairs with the baseline: one pair
// is one sample of each, and a single slow sample of the baseline once named a library twice its median time the
// best (bench/NOTES.md, "B's [n][k] tile read at constant offsets", the 8B decode suite at --budget 30).
constexpr int kLeastPairsToRank = 3;

// Sets vs_best_vendor and best_vendor on the results of one shape. A vendor library's speed is its ratio to the
// baseline vendor of its precision, vs_precision_vendor (1 for the baseline itself); only rows measured in full, on
// kLeastPairsToRank pairs or more, compete. A row with a ratio to that baseline gets vs_precision_vendor / the best's.
// Multi-GPU rows, compared by speedup, get none.
void set_best_vendors(std::vector<BenchmarkResult>& shape_results);

}  // namespace matcompare
