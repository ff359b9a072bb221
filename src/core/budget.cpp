#include "budget.hpp"

#include <algorithm>
#include <cmath>

namespace matcompare {

double demand_s(const Trial& trial, std::int64_t m, double partners_s, const BenchmarkOptions& o) {
  const double run = trial.run_s(m);
  auto phase = [&](double round_s) {
    const double to_min_time = run > 0 ? o.min_time_s / run * round_s : 4 * o.min_time_s;
    return std::max(double(o.repetitions) * round_s, std::min(to_min_time, 4 * o.min_time_s));
  };
  return run + phase(run + trial.flush_s + partners_s) + phase(run + trial.flush_s);
}

std::int64_t estimate_rows(const Trial& trial, std::int64_t m, double per_run_s) {
  const double fitting = trial.superlinear ? double(trial.rows) * std::sqrt(std::max(0.0, per_run_s) / trial.rows_s)
                                           : double(trial.rows) + (per_run_s - trial.rows_s) / trial.per_row_s;
  // A step that walks columns costs more per row as its rows outgrow the caches: sized by the slope alone, an
  // estimate of cpu/loop-jki once ran several times its share and left the rows after it almost nothing
  // (bench/NOTES.md, "Every row gets a figure (issue 9)").
  const double most = double(trial.rows) * kEstimateGrowth;
  return std::int64_t(std::clamp(std::min(fitting, most), double(trial.first_rows), double(m - 1)));
}

double first_share(std::vector<double> demands, double seconds) {
  if (demands.empty()) return seconds;
  const double first = demands.front();
  std::sort(demands.begin(), demands.end());
  double left = seconds;
  for (std::size_t i = 0; i < demands.size(); ++i) {
    const double level = left / double(demands.size() - i);
    if (demands[i] > level) return std::min(first, level);
    left -= demands[i];
  }
  return first + left / double(demands.size());
}

void FixedCosts::observe(double bytes, double seconds) {
  least_ = n_ == 0 ? bytes : std::min(least_, bytes);
  most_ = std::max(most_, bytes);
  n_ += 1;
  sx_ += bytes;
  sy_ += seconds;
  sxx_ += bytes * bytes;
  sxy_ += bytes * seconds;
}

double FixedCosts::predict(double bytes) const {
  if (n_ == 0) return 0;
  if (most_ < kFixedCostsSpread * least_) return sy_ / n_;
  const double spread = n_ * sxx_ - sx_ * sx_;
  double slope = (n_ * sxy_ - sx_ * sy_) / spread;
  double constant = (sy_ - slope * sx_) / n_;
  if (slope < 0) {
    slope = 0;
    constant = sy_ / n_;
  } else if (constant < 0) {
    constant = 0;
    slope = sxy_ / sxx_;
  }
  return constant + slope * bytes;
}

double shape_bytes(const GemmShape& s) {
  return 4.0 * (double(s.m) * double(s.k) + double(s.k) * double(s.n) + double(s.m) * double(s.n));
}

}  // namespace matcompare
