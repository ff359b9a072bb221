#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <new>
#include <stdexcept>
#include <string>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"
#include "matcompare/registry.hpp"
#include "budget.hpp"
#include "host_memory.hpp"

namespace matcompare {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string format(const char* fmt, double x) {
  char text[64];
  std::snprintf(text, sizeof text, fmt, x);
  return text;
}

// Mixes the user's seed with the shape and the operand so every matrix of a run is fresh.
std::uint64_t derive_seed(std::uint64_t seed, const GemmShape& s, std::uint64_t operand) {
  std::uint64_t x = seed ^ (std::uint64_t(s.m) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(s.n) << 21) ^
                    (std::uint64_t(s.k) << 42) ^ (operand * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 29);
}

template <typename T>
Matrix<T> first_rows(const Matrix<T>& x, std::int64_t rows) {
  Matrix<T> part(std::size_t(rows), x.cols());
  std::copy(x.data(), x.data() + std::size_t(rows) * x.cols(), part.data());
  return part;
}

// The instant `seconds` from now.
Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double seconds_until(Clock::time_point t) { return std::chrono::duration<double>(t - Clock::now()).count(); }

TimeStats summarize(std::vector<double> ms) {
  TimeStats t;
  t.samples = int(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  double mean = 0;
  for (double x : ms) mean += x;
  mean /= double(n);
  double var = 0;
  for (double x : ms) var += (x - mean) * (x - mean);
  t.cv = (n > 1 && mean > 0) ? std::sqrt(var / double(n - 1)) / mean : 0;
  return t;
}

// A paired measurement that is not `settled` by then stops at this many times min_time (or its deadline).
constexpr double kUnsettledMinTimes = 8;

// Samples until at least `repetitions` samples and `min_time` of timed work; a run whose untimed preparation
// dominates (cache flushes around microsecond kernels) stops at 4x min_time. Past that it goes on while `settled()`
// says no, up to kUnsettledMinTimes x min_time. The deadline ends it earlier: a sample starts only if one as long as
// the longest so far (the first: `first_guess_s`) ends before it, so there may be none. `one_sample` does its own
// untimed preparation and returns the timed milliseconds.
template <typename OneSample, typename Settled>
TimeStats sample(const BenchmarkOptions& o, Clock::time_point deadline, double first_guess_s, OneSample one_sample,
                 Settled settled) {
  std::vector<double> ms;
  double timed_total_ms = 0, longest_s = first_guess_s;
  const auto start = Clock::now();
  while (seconds_until(deadline) >= longest_s) {
    const auto sample_start = Clock::now();
    const double t = one_sample();
    longest_s = ms.empty() ? seconds_since(sample_start) : std::max(longest_s, seconds_since(sample_start));
    ms.push_back(t);
    timed_total_ms += t;
    const double elapsed_s = seconds_since(start);
    const bool enough_samples = int(ms.size()) >= o.repetitions;
    const bool enough_time = timed_total_ms >= o.min_time_s * 1000.0 || elapsed_s >= 4 * o.min_time_s;
    if (enough_samples && enough_time && (elapsed_s >= kUnsettledMinTimes * o.min_time_s || settled())) break;
  }
  return summarize(std::move(ms));
}
template <typename OneSample>
TimeStats sample(const BenchmarkOptions& o, Clock::time_point deadline, double first_guess_s, OneSample one_sample) {
  return sample(o, deadline, first_guess_s, one_sample, [] { return true; });
}

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t below = std::size_t(at);
  const double above_weight = at - double(below);
  return below + 1 < sorted.size() ? sorted[below] * (1 - above_weight) + sorted[below + 1] * above_weight
                                   : sorted[below];
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return quantile(values, 0.5);
}

// A workspace ready for compute samples: inputs resident, and the C every sample starts from.
struct Timed {
  std::unique_ptr<Workspace> ws;
  std::unique_ptr<Stopwatch> watch;

