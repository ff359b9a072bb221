#pragma once
// How run_benchmarks divides its time budget among rows: what a few-row trial says about a row, what a full
// measurement of it would cost, and each row's share.
#include <cstdint>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "trial.hpp"

namespace matcompare {

// Seconds the measurement the options ask for should take: a verification run, compute samples paired with
// partners that take `partners_s` per round, and end-to-end samples; each phase ends at `repetitions` samples
// and `min_time_s` of timed work, or at four times `min_time_s` of wall time.
double demand_s(const Trial& trial, std::int64_t m, double partners_s, const BenchmarkOptions& options);

// The rows of C an estimate times so that one run takes about `per_run_s`: the trial's slope says how many, but
// never more than kEstimateGrowth times the trial's largest run, never fewer than its first, never all M.
constexpr double kEstimateGrowth = 8;
std::int64_t estimate_rows(const Trial& trial, std::int64_t m, double per_run_s);

// The first row's share of `seconds` among rows that need `demands` (water-filling): rows that need less than an
// equal share get what they need, the others share the rest equally; when all fit, the spare is spread evenly.
double first_share(std::vector<double> demands, double seconds);

// No row gets less, even when the budget is spent: enough for a few rows of C, so that it still gets a figure.
constexpr double kMinimumRowSeconds = 0.05;
// Nor less than one full run with its vendor partners, when that takes at most this long: a fast row is then
// measured, not estimated, whatever the rows before it spent.
constexpr double kOneRunFloorSeconds = 1.0;

}  // namespace matcompare
