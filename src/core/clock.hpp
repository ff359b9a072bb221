#pragma once
// The harness's one clock: wall time for budgets and deadlines, and for timing what no device stopwatch covers.
#include <chrono>

namespace matcompare {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline double seconds_until(Clock::time_point t) { return std::chrono::duration<double>(t - Clock::now()).count(); }

// The instant `seconds` from now.
inline Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace matcompare