  // With β = 0 C is poisoned: NaN there makes any read of it, or any element left unwritten, show in the result.
  Timed(const Backend& backend, const GemmShape& shape, const MatrixF& a, const MatrixF& b, const MatrixF& c_in,
        float beta)
      : ws(backend.prepare(shape)) {
    ws->upload(a, b);
    if (beta == 0.0f)
      ws->poison_output(shape);
    else
      ws->set_output(c_in);
    watch = ws->stopwatch();
  }
  Timed(const Backend& backend, const Problem& p) : Timed(backend, p.shape, p.a, p.b, p.c, p.beta) {}
  // One compute sample; resetting C and flushing the caches are outside the timed region.
  double compute_ms(float alpha, float beta, const MatrixF& c_in, const BenchmarkOptions& o) {
    if (beta != 0.0f) ws->set_output(c_in);
    if (o.flush_cache) ws->flush_cache();
    watch->start();
    ws->compute(alpha, beta);
    watch->stop();
    return watch->elapsed_ms();
  }
  double compute_ms(const Problem& p, const BenchmarkOptions& o) { return compute_ms(p.alpha, p.beta, p.c, o); }
};

// Vendor time / row time for each pair, summarized: median and quartiles.
struct PairedRatio {
  double median = 0, q1 = 0, q3 = 0;
  int pairs = 0;
};
PairedRatio paired_ratio(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < vendor_ms.size() && i < row_ms.size(); ++i)
    if (row_ms[i] > 0) ratios.push_back(vendor_ms[i] / row_ms[i]);
  PairedRatio r;
  if (ratios.empty()) return r;
  std::sort(ratios.begin(), ratios.end());
  r = {quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75), int(ratios.size())};
  return r;
}

// Whether the median of the paired ratios is known to within kRatioPrecision: its standard error, for a spread near
// normal 1.2533 sigma / sqrt(pairs) with sigma ~ IQR / 1.349, is at most that share of it. One disturbed pair of five
// moves a median by the spread itself; a wide spread takes more pairs.
constexpr double kRatioPrecision = 0.01;
bool ratio_settled(const std::vector<double>& vendor_ms, const std::vector<double>& row_ms) {
  const PairedRatio r = paired_ratio(vendor_ms, row_ms);
  if (r.pairs < 2) return false;
  return 0.929 * (r.q3 - r.q1) / std::sqrt(double(r.pairs)) <= kRatioPrecision * r.median;
}

// Seconds per row of C between two timed row counts. More rows cannot cost less: noise that says so leaves the
// time proportional to the rows.
double cost_per_row(std::int64_t few_rows, double few_s, std::int64_t more_rows, double more_s) {
  const double slope = (more_s - few_s) / double(more_rows - few_rows);
  return slope > 0 ? slope : more_s / double(more_rows);
}

// Times a few rows of C. Two trials at least fit a fixed cost and a cost per row: they start near 2e7 flops and
// grow 8x until the latest lasts 20 ms, or until one covers the whole problem (then it is exact). A trial that
// already lasts 20 ms grows only 2x: on 16 cores a single-threaded step's first trial is 16 rows, and 8x that took
// 7 s of a 50 s budget per slow step. While the cost per row still rises (a step that walks columns: its rows
// outgrow the caches) the trials go on doubling for up to kTrialRisingS; if it still rises then, the trial says so
// and its run time is taken as growing with the square of the rows. A trial of fewer than kTrialMinRows rows (and
// less than an eighth of C) also goes on growing while it lasts under kTrialShortS: a step that walks columns of
// 2560 floats touches a page per row of A and of C, and past a few dozen rows the TLB no longer holds them (2 ms
// per row over 16 rows, 47 ms per row over 1024, on 2 Zen 5 cores).
constexpr double kTrialSingleRunS = 0.05;
constexpr double kTrialRisingS = 0.5;
constexpr double kRisingCostPerRow = 1.3;
constexpr std::int64_t kTrialMinRows = 64;
constexpr double kTrialShortS = 0.1;

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
    auto ws = backend.prepare(GemmShape{rows, s.n, s.k});
    // Named, not temporaries: a host-resident workspace keeps references to its inputs.
    const MatrixF a_part = rows == s.m ? MatrixF() : first_rows(p.a, rows);
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
    // less than setting up one more workspace is tried at once: cuBLASMp's worker processes and NCCL take ~1 s to
    // start, its 2048 run 0.3 ms.
    const bool full_run_is_cheaper = t * double(s.m) / double(rows) < set_up_s;
    rows = full_run_is_cheaper ? s.m : std::min(s.m, rows * (t >= 0.02 ? 2 : 8));
  }
  trial.spent_s = seconds_since(started);
  return trial;
}

