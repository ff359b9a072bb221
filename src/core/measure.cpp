// One backend on one problem: the public measure and measure_paired, and measure_row, which run_benchmarks shares.
#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "../cpu/openblas_settings.hpp"
#include "matcompare/context.hpp"
#include "measurement.hpp"

namespace matcompare {
namespace {

// How many GPUs the row uses, and what a multi-GPU row's speedup will compare.
void set_devices(BenchmarkResult& r) {
  if (r.backend.device == DeviceKind::gpu) r.devices = r.backend.multi_gpu ? int(selected_gpus().size()) : 1;
  if (r.backend.multi_gpu) r.speedup_basis = r.backend.host_resident ? "end-to-end" : "compute";
}

}  // namespace

std::string to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::estimated: return "estimated";
    case Status::failed: return "failed";
    case Status::unavailable: return "unavailable";
  }
  throw std::invalid_argument("to_string: Status " + std::to_string(static_cast<int>(s)) +
                              " is none of ok, estimated, failed, unavailable");
}

BenchmarkResult measure_row(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                            const Partners& partners, const RowPlan& plan) {
  check_options(o);
  cpu::adjust_openblas();  // before anything is timed: OpenBLAS at its best core, its idle threads parking quickly
  const auto started = Clock::now();
  double sampling_s = 0;  // handed to the plan however the row ends
  BenchmarkResult r;
  r.backend = backend.info();
  r.shape = p.shape;
  r.alpha = p.alpha;
  r.beta = p.beta;
  r.budget_s = std::max(0.0, seconds_until(plan.deadline));
  set_devices(r);
  const Availability avail = backend.availability(p.shape.layout);
  if (!avail.available) {
    r.status = Status::unavailable;
    r.reason = avail.reason;
    return r;
  }
  try {
    const Trial trial = plan.trial ? *plan.trial : trial_run(backend, p, o);
    r.estimated_run_s = trial.run_s(p.shape.m);
    const bool whole_problem_tried = trial.rows == p.shape.m;
    // A problem verified on a sample has no reference of its first rows to estimate from: it runs in full.
    if (whole_problem_tried || p.sampled() || r.estimated_run_s * kRunMargin <= seconds_until(plan.deadline)) {
      measure_in_full(backend, p, o, partners, trial, plan.partners_run_s, plan.deadline, r, sampling_s);
    } else {
      const auto estimating = Clock::now();
      const double room_s = std::max(0.0, seconds_until(plan.deadline));
      estimate_from_rows(backend, p, o, partners, trial, plan.partners_run_s, plan.deadline, r);
      sampling_s = std::min(seconds_since(estimating), room_s);
    }
    if (plan.trial) r.spent_s += plan.trial->spent_s;
  } catch (const ResourceLimit& e) {
    // Whatever the planning trial measured, no full run fits this machine: no figure, and no failure.
    BenchmarkResult unavailable;
    unavailable.backend = r.backend;
    unavailable.shape = r.shape;
    unavailable.alpha = r.alpha;
    unavailable.beta = r.beta;
    unavailable.reason = e.what();
    set_devices(unavailable);
    if (plan.sampling_s) *plan.sampling_s = sampling_s;
    return unavailable;
  } catch (const std::bad_alloc&) {
    r.status = Status::failed;
    r.reason = "out of host memory";
  } catch (const std::exception& e) {
    r.status = Status::failed;
    r.reason = e.what();
  }
  r.spent_s += seconds_since(started);
  if (plan.sampling_s) *plan.sampling_s = sampling_s;
  return r;
}

BenchmarkResult measure(const Backend& backend, const Problem& p, const BenchmarkOptions& o) {
  check_options(o);
  check_problem(p);
  return measure_row(backend, p, o, Partners{}, RowPlan{after(o.time_limit_s), std::nullopt, 0.0});
}

BenchmarkResult measure_paired(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                               const Backend& vendor, const Backend* precision_vendor) {
  check_options(o);
  check_problem(p);
  return measure_row(backend, p, o, Partners{&vendor, precision_vendor},
                     RowPlan{after(o.time_limit_s), std::nullopt, 0.0});
}

}  // namespace matcompare
