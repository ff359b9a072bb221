#include "statistics.hpp"

#include <algorithm>
#include <cmath>

namespace matcompare {

TimeStats summarize(std::vector<double> ms) {
  TimeStats t;
  t.samples = int(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  t.median_ms = quantile(ms, 0.5);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  double mean = 0;
  for (double x : ms) mean += x;
  mean /= double(n);
  double var = 0;
  for (double x : ms) var += (x - mean) * (x - mean);
  t.cv = (n > 1 && mean > 0) ? std::sqrt(var / double(n - 1)) / mean : 0;
  return t;
}

double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t below = std::size_t(at);
  const double above_weight = at - double(below);
  return below + 1 < sorted.size() ? sorted[below] * (1 - above_weight) + sorted[below + 1] * above_weight
                                   : sorted[below];
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return quantile(values, 0.5);
}

PairedRatio paired_ratio(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < vendor_ms.size() && i < row_ms.size(); ++i)
    if (row_ms[i] > 0) ratios.push_back(vendor_ms[i] / row_ms[i]);
  PairedRatio r;
  if (ratios.empty()) return r;
  std::sort(ratios.begin(), ratios.end());
  r = {quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75), int(ratios.size())};
  return r;
}

}  // namespace matcompare