// The vendors a row is timed against: that of its device and that of its precision (either may be absent, and
// they may be the same backend).
struct Partners {
  const Backend* vendor = nullptr;
  const Backend* precision_vendor = nullptr;

  // Each backend once, the device's vendor first.
  std::vector<const Backend*> distinct() const {
    std::vector<const Backend*> list;
    if (vendor) list.push_back(vendor);
    if (precision_vendor && precision_vendor != vendor) list.push_back(precision_vendor);
    return list;
  }
};

// Sets vs_vendor, its quartiles and vs_precision_vendor from the partners' samples (in distinct() order), paired
// sample by sample with the row's when `paired`, else the median of each against `row_ms`'s single figure.
void set_ratios(BenchmarkResult& r, const Partners& partners, const std::vector<std::vector<double>>& partner_ms,
                const std::vector<double>& row_ms, bool paired) {
  auto ratio = [&](std::size_t partner) {
    if (partner >= partner_ms.size() || partner_ms[partner].empty()) return PairedRatio{};
    if (paired) return paired_ratio(partner_ms[partner], row_ms);
    PairedRatio unpaired;
    unpaired.median = median(partner_ms[partner]) / row_ms.front();
    return unpaired;
  };
  if (!partners.vendor) return;
  const PairedRatio device = ratio(0);
  r.vs_vendor = device.median;
  r.vs_vendor_q1 = device.q1;
  r.vs_vendor_q3 = device.q3;
  r.vs_vendor_pairs = device.pairs;
  if (partners.precision_vendor) r.vs_precision_vendor = partners.precision_vendor == partners.vendor ? device.median
                                                                                                       : ratio(1).median;
}

// Why a verified result did not pass.
std::string verification_failure(const BenchmarkResult& r, std::int64_t k) {
  return !r.errors.finite ? std::string("NaN or Inf in the result")
                          : format("differs from the float64 reference: blas ratio %.3g", r.errors.blas_ratio) +
                                format(" > %.3g", blas_ratio_threshold(r.backend.precision, k));
}

std::string rows_text(std::int64_t rows) { return "rows 0-" + std::to_string(rows - 1); }

// A run is planned to fit when its trial estimate, with this much to spare, is within the time left.
constexpr double kRunMargin = 1.2;
// An estimate times its rows up to this many times (the first verifies them) and sizes them to fit.
constexpr int kEstimateRuns = 3;
// Compute samples get this share of what is left after verification, end-to-end samples the rest: the compute
// median is the row's figure.
constexpr double kComputeShare = 0.75;

// The full measurement: verification, then compute samples paired with the partners, then end-to-end samples,
// each as many as fit before the deadline; the verification run is the one sample when no other fits.
// The errors of the workspace's C against the problem's reference: every row, or the sampled ones (copied out
// alone, so a sampled problem never needs a host copy of C).
void verify(Workspace& ws, const Problem& p, BenchmarkResult& r) {
  if (p.sampled()) {
    MatrixF rows(p.verified_rows.size(), std::size_t(p.shape.n), std::numeric_limits<float>::quiet_NaN());
    ws.download_rows(p.verified_rows, p.shape, rows);
    r.errors = compare_to_reference(rows, p.reference, r.backend.precision);
    r.verified_rows = std::int64_t(p.verified_rows.size());
    r.verification_sample = describe_sample(r.verified_rows, p.shape.m);
  } else {
    MatrixF out(std::size_t(p.shape.m), std::size_t(p.shape.n), std::numeric_limits<float>::quiet_NaN());
    ws.download(out);
    r.errors = compare_to_reference(out, p.reference, r.backend.precision);
    r.verified_rows = p.shape.m;
  }
  r.verified = true;
}

