#pragma once
// The sampling loop and its stopping criteria: how many timed samples a measurement takes.
#include <functional>
#include <optional>
#include <vector>

#include "clock.hpp"
#include "matcompare/benchmark.hpp"

namespace matcompare {

// A paired measurement that is not settled by then stops at this many times min_time (or its deadline).
constexpr double kUnsettledMinTimes = 8;

// Whether the samples so far are enough once repetitions and min_time are met; asked after each sample.
using StoppingCriterion = std::function<bool()>;

// Samples until at least `repetitions` samples and `min_time` of timed work; a run whose untimed preparation
// dominates (cache flushes around microsecond kernels) stops at 4x min_time. Past that it goes on while `settled`
// says no, up to kUnsettledMinTimes x min_time. The deadline ends it earlier: a sample starts only if one as long as
// the longest so far (the first: `first_guess_s`) ends before it, so there may be none. `one_sample` does its own
// untimed preparation and returns the timed milliseconds, or nothing for a sample it dropped (a lowered clock:
// throttle.hpp), which counts towards neither the samples nor the timed work.
TimeStats sample(const BenchmarkOptions& o, Clock::time_point deadline, double first_guess_s,
                 const std::function<std::optional<double>()>& one_sample,
                 const StoppingCriterion& settled = [] { return true; });

// The stopping criterion of a paired measurement: whether the median of the paired ratios is known to within
// kRatioPrecision of itself. Its standard error, for a spread near normal 1.2533 sigma / sqrt(pairs) with
// sigma ~ IQR / 1.349, is at most that share of it. One disturbed pair of five moves a median by the spread itself;
// a wide spread takes more pairs.
constexpr double kRatioPrecision = 0.01;
bool ratio_settled(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms);

}  // namespace matcompare
