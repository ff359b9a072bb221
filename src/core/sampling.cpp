#include "sampling.hpp"

#include <algorithm>
#include <cmath>

#include "statistics.hpp"

namespace matcompare {

TimeStats sample(const BenchmarkOptions& o, Clock::time_point deadline, double first_guess_s,
                 const std::function<std::optional<double>()>& one_sample, const StoppingCriterion& settled) {
  std::vector<double> ms;
  double timed_total_ms = 0, longest_s = first_guess_s;
  const auto start = Clock::now();
  while (seconds_until(deadline) >= longest_s) {
    const auto sample_start = Clock::now();
    const std::optional<double> t = one_sample();
    const double took_s = seconds_since(sample_start);
    if (!t) {
      longest_s = std::max(longest_s, took_s);
      continue;
    }
    longest_s = ms.empty() ? took_s : std::max(longest_s, took_s);
    ms.push_back(*t);
    timed_total_ms += *t;
    const double elapsed_s = seconds_since(start);
    const bool enough_samples = int(ms.size()) >= o.repetitions;
    const bool enough_time = timed_total_ms >= o.min_time_s * 1000.0 || elapsed_s >= 4 * o.min_time_s;
    if (enough_samples && enough_time && (elapsed_s >= kUnsettledMinTimes * o.min_time_s || settled())) break;
  }
  return summarize(std::move(ms));
}

bool ratio_settled(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms) {
  const PairedRatio r = paired_ratio(vendor_ms, row_ms);
  if (r.pairs < 2) return false;
  return 0.929 * (r.q3 - r.q1) / std::sqrt(double(r.pairs)) <= kRatioPrecision * r.median;
}

}  // namespace matcompare