void measure_in_full(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                     const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r) {
  Timed row(backend, p);
  const double verify_ms = row.compute_ms(p, o);
  verify(*row.ws, p, r);
  if (!r.errors.passed) {
    r.status = Status::failed;
    r.reason = verification_failure(r, p.shape.k);
    return;
  }

  const double run_s = trial.run_s(p.shape.m) + trial.flush_s;
  const auto compute_deadline = after(std::max(0.0, seconds_until(deadline)) * kComputeShare);
  std::vector<Timed> others;
  for (const Backend* partner : partners.distinct()) others.emplace_back(*partner, p);
  std::vector<std::vector<double>> partner_ms(others.size());
  auto time_partners = [&] {
    for (std::size_t i = 0; i < others.size(); ++i) partner_ms[i].push_back(others[i].compute_ms(p, o));
  };
  std::vector<double> row_ms;
  int round = 0;
  r.compute = sample(o, compute_deadline, run_s + partners_run_s, [&] {
    // ABBA: whoever went second goes first next time, so a slope in time favours neither.
    const bool partners_first = round++ % 2 == 1;
    if (partners_first) time_partners();
    const double t = row.compute_ms(p, o);
    if (!partners_first) time_partners();
    row_ms.push_back(t);
    return t;
  }, [&] {
    for (const std::vector<double>& ms : partner_ms)
      if (!ratio_settled(ms, row_ms)) return false;
    return true;
  });
  if (r.compute.samples == 0) {
    // Only the verification run fitted: it is the sample, paired with one run of each partner (vendors are the
    // fastest rows, and a figure without its ratio would leave a hole in the table).
    row_ms = {verify_ms};
    time_partners();
    r.compute = summarize(row_ms);
  }
  others.clear();
  set_ratios(r, partners, partner_ms, row_ms, true);
  if (backend.info().host_resident) {
    r.total = r.compute;  // its compute already moves the host matrices in and C out
  } else {
    MatrixF out(std::size_t(p.shape.m), std::size_t(p.shape.n));
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
  }
  r.gflops = p.shape.flops() / (r.compute.median_ms * 1e6);
  r.status = Status::ok;
  if (r.compute.samples < o.repetitions || r.total.samples < o.repetitions)
    r.reason = std::to_string(r.compute.samples) + " compute and " + std::to_string(r.total.samples) +
               " end-to-end samples of " + std::to_string(o.repetitions) + format(" fit its budget of %.3g s", r.budget_s) +
               format(" (one run ~%.3g s)", trial.run_s(p.shape.m));
}

// The estimate when one full run does not fit: the first rows of C, as many as kEstimateRuns runs allow in the
// time left (never fewer than the trial's first rows, never all), timed and verified against the same rows of the
// reference; one full run is their time plus a cost per row for each of the rest. Each partner is timed on the
// full problem for the ratios.
void estimate_from_rows(const Backend& backend, const Problem& p, const BenchmarkOptions& o, const Partners& partners,
                        const Trial& trial, double partners_run_s, Clock::time_point deadline, BenchmarkResult& r) {
  const std::int64_t m = p.shape.m;
  const double per_run_s = (seconds_until(deadline) - partners_run_s) / kEstimateRuns - trial.flush_s;
  const std::int64_t rows = estimate_rows(trial, m, per_run_s);
  const GemmShape part{rows, p.shape.n, p.shape.k};
  const MatrixF a_rows = first_rows(p.a, rows);
  const MatrixF c_in = p.beta == 0.0f ? MatrixF() : first_rows(p.c, rows);
  Reference reference;
  reference.value = first_rows(p.reference.value, rows);
  reference.scale = first_rows(p.reference.scale, rows);
  reference.k = p.reference.k;

  Timed subset(backend, part, a_rows, p.b, c_in, p.beta);
  MatrixF out(std::size_t(rows), p.shape.n, std::numeric_limits<float>::quiet_NaN());
  std::vector<double> subset_ms{subset.compute_ms(p.alpha, p.beta, c_in, o)};
  subset.ws->download(out);
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
    Timed vendor(*partner, p);
    partner_ms.push_back({vendor.compute_ms(p, o)});
    // The first run on fresh storage pays for touching it: a second one where it fits.
    if (seconds_until(deadline) >= partner_ms.back().front() / 1e3)
      partner_ms.back().push_back(vendor.compute_ms(p, o));
  }
  set_ratios(r, partners, partner_ms, {estimate_ms}, false);
}

// How one row is measured: until when, and what planning already knows.
struct RowPlan {
  Clock::time_point deadline;
  std::optional<Trial> trial;   // from planning; measured here when absent
  double partners_run_s = 0;    // one compute sample of every partner, flush included, as far as known
};

