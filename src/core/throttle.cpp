#include "throttle.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "statistics.hpp"

namespace matcompare {
namespace {

bool lowered(const ClockReading& c) { return c.known() && c.mhz < kThrottledClockFraction * c.max_mhz; }

}  // namespace

bool ThrottleGuard::drop(const ClockReading& row, const std::vector<ClockReading>& partners) {
  bool throttled = lowered(row);
  for (const ClockReading& c : partners) throttled = throttled || lowered(c);
  if (throttled && !gave_up_) {
    ++dropped_;
    if (++in_a_row_ >= kMaxThrottledInARow) gave_up_ = true;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kThrottleRecoveryMs));
    return true;
  }
  in_a_row_ = 0;
  if (row.known()) {
    kept_mhz_.push_back(row.mhz);
    max_mhz_ = row.max_mhz;
  }
  return false;
}

double ThrottleGuard::median_mhz() const {
  if (kept_mhz_.empty()) return 0.0;
  std::vector<double> sorted = kept_mhz_;
  std::sort(sorted.begin(), sorted.end());
  return quantile(sorted, 0.5);
}

}  // namespace matcompare
