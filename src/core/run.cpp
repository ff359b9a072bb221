// A whole run: every selected backend, with the vendors it is compared with, on every shape within one budget.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../cpu/openblas_settings.hpp"
#include "argument_checks.hpp"
#include "best_vendor.hpp"
#include "budget.hpp"
#include "matcompare/registry.hpp"
#include "measurement.hpp"
#include "run.hpp"

namespace matcompare {
namespace {

// A multi-GPU row against the single-GPU vendor of the same shape and run. A host-resident row's time includes
// moving the host matrices, so it is compared with the vendor's upload + compute + download; a row whose data
// is already on its GPUs with the vendor's compute time.
void set_speedup(BenchmarkResult& r, const BenchmarkResult* vendor) {
  if (!vendor || r.status != Status::ok || vendor->status != Status::ok || r.devices < 1) return;
  const TimeStats& basis = r.backend.host_resident ? vendor->total : vendor->compute;
  if (basis.samples == 0 || r.compute.median_ms <= 0) return;
  r.speedup = basis.median_ms / r.compute.median_ms;
  r.efficiency = r.speedup / double(r.devices);
}

}  // namespace

std::vector<BenchmarkResult> run_benchmarks(const std::vector<const Backend*>& selected,
                                            const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                            const ProgressFn& progress, const ShapeResultsFn& shape_done) {
  return run_benchmarks_among(all_backends(), selected, shapes, options, progress, shape_done);
}

std::vector<BenchmarkResult> run_benchmarks_among(const std::vector<const Backend*>& universe,
                                                  const std::vector<const Backend*>& selected,
                                                  const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                                  const ProgressFn& progress, const ShapeResultsFn& shape_done,
                                                  const ShapeBudgetFn& budget_seen) {
  check_options(options);
  cpu::adjust_openblas();  // before anything is timed: OpenBLAS at its best core, its idle threads parking quickly
  for (std::size_t i = 0; i < selected.size(); ++i) {
    if (!selected[i]) throw std::invalid_argument("run_benchmarks: backends[" + std::to_string(i) + "] is null");
    // The run is built from the universe (the registry for run_benchmarks): any other backend would be left out
    // without a word.
    if (std::find(universe.begin(), universe.end(), selected[i]) == universe.end())
      throw std::invalid_argument("run_benchmarks: backends[" + std::to_string(i) + "] ('" +
                                  selected[i]->info().name + "') is not one of all_backends() (measure takes any)");
  }
  for (std::size_t i = 0; i < shapes.size(); ++i)
    check_shape(shapes[i], ("run_benchmarks: shapes[" + std::to_string(i) + "]").c_str());
  // Registry order, with the vendor of every selected device and every vendor library of each selected precision
  // on its device added: the baselines the ratios are paired with, and the candidates for the best vendor. A
  // multi-GPU row brings only the vendor (its speedup's basis): it has no best vendor (set_best_vendors).
  std::vector<const Backend*> backends;
  for (const Backend* b : universe) {
    const BackendInfo& info = b->info();
    const bool chosen = std::find(selected.begin(), selected.end(), b) != selected.end();
    const bool vendor_needed = std::any_of(selected.begin(), selected.end(), [&](const Backend* s) {
      const bool compared = info.precision_vendor || (info.vendor_library && !s->info().multi_gpu);
      return s->info().device == info.device &&
             (info.vendor || (compared && s->info().precision == info.precision));
    });
    if (chosen || vendor_needed) backends.push_back(b);
  }
  // Device vendors first, then the other precisions' vendors (paired with them), then the other vendor libraries
  // (paired with both), then everything else, paired with the baselines and with the fastest of the libraries of its
  // precision: a ratio to the best vendor that went through the baseline read 5.4 where the medians gave 0.41, the
  // baseline disturbed beside one of the two rows and not the other (bench/NOTES.md, "A team of another size").
  auto rank = [](const Backend* b) {
    const BackendInfo& info = b->info();
    return info.vendor ? 0 : info.precision_vendor ? 1 : info.vendor_library ? 2 : 3;
  };
  std::vector<const Backend*> order = backends;
  std::stable_sort(order.begin(), order.end(), [&](const Backend* x, const Backend* y) { return rank(x) < rank(y); });

  for (const GemmShape& shape : shapes) check_host_memory(shape, options.beta, options);  // before any work

  std::vector<BenchmarkResult> all;
  const auto start = Clock::now();
  const auto run_deadline = after(run_budget_s(options, shapes.size()));
  int done = 0;
  const int total = int(shapes.size() * order.size());
  double fixed_costs_left_s = 0;  // predicted when the current shape started, before any cap
  // The prediction goes with a shape's first step only: later in the shape part of it is spent, and read against the
  // budget left then it would foretell an overrun that is not coming.
  auto report = [&](const std::string& backend, const GemmShape& shape, bool planning, double row_budget_s,
                    bool drawing_inputs = false) {
    if (progress)
      progress(Progress{backend, shape, planning, done, total, seconds_since(start), row_budget_s,
                        std::max(0.0, seconds_until(run_deadline)), drawing_inputs,
                        drawing_inputs ? fixed_costs_left_s : 0.0});
  };
  FixedCosts fixed_costs;
  for (std::size_t shape_index = 0; shape_index < shapes.size(); ++shape_index) {
    const GemmShape& shape = shapes[shape_index];
    const auto shape_started = Clock::now();
    // Shapes left share equally what is left after the fixed costs predicted for each of them (at most
    // kMostFixedShare of it); what one does not use goes to the next.
    const double left_s = std::max(0.0, seconds_until(run_deadline));
    double fixed_here_s = fixed_costs.predict(shape_bytes(shape));
    double fixed_left_s = fixed_here_s;
    for (std::size_t later = shape_index + 1; later < shapes.size(); ++later)
      fixed_left_s += fixed_costs.predict(shape_bytes(shapes[later]));
    fixed_costs_left_s = fixed_left_s;
    if (fixed_left_s > kMostFixedShare * left_s) {
      fixed_here_s *= kMostFixedShare * left_s / fixed_left_s;
      fixed_left_s = kMostFixedShare * left_s;
    }
    ShapeBudget budget{shape, left_s, fixed_left_s, fixed_here_s, {}, 0};
    const double samples_left_s = left_s - fixed_left_s;
    const auto shape_deadline = after(samples_left_s / double(shapes.size() - shape_index) + fixed_here_s);
    report("", shape, false, 0, true);
    const Problem problem =
        make_problem(shape, options.alpha, options.beta, options.seed, options.input_values, options);

    // Planning: a few-row trial of every row says what its full measurement would cost.
    std::map<const Backend*, Trial> trials;
    for (const Backend* b : order) {
      if (!b->availability(shape.layout).available) continue;
      report(b->info().name, shape, true, 0);
      try {
        trials[b] = trial_run(*b, problem, options);
      } catch (const std::exception&) {
        // Not planned for: the row's own measurement repeats the trial and reports what failed.
      }
    }
    // The vendors a row will be paired with, as planned (measurement pairs only with those that then ran): its
    // baselines and, for a row that is no vendor library, the best library of its precision, planned as the one
    // whose trial ran fastest.
    auto planned_partners_s = [&](const Backend* b) {
      const BackendInfo& row = b->info();
      double seconds = 0, best_library_s = 0;
      for (const Backend* other : order) {
        const BackendInfo& info = other->info();
        const auto trial = trials.find(other);
        if (other == b || info.device != row.device || trial == trials.end()) continue;
        const double run_s = trial->second.run_s(shape.m) + trial->second.flush_s;
        if (info.vendor || (info.precision_vendor && info.precision == row.precision))
          seconds += run_s;
        else if (info.vendor_library && !row.vendor_library && info.precision == row.precision &&
                 (best_library_s == 0 || run_s < best_library_s))
          best_library_s = run_s;
      }
      return row.vendor || row.multi_gpu ? 0.0 : seconds + best_library_s;
    };
    std::vector<double> demands;
    for (const Backend* b : order) {
      const auto trial = trials.find(b);
      demands.push_back(trial == trials.end() ? 0.0 : demand_s(trial->second, shape.m, planned_partners_s(b), options));
    }

    std::map<const Backend*, BenchmarkResult> by_backend;
    // The vendors that ran: of each device, and of each (device, precision); and the fastest vendor library measured
    // in full of each (device, precision), by its ratio to the baseline (as set_best_vendors picks it).
    std::map<DeviceKind, const Backend*> device_vendor;
    std::map<std::pair<DeviceKind, Precision>, const Backend*> precision_vendor;
    std::map<std::pair<DeviceKind, Precision>, std::pair<double, const Backend*>> best_library;
    auto vendor_of = [](const auto& table, const auto& key) -> const Backend* {
      const auto found = table.find(key);
      return found == table.end() ? nullptr : found->second;
    };
    const double set_up_s = seconds_since(shape_started);
    double rows_fixed_s = 0;  // what the rows spent besides taking samples
    for (std::size_t row = 0; row < order.size(); ++row) {
      const Backend* b = order[row];
      const BackendInfo& info = b->info();
      const std::vector<double> demands_left(demands.begin() + std::ptrdiff_t(row), demands.end());
      const auto trial = trials.find(b);
      double floor_s = kMinimumRowSeconds;
      if (trial != trials.end()) {
        const double one_run_s = kRunMargin * (trial->second.run_s(shape.m) + trial->second.flush_s) +
                                 planned_partners_s(b);
        if (one_run_s <= kOneRunFloorSeconds) floor_s = std::max(floor_s, one_run_s);
      }
      // The shape's predicted fixed costs not yet spent are kept out of the rows' shares, this row's own included:
      // they may outgrow its share. What a row's own leave of them goes to the rows after it (after the last row,
      // to the shapes after it).
      const double kept_for_fixed_s = std::max(0.0, fixed_here_s - set_up_s - rows_fixed_s);
      budget.kept_for_fixed_s.push_back(kept_for_fixed_s);
      const double shape_left_s = std::max(0.0, seconds_until(shape_deadline) - kept_for_fixed_s);
      const double row_budget_s =
          std::min(options.time_limit_s, std::max(floor_s, first_share(demands_left, shape_left_s)));
      const auto row_started = Clock::now();
      report(info.name, shape, false, row_budget_s);
      double sampling_s = 0;
      const RowPlan plan{after(row_budget_s),
                         trial == trials.end() ? std::nullopt : std::optional<Trial>(trial->second),
                         planned_partners_s(b), &sampling_s};
      Partners partners;
      // A multi-GPU row is compared by its speedup over the single-GPU vendor, not paired with it.
      if (!info.vendor && !info.multi_gpu) {
        partners.vendor = vendor_of(device_vendor, info.device);
        if (partners.vendor) partners.precision_vendor = vendor_of(precision_vendor, std::make_pair(info.device, info.precision));
        const auto best = best_library.find({info.device, info.precision});
        if (partners.vendor && !info.vendor_library && best != best_library.end())
          partners.best_vendor = best->second.second;
      }
      BenchmarkResult r = measure_row(*b, problem, options, partners, plan);
      rows_fixed_s += std::max(0.0, seconds_since(row_started) - sampling_s);
      if (info.vendor && r.status == Status::ok) {
        r.vs_vendor = 1.0;
        device_vendor[info.device] = b;
      }
      if ((info.vendor || info.precision_vendor) && r.status == Status::ok) {
        r.vs_precision_vendor = 1.0;
        precision_vendor[{info.device, info.precision}] = b;
      }
      if (competes_for_best_vendor(r)) {
        auto& best = best_library[{info.device, info.precision}];
        if (r.vs_precision_vendor > best.first) best = {r.vs_precision_vendor, b};
      }
      by_backend[b] = std::move(r);
      ++done;
    }
    const auto rows_ended = Clock::now();
    const Backend* gpu_vendor = vendor_of(device_vendor, DeviceKind::gpu);
    for (auto& [b, r] : by_backend)
      if (b->info().multi_gpu) set_speedup(r, gpu_vendor ? &by_backend[gpu_vendor] : nullptr);
    std::vector<BenchmarkResult> shape_results;
    for (const Backend* b : backends) shape_results.push_back(std::move(by_backend[b]));
    set_best_vendors(shape_results);
    if (shape_done) shape_done(shape_results);
    for (BenchmarkResult& r : shape_results) all.push_back(std::move(r));
    // Handing the results over (a partial file rewritten whole) is a fixed cost of the shape, too.
    budget.fixed_s = set_up_s + rows_fixed_s + seconds_since(rows_ended);
    fixed_costs.observe(shape_bytes(shape), budget.fixed_s);
    if (budget_seen) budget_seen(budget);
  }
  report("", shapes.empty() ? GemmShape{} : shapes.back(), false, 0);
  return all;
}

}  // namespace matcompare
