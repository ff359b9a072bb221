#pragma once
// Summaries of timed samples: the median and spread of one row's times, and the paired ratio of a row against a
// vendor timed in turn with it.
#include <vector>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// Median, extremes and coefficient of variation of the samples.
TimeStats summarize(std::vector<double> ms);

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q);

double median(std::vector<double> values);

// Vendor time / row time for each pair, summarized: median and quartiles. The median of per-pair ratios, not a
// ratio of medians nor a mean of ratios: one disturbed pair moves it least.
struct PairedRatio {
  double median = 0, q1 = 0, q3 = 0;
  int pairs = 0;
};
// Pairs sample i of each list; a row time that is not positive leaves its pair out.
PairedRatio paired_ratio(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms);

}  // namespace matcompare