// How many GPUs the row uses, and what a multi-GPU row's speedup will compare.
void set_devices(BenchmarkResult& r) {
  if (r.backend.device == DeviceKind::gpu) r.devices = r.backend.multi_gpu ? int(selected_gpus().size()) : 1;
  if (r.backend.multi_gpu) r.speedup_basis = r.backend.host_resident ? "end-to-end" : "compute";
}

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

BenchmarkResult measure_row(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                            const Partners& partners, const RowPlan& plan) {
  check_options(o);
  const auto started = Clock::now();
  BenchmarkResult r;
  r.backend = backend.info();
  r.shape = p.shape;
  r.alpha = p.alpha;
  r.beta = p.beta;
  r.budget_s = std::max(0.0, seconds_until(plan.deadline));
  set_devices(r);
  const Availability avail = backend.availability();
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
    if (whole_problem_tried || p.sampled() || r.estimated_run_s * kRunMargin <= seconds_until(plan.deadline))
      measure_in_full(backend, p, o, partners, trial, plan.partners_run_s, plan.deadline, r);
    else
      estimate_from_rows(backend, p, o, partners, trial, plan.partners_run_s, plan.deadline, r);
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
    return unavailable;
  } catch (const std::bad_alloc&) {
    r.status = Status::failed;
    r.reason = "out of host memory";
  } catch (const std::exception& e) {
    r.status = Status::failed;
    r.reason = e.what();
  }
  r.spent_s += seconds_since(started);
  return r;
}

}  // namespace

std::string to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::estimated: return "estimated";
    case Status::failed: return "failed";
    case Status::unavailable: return "unavailable";
  }
  return "?";
}

std::vector<std::int64_t> sampled_rows(std::int64_t m) {
  const std::int64_t count = std::min(m, kSampledRows);
  std::vector<std::int64_t> rows;
  for (std::int64_t s = 0; s < count; ++s) rows.push_back(count == 1 ? 0 : s * (m - 1) / (count - 1));
  return rows;
}

std::string describe_sample(std::int64_t rows, std::int64_t m) {
  return std::to_string(rows) + " rows of " + std::to_string(m) + ", evenly spread from row 0 to row " +
         std::to_string(m - 1) + " (row floor(s*(M-1)/" + std::to_string(std::max<std::int64_t>(1, rows - 1)) +
         ") for s = 0.." + std::to_string(rows - 1) + ")";
}

bool verified_on_sample(const GemmShape& shape, const BenchmarkOptions& options) {
  return shape.flops() > options.full_reference_max_flops;
}

double host_bytes_needed(const GemmShape& shape, float beta, const BenchmarkOptions& options) {
  const double m = double(shape.m), n = double(shape.n), k = double(shape.k);
  if (!verified_on_sample(shape, options))
    // float operands, their float64 copies for the reference, the reference and its error scale,
    // one workspace's copies and the result being checked.
    return 4 * (m * k + k * n + m * n) + 8 * (m * k + k * n) + 16 * m * n + 4 * (m * k + k * n + m * n) + 8 * m * n;
  // A and B, C when beta reads it, one C-sized buffer at a time (a host-resident workspace's C or the target of
  // an end-to-end download), the sampled rows' reference and a float64 panel of B.
  const double rows = double(std::min<std::int64_t>(shape.m, kSampledRows));
  return 4 * (m * k + k * n) + (beta != 0.0f ? 4 * m * n : 0.0) + 4 * m * n + rows * (16 * n + 16 * k) +
         16 * k * 256;
}

void check_host_memory(const GemmShape& shape, float beta, const BenchmarkOptions& options) {
  if (shape.m < 1 || shape.n < 1 || shape.k < 1)
    throw std::invalid_argument("matrix sizes must be >= 1, got " + to_string(shape));
  const double need = host_bytes_needed(shape, beta, options);
  const double have = host_memory_bytes();
  if (need > have)
    throw std::runtime_error("a " + to_string(shape) + " problem needs about " + format("%.1f", need / (1ull << 30)) +
                             " GiB of host memory but this machine has " + format("%.1f", have / (1ull << 30)) +
                             " GiB (" + kHostMemoryOverrideVariable + " overrides)");
}

