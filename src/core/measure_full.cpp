#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "measurement.hpp"
#include "number_text.hpp"
#include "sampling.hpp"
#include "statistics.hpp"
#include "throttle.hpp"
#include "timed_workspace.hpp"

namespace matcompare {

void measure_in_full(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                     const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r,
                     double& sampling_s) {
  TimedWorkspace row(backend, p);
  const double verify_ms = row.compute_ms(p, o);
  verify(*row.ws, p, r);
  r.kernel = row.ws->kernel();
  if (!r.errors.passed) {
    r.status = Status::failed;
    r.reason = verification_failure(r, p.shape.k);
    return;
  }

  const double run_s = trial.run_s(p.shape.m) + trial.flush_s;
  const auto compute_deadline = after(std::max(0.0, seconds_until(deadline)) * kComputeShare);
  std::vector<TimedWorkspace> others;
  for (const Backend* partner : partners.distinct()) others.emplace_back(*partner, p);
  std::vector<std::vector<double>> partner_ms(others.size());
  auto time_partners = [&] {
    for (std::size_t i = 0; i < others.size(); ++i) partner_ms[i].push_back(others[i].compute_ms(p, o));
  };
  std::vector<double> row_ms;
  int round = 0;
  ThrottleGuard guard;
  // A loop's time past its deadline (a last sample longer than the longest so far) is not sampling the plan had room
  // for: it counts with the row's fixed costs.
  const auto compute_sampling = Clock::now();
  const double compute_room_s = std::max(0.0, seconds_until(compute_deadline));
  r.compute = sample(o, compute_deadline, run_s + partners_run_s, [&]() -> std::optional<double> {
    // ABBA: whoever went second goes first next time, so a slope in time favours neither.
    const bool partners_first = round++ % 2 == 1;
    if (partners_first) time_partners();
    const double t = row.compute_ms(p, o);
    if (!partners_first) time_partners();
    std::vector<ClockReading> partner_clocks;
    for (const TimedWorkspace& other : others) partner_clocks.push_back(other.clock);
    if (guard.drop(row.clock, partner_clocks)) {
      for (std::vector<double>& ms : partner_ms) ms.pop_back();
      return std::nullopt;
    }
    row_ms.push_back(t);
    return t;
  }, [&] {
    for (const std::vector<double>& ms : partner_ms)
      if (!ratio_settled(ms, row_ms)) return false;
    return true;
  });
  sampling_s += std::min(seconds_since(compute_sampling), compute_room_s);
  if (r.compute.samples == 0) {
    // Only the verification run fitted: it is the sample, paired with one run of each partner (vendors are the
    // fastest rows, and a figure without its ratio would leave a hole in the table). Each partner runs once untimed
    // first: a partner's first run on its new workspace, after the host verified the row, read a median 1.1-2.1x its
    // own row's time on the GPU suites, and a ratio of one pair has nothing to even it out (bench/NOTES.md, "A ratio
    // of one pair").
    row_ms = {verify_ms};
    time_partners();
    for (std::vector<double>& ms : partner_ms) ms.clear();
    time_partners();
    r.compute = summarize(row_ms);
  }
  others.clear();
  set_ratios(r, partners, partner_ms, row_ms, true);
  r.clock_mhz = guard.median_mhz();
  r.clock_max_mhz = guard.max_mhz();
  r.throttled_rounds = guard.dropped();
  if (backend.info().host_resident) {
    r.total = r.compute;  // its compute already moves the host matrices in and C out
  } else {
    MatrixF out(std::size_t(p.shape.m), std::size_t(p.shape.n));
    const auto total_sampling = Clock::now();
    const double total_room_s = std::max(0.0, seconds_until(deadline));
    r.total = sample(o, deadline, run_s, [&] {
      if (o.flush_cache) row.ws->flush_cache();
      row.ws->synchronize();
      const auto start = Clock::now();
      row.ws->upload(p.a, p.b);
      if (p.beta != 0.0f) row.ws->set_output(p.c);
      row.ws->compute(p.alpha, p.beta);
      row.ws->download(out);
      return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    });
    sampling_s += std::min(seconds_since(total_sampling), total_room_s);
  }
  r.gflops = p.shape.flops() / (r.compute.median_ms * 1e6);
  r.status = Status::ok;
  if (guard.gave_up())
    r.reason = format("the clock stayed under %.0f%% of its maximum for ", 100 * kThrottledClockFraction) +
               std::to_string(kMaxThrottledInARow) + " rounds in a row: the later samples ran at the lowered clock";
  else if (r.compute.samples < o.repetitions || r.total.samples < o.repetitions)
    r.reason = std::to_string(r.compute.samples) + " compute and " + std::to_string(r.total.samples) +
               " end-to-end samples of " + std::to_string(o.repetitions) + format(" fit its budget of %.3g s", r.budget_s) +
               format(" (one run ~%.3g s)", trial.run_s(p.shape.m));
}

}  // namespace matcompare
