#pragma once
// One row's measurement, in the parts run_benchmarks and measure share: the vendors it is paired with, its plan,
// verification, the full measurement and the estimate for a row whose one run does not fit its budget.
#include <optional>
#include <string>
#include <vector>

#include "clock.hpp"
#include "matcompare/benchmark.hpp"
#include "trial.hpp"

namespace matcompare {

// A run is planned to fit when its trial estimate, with this much to spare, is within the time left.
constexpr double kRunMargin = 1.2;
// An estimate times its rows up to this many times (the first verifies them) and sizes them to fit.
constexpr int kEstimateRuns = 3;
// Compute samples get this share of what is left after verification, end-to-end samples the rest: the compute
// median is the row's figure.
constexpr double kComputeShare = 0.75;

// The vendors a row is timed against: that of its device, that of its precision and the fastest vendor library of
// its precision measured so far (any may be absent, and they may be the same backend).
struct Partners {
  const Backend* vendor = nullptr;
  const Backend* precision_vendor = nullptr;
  const Backend* best_vendor = nullptr;

  // Each backend once, the device's vendor first, then the precision's, then the best.
  std::vector<const Backend*> distinct() const;
};

// Sets vs_vendor, its quartiles, vs_precision_vendor and, with a best vendor, vs_best_vendor, best_vendor and
// vs_best_vendor_pairs from the partners' samples (in distinct() order), paired sample by sample with the row's when
// `paired`, else the median of each against `row_ms`'s single figure.
void set_ratios(BenchmarkResult& r, const Partners& partners, const std::vector<std::vector<double>>& partner_ms,
                const std::vector<double>& row_ms, bool paired);

// The errors of the workspace's C against the problem's reference: every row, or the sampled ones (copied out
// alone, so a sampled problem never needs a host copy of C).
void verify(Workspace& ws, const Problem& p, BenchmarkResult& r);
// Why a verified result did not pass.
std::string verification_failure(const BenchmarkResult& r, std::int64_t k);

// How one row is measured: until when, and what planning already knows.
struct RowPlan {
  Clock::time_point deadline;
  std::optional<Trial> trial;   // from planning; measured here when absent
  double partners_run_s = 0;    // one compute sample of every partner, flush included, as far as known
  // When given, the seconds the row spent taking samples within their deadlines (all of an estimate's that fit) are
  // written here: the rest of its time is a fixed cost (set-ups, uploads, checking the result, a sample that ran past
  // its deadline).
  double* sampling_s = nullptr;
};

// The full measurement: verification, then compute samples paired with the partners in ABBA order, then end-to-end
// samples, each as many as fit before the deadline; the verification run is the one sample when no other fits.
// Adds the seconds its sample loops spent before their deadlines to `sampling_s`.
void measure_in_full(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                     const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r,
                     double& sampling_s);

// The estimate when one full run does not fit: the first rows of C, as many as kEstimateRuns runs allow in the
// time left (never fewer than the trial's first rows, never all), timed and verified against the same rows of the
// reference; one full run is their time plus a cost per row for each of the rest. Each partner is timed on the
// full problem for the ratios.
void estimate_from_rows(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                        const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r);

// One row: availability, the trial (unless planned), then the full measurement or the estimate; a shape that does
// not fit the device reads unavailable, any other error failed.
BenchmarkResult measure_row(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                            const Partners& partners, const RowPlan& plan);

}  // namespace matcompare