std::string to_string(InputValues v) {
  switch (v) {
    case InputValues::uniform: return "uniform";
    case InputValues::integers_1_100: return "integers-1-100";
    case InputValues::reals_1_100: return "reals-1-100";
  }
  return "?";
}

std::string describe(InputValues v) {
  switch (v) {
    case InputValues::uniform: return "reals uniform in [-1, 1]";
    case InputValues::integers_1_100: return "integers uniform in 1..100 (seed 003)";
    case InputValues::reals_1_100: return "reals uniform in [1, 100] (seed 003)";
  }
  return "?";
}

InputValues parse_input_values(const std::string& name) {
  for (InputValues v : {InputValues::uniform, InputValues::integers_1_100, InputValues::reals_1_100})
    if (name == to_string(v)) return v;
  throw std::invalid_argument("unknown input values '" + name + "' (use uniform, integers-1-100 or reals-1-100)");
}

Problem make_problem(const GemmShape& shape, float alpha, float beta, std::uint64_t seed, InputValues values,
                     const BenchmarkOptions& options) {
  check_host_memory(shape, beta, options);
  Problem p;
  p.shape = shape;
  p.alpha = alpha;
  p.beta = beta;
  auto draw = [&](std::int64_t rows, std::int64_t cols, std::uint64_t operand) {
    const std::uint64_t operand_seed = derive_seed(seed, shape, operand);
    switch (values) {
      case InputValues::integers_1_100: return MatrixF::random_integers(rows, cols, operand_seed, 1, 100);
      case InputValues::reals_1_100: return MatrixF::random_reals(rows, cols, operand_seed, 1.0, 100.0);
      case InputValues::uniform: break;
    }
    return MatrixF::random(rows, cols, operand_seed);
  };
  p.a = draw(shape.m, shape.k, 1);
  p.b = draw(shape.k, shape.n, 2);
  if (!verified_on_sample(shape, options)) {
    p.c = draw(shape.m, shape.n, 3);
    p.reference = compute_reference(alpha, p.a, p.b, beta, p.c);
    return p;
  }
  if (beta != 0.0f) p.c = draw(shape.m, shape.n, 3);  // never read with beta = 0: no memory for it
  p.verified_rows = sampled_rows(shape.m);
  p.reference = compute_reference_rows(alpha, p.a, p.b, beta, p.c, p.verified_rows);
  return p;
}

BenchmarkResult measure(const Backend& backend, const Problem& p, const BenchmarkOptions& o) {
  check_options(o);
  return measure_row(backend, p, o, Partners{}, RowPlan{after(o.time_limit_s), std::nullopt, 0.0});
}

BenchmarkResult measure_paired(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                               const Backend& vendor, const Backend* precision_vendor) {
  check_options(o);
  return measure_row(backend, p, o, Partners{&vendor, precision_vendor},
                     RowPlan{after(o.time_limit_s), std::nullopt, 0.0});
}

