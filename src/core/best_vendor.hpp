#pragma once
// "x best vendor": each row of one shape against the fastest vendor library of its precision on its device.
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// Whether a result competes for the best vendor of its (device, precision): a vendor library's single-GPU row measured
// in full. Its speed is vs_precision_vendor.
inline bool competes_for_best_vendor(const BenchmarkResult& r) {
  return r.backend.vendor_library && !r.backend.multi_gpu && r.status == Status::ok;
}

// Sets vs_best_vendor and best_vendor on the results of one shape. A vendor library's speed is its ratio to the
// baseline vendor of its precision, vs_precision_vendor (1 for the baseline itself); only rows measured in full
// compete. A row already timed against the best (set_ratios) keeps that ratio; any other row with a ratio to the
// baseline gets vs_precision_vendor / the best's. Multi-GPU rows, compared by speedup, get none.
void set_best_vendors(std::vector<BenchmarkResult>& shape_results);

}  // namespace matcompare
