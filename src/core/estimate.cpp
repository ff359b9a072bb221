#include <limits>
#include <string>
#include <vector>

#include "budget.hpp"
#include "measurement.hpp"
#include "number_text.hpp"
#include "problem_rows.hpp"
#include "statistics.hpp"
#include "timed_workspace.hpp"

namespace matcompare {
namespace {

std::string rows_text(std::int64_t rows) { return "rows 0-" + std::to_string(rows - 1); }

}  // namespace

void estimate_from_rows(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                        const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r) {
  const std::int64_t m = p.shape.m;
  const double per_run_s = (seconds_until(deadline) - partners_run_s) / kEstimateRuns - trial.flush_s;
  const std::int64_t rows = estimate_rows(trial, m, per_run_s);
  const GemmShape part{rows, p.shape.n, p.shape.k, p.shape.layout};
  const MatrixF a_rows = leading_rows_of_a(p.a, p.shape.layout, rows);
  const MatrixF c_in = p.beta == 0.0f ? MatrixF() : first_rows(p.c, rows);
  Reference reference;
  reference.value = first_rows(p.reference.value, rows);
  reference.scale = first_rows(p.reference.scale, rows);
  reference.k = p.reference.k;

  TimedWorkspace subset(backend, part, a_rows, p.b, c_in, p.beta);
  MatrixF out(std::size_t(rows), p.shape.n, std::numeric_limits<float>::quiet_NaN());
  std::vector<double> subset_ms{subset.compute_ms(p.alpha, p.beta, c_in, o)};
  subset.ws->download(out);
  // The kernel a row chooses per shape may differ between these rows and the whole problem (a few rows go to
  // the few-rows kernels): it is named with the rows it ran on.
  r.kernel = subset.ws->kernel();
  if (!r.kernel.empty()) r.kernel += " (" + rows_text(rows) + ")";
  r.errors = compare_to_reference(out, reference, r.backend.precision);
  r.verified = true;
  r.verified_rows = rows;
  r.estimate_rows = rows;
  if (!r.errors.passed) {
    r.status = Status::failed;
    r.reason = verification_failure(r, p.shape.k) + " (" + rows_text(rows) + ", timed for an estimate)";
    return;
  }
  const double subset_run_s = subset_ms.front() / 1e3 + trial.flush_s;
  while (int(subset_ms.size()) < std::min(o.repetitions, kEstimateRuns) &&
         seconds_until(deadline) >= subset_run_s + partners_run_s)
    subset_ms.push_back(subset.compute_ms(p.alpha, p.beta, c_in, o));

  r.estimate_subset_ms = median(subset_ms);
  // The slope over the widest span of rows timed: from the trial's first rows to these, unless the trial's
  // larger run had more rows than these.
  r.estimate_ms_per_row = 1e3 * (rows > trial.rows ? cost_per_row(trial.first_rows, trial.first_s, rows,
                                                                   r.estimate_subset_ms / 1e3)
                                                   : trial.per_row_s);
  const double estimate_ms = r.estimate_subset_ms + r.estimate_ms_per_row * double(m - rows);
  r.compute = summarize(subset_ms);
  r.compute.median_ms = estimate_ms;
  r.compute.min_ms = r.compute.max_ms = r.compute.cv = 0;
  r.gflops = p.shape.flops() / (estimate_ms * 1e6);
  r.status = Status::estimated;
  r.reason = "estimate from " + rows_text(rows) + " of " + std::to_string(m) + " (" +
             std::to_string(subset_ms.size()) + (subset_ms.size() == 1 ? " run" : " runs") +
             format(", median %.4g ms, verified)", r.estimate_subset_ms) +
             format(" plus %.3g ms per further row", r.estimate_ms_per_row) +
             format(": one full run ~%.3g s", estimate_ms / 1e3) +
             format(" (planned from the trial at ~%.3g s,", r.estimated_run_s) +
             format(" too long for its budget of %.3g s)", r.budget_s);

  std::vector<std::vector<double>> partner_ms;
  for (const Backend* partner : partners.distinct()) {
    TimedWorkspace vendor(*partner, p);
    partner_ms.push_back({vendor.compute_ms(p, o)});
    // The first run on fresh storage pays for touching it: a second one where it fits.
    if (seconds_until(deadline) >= partner_ms.back().front() / 1e3)
      partner_ms.back().push_back(vendor.compute_ms(p, o));
  }
  set_ratios(r, partners, partner_ms, {estimate_ms}, false);
}

}  // namespace matcompare