std::vector<BenchmarkResult> run_benchmarks(const std::vector<const Backend*>& selected,
                                            const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                            const ProgressFn& progress) {
  check_options(options);
  // Registry order, with the vendor of every selected device and the vendor of every selected precision added.
  std::vector<const Backend*> backends;
  for (const Backend* b : all_backends()) {
    const BackendInfo& info = b->info();
    const bool chosen = std::find(selected.begin(), selected.end(), b) != selected.end();
    const bool vendor_needed = std::any_of(selected.begin(), selected.end(), [&](const Backend* s) {
      return s->info().device == info.device &&
             (info.vendor || (info.precision_vendor && s->info().precision == info.precision));
    });
    if (chosen || vendor_needed) backends.push_back(b);
  }
  // Device vendors first, then the other precisions' vendors (paired with them), then everything else.
  auto rank = [](const Backend* b) { return b->info().vendor ? 0 : b->info().precision_vendor ? 1 : 2; };
  std::vector<const Backend*> order = backends;
  std::stable_sort(order.begin(), order.end(), [&](const Backend* x, const Backend* y) { return rank(x) < rank(y); });

  for (const GemmShape& shape : shapes) check_host_memory(shape, options.beta, options);  // before any work

  std::vector<BenchmarkResult> all;
  const auto start = Clock::now();
  const auto run_deadline = after(run_budget_s(options, shapes.size()));
  int done = 0;
  const int total = int(shapes.size() * order.size());
  auto report = [&](const std::string& backend, const GemmShape& shape, bool planning, double row_budget_s) {
    if (progress)
      progress(Progress{backend, shape, planning, done, total, seconds_since(start), row_budget_s,
                        std::max(0.0, seconds_until(run_deadline))});
  };
  for (std::size_t shape_index = 0; shape_index < shapes.size(); ++shape_index) {
    const GemmShape& shape = shapes[shape_index];
    // Shapes left share what is left equally: what one does not use goes to the next.
    const auto shape_deadline = after(std::max(0.0, seconds_until(run_deadline)) / double(shapes.size() - shape_index));
    const Problem problem =
        make_problem(shape, options.alpha, options.beta, options.seed, options.input_values, options);

    // Planning: a few-row trial of every row says what its full measurement would cost.
    std::map<const Backend*, Trial> trials;
    for (const Backend* b : order) {
      if (!b->availability().available) continue;
      report(b->info().name, shape, true, 0);
      try {
        trials[b] = trial_run(*b, problem, options);
      } catch (const std::exception&) {
        // Not planned for: the row's own measurement repeats the trial and reports what failed.
      }
    }
    // The vendors a row will be paired with, as planned (measurement pairs only with those that then ran).
    auto planned_partners_s = [&](const Backend* b) {
      double seconds = 0;
      for (const Backend* other : order) {
        const BackendInfo& info = other->info();
        const bool partner = other != b && info.device == b->info().device &&
                             (info.vendor || (info.precision_vendor && info.precision == b->info().precision));
        const auto trial = trials.find(other);
        if (partner && trial != trials.end()) seconds += trial->second.run_s(shape.m) + trial->second.flush_s;
      }
      return b->info().vendor || b->info().multi_gpu ? 0.0 : seconds;
    };
    std::vector<double> demands;
    for (const Backend* b : order) {
      const auto trial = trials.find(b);
      demands.push_back(trial == trials.end() ? 0.0 : demand_s(trial->second, shape.m, planned_partners_s(b), options));
    }

    std::map<const Backend*, BenchmarkResult> by_backend;
    // The vendors that ran: of each device, and of each (device, precision).
    std::map<DeviceKind, const Backend*> device_vendor;
    std::map<std::pair<DeviceKind, Precision>, const Backend*> precision_vendor;
    auto vendor_of = [](const auto& table, const auto& key) -> const Backend* {
      const auto found = table.find(key);
      return found == table.end() ? nullptr : found->second;
    };
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
      const double row_budget_s = std::min(
          options.time_limit_s,
          std::max(floor_s, first_share(demands_left, std::max(0.0, seconds_until(shape_deadline)))));
      report(info.name, shape, false, row_budget_s);
      const RowPlan plan{after(row_budget_s),
                         trial == trials.end() ? std::nullopt : std::optional<Trial>(trial->second),
                         planned_partners_s(b)};
      Partners partners;
      // A multi-GPU row is compared by its speedup over the single-GPU vendor, not paired with it.
      if (!info.vendor && !info.multi_gpu) {
        partners.vendor = vendor_of(device_vendor, info.device);
        if (partners.vendor) partners.precision_vendor = vendor_of(precision_vendor, std::make_pair(info.device, info.precision));
      }
      BenchmarkResult r = measure_row(*b, problem, options, partners, plan);
      if (info.vendor && r.status == Status::ok) {
        r.vs_vendor = 1.0;
        device_vendor[info.device] = b;
      }
      if ((info.vendor || info.precision_vendor) && r.status == Status::ok) {
        r.vs_precision_vendor = 1.0;
        precision_vendor[{info.device, info.precision}] = b;
      }
      by_backend[b] = std::move(r);
      ++done;
    }
    const Backend* gpu_vendor = vendor_of(device_vendor, DeviceKind::gpu);
    for (auto& [b, r] : by_backend)
      if (b->info().multi_gpu) set_speedup(r, gpu_vendor ? &by_backend[gpu_vendor] : nullptr);
    for (const Backend* b : backends) all.push_back(std::move(by_backend[b]));
  }
  report("", shapes.empty() ? GemmShape{} : shapes.back(), false, 0);
  return all;
}

}  // namespace matcompare
