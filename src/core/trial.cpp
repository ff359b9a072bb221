#include "trial.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>

#include "clock.hpp"
#include "problem_rows.hpp"

namespace matcompare {
namespace {

// Times a few rows of C. Two trials at least fit a fixed cost and a cost per row: they start near 2e7 flops and
// grow 8x until the latest lasts 20 ms, or until one covers the whole problem (then it is exact). A trial that
// already lasts 20 ms grows only 2x: on 16 cores a single-threaded step's first trial is 16 rows, and 8x that took
// a large part of a slow step's budget. While the cost per row still rises (a step that walks columns: its rows
// outgrow the caches) the trials go on doubling for up to kTrialRisingS; if it still rises then, the trial says so
// and its run time is taken as growing with the square of the rows. A trial of fewer than kTrialMinRows rows (and
// less than an eighth of C) also goes on growing while it lasts under kTrialShortS: a step that walks columns of
// 2560 floats touches a page per row of A and of C, and past a few dozen rows the TLB no longer holds them
// (bench/NOTES.md, "Every row gets a figure (issue 9)").
constexpr double kTrialSingleRunS = 0.05;
constexpr double kTrialRisingS = 0.5;
constexpr double kRisingCostPerRow = 1.3;
constexpr std::int64_t kTrialMinRows = 64;
constexpr double kTrialShortS = 0.1;

}  // namespace

double cost_per_row(std::int64_t few_rows, double few_s, std::int64_t more_rows, double more_s) {
  const double slope = (more_s - few_s) / double(more_rows - few_rows);
  return slope > 0 ? slope : more_s / double(more_rows);
}

Trial trial_run(const Backend& backend, const Problem& p, const BenchmarkOptions& o) {
  const auto started = Clock::now();
  const GemmShape& s = p.shape;
  // At least one row per thread: fewer would leave threads idle and read as a fixed cost.
  const std::int64_t start = std::max<std::int64_t>(std::int64_t(2e7 / (2.0 * double(s.n) * double(s.k))),
                                                    omp_get_max_threads());
  Trial trial;
  std::int64_t rows = std::clamp<std::int64_t>(start, 1, s.m);
  trial.first_rows = rows;
  std::int64_t previous_rows = 0;
  while (true) {
    const auto setting_up = Clock::now();
    auto ws = backend.prepare(GemmShape{rows, s.n, s.k, s.layout});
    // Named, not temporaries: a host-resident workspace keeps references to its inputs.
    const MatrixF a_part = rows == s.m ? MatrixF() : leading_rows_of_a(p.a, s.layout, rows);
    ws->upload(rows == s.m ? p.a : a_part, p.b);
    const MatrixF c_part = rows == s.m || p.beta == 0.0f ? MatrixF() : first_rows(p.c, rows);
    if (p.beta != 0.0f) ws->set_output(rows == s.m ? p.c : c_part);
    const double set_up_s = seconds_since(setting_up);
    // Two runs, the faster counts: the first pays for module loading and library start-up, and a hiccup in
    // either would otherwise read as a cost per row (or a negative one). A first run of 50 ms or more is taken
    // alone: start-up is then a small part of it.
    double t = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 2 && (i == 0 || t < kTrialSingleRunS); ++i) {
      const auto t0 = Clock::now();
      ws->compute(p.alpha, p.beta);
      ws->synchronize();
      t = std::min(t, seconds_since(t0));
    }
    if (!previous_rows) trial.first_s = t;
    const bool rising = previous_rows && t / double(rows) > kRisingCostPerRow * trial.rows_s / double(trial.rows);
    trial.rows = rows;
    trial.rows_s = t;
    const bool exact = rows == s.m;
    const bool few_rows = rows < kTrialMinRows && rows * 8 < s.m && t < kTrialShortS;
    const bool settled =
        previous_rows && t >= 0.02 && !few_rows && (!rising || seconds_since(started) >= kTrialRisingS);
    if (exact || settled) {
      trial.superlinear = !exact && rising;
      trial.per_row_s = exact ? 0.0 : cost_per_row(trial.first_rows, trial.first_s, rows, t);
      if (o.flush_cache) {
        const auto flush_start = Clock::now();
        ws->flush_cache();
        ws->synchronize();
        trial.flush_s = seconds_since(flush_start);
      }
      break;
    }
    previous_rows = rows;
    // A full run that, taken as proportional to the rows (an overestimate unless the cost per row grows), costs
    // less than setting up one more workspace is tried at once: cuBLASMp's worker processes and NCCL take far longer
    // to start than its runs take (bench/NOTES.md, "1× H100, both multi-GPU rows on one GPU").
    const bool full_run_is_cheaper = t * double(s.m) / double(rows) < set_up_s;
    rows = full_run_is_cheaper ? s.m : std::min(s.m, rows * (t >= 0.02 ? 2 : 8));
  }
  trial.spent_s = seconds_since(started);
  return trial;
}

}  // namespace matcompare
