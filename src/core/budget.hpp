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

// What a shape costs beyond its rows' samples: drawing its inputs and reference, the planning trials, and what each
// row spends outside its sample loops or past their deadlines (set-ups, uploads, checking the result, a last sample
// that overran), in seconds. Learnt from the shapes done as a + b x bytes (least squares, neither term negative), so
// that the shapes still to come are planned with theirs. Before any shape is done it predicts nothing; until the
// sizes seen differ by kFixedCostsSpread, the mean (one size tells no slope, and extrapolating a small shape's
// constant as a cost per byte would starve an ascending sweep) (bench/NOTES.md, "A suite's fixed costs in its
// budget").
constexpr double kFixedCostsSpread = 1.5;
class FixedCosts {
 public:
  void observe(double bytes, double seconds);
  double predict(double bytes) const;

 private:
  double n_ = 0, sx_ = 0, sy_ = 0, sxx_ = 0, sxy_ = 0;
  double least_ = 0, most_ = 0;  // bytes
};
// The fixed costs predicted for the shapes left never take more than this part of the time left: a prediction far
// too large still leaves the samples a tenth of it.
constexpr double kMostFixedShare = 0.9;
// The bytes of A, B and C in float32: what a shape's fixed costs are predicted from.
double shape_bytes(const GemmShape& shape);

// No row gets less, even when the budget is spent: enough for a few rows of C, so that it still gets a figure.
constexpr double kMinimumRowSeconds = 0.05;
// Nor less than one full run with its vendor partners, when that takes at most this long: a fast row is then
// measured, not estimated, whatever the rows before it spent.
constexpr double kOneRunFloorSeconds = 1.0;

}  // namespace matcompare
