#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <new>
#include <stdexcept>
#include <string>

#include "matcompare/benchmark.hpp"
#include "matcompare/registry.hpp"

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

// MemAvailable, lowered to the cgroup's limit when a container sets one.
double available_host_bytes() {
  double available = std::numeric_limits<double>::infinity();
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  double kib = 0;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") available = kib * 1024.0;
  std::ifstream limit_file("/sys/fs/cgroup/memory.max"), usage_file("/sys/fs/cgroup/memory.current");
  std::string limit;
  double usage = 0;
  if (limit_file >> limit && limit != "max" && usage_file >> usage)
    available = std::min(available, std::stod(limit) - usage);
  return available;
}

MatrixF first_rows(const MatrixF& x, std::size_t rows) {
  MatrixF part(rows, x.cols());
  std::copy(x.data(), x.data() + rows * x.cols(), part.data());
  return part;
}

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

// Samples until at least `repetitions` samples and `min_time` of timed work; a run whose
// untimed preparation dominates (cache flushes around microsecond kernels) stops at 4x min_time.
// `one_sample` does its own untimed preparation and returns the timed milliseconds.
template <typename OneSample>
TimeStats sample(const BenchmarkOptions& o, OneSample one_sample) {
  std::vector<double> ms;
  double timed_total_ms = 0;
  const auto start = Clock::now();
  while (true) {
    const double t = one_sample();
    ms.push_back(t);
    timed_total_ms += t;
    const bool enough_samples = int(ms.size()) >= o.repetitions;
    if (enough_samples && (timed_total_ms >= o.min_time_s * 1000.0 || seconds_since(start) >= 4 * o.min_time_s)) break;
  }
  return summarize(std::move(ms));
}

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t below = std::size_t(at);
  const double above_weight = at - double(below);
  return below + 1 < sorted.size() ? sorted[below] * (1 - above_weight) + sorted[below + 1] * above_weight
                                   : sorted[below];
}

// A workspace ready for compute samples: inputs resident, and the C every sample starts from.
struct Timed {
  std::unique_ptr<Workspace> ws;
  std::unique_ptr<Stopwatch> watch;

  Timed(const Backend& backend, const Problem& p, const MatrixF& c_in) : ws(backend.prepare(p.shape)) {
    ws->upload(p.a, p.b);
    ws->set_output(c_in);
    watch = ws->stopwatch();
  }
  // One compute sample; resetting C and flushing the caches are outside the timed region.
  double compute_ms(const Problem& p, const MatrixF& c_in, const BenchmarkOptions& o) {
    if (p.beta != 0.0f) ws->set_output(c_in);
    if (o.flush_cache) ws->flush_cache();
    watch->start();
    ws->compute(p.alpha, p.beta);
    watch->stop();
    return watch->elapsed_ms();
  }
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

// Seconds one full run should take, from timing a few rows of C. A run costs a fixed part (packing
// or transposing B, launches, threads left idle by too few rows) plus a part proportional to M, so
// two trials at least fit both: they start near 2e7 flops and grow 8x until the latest lasts 20 ms,
// or until one covers the whole problem (then it is exact).
double estimate_run_seconds(const Backend& backend, const Problem& p, int& trial_rows) {
  const GemmShape& s = p.shape;
  // At least one row per thread: fewer would leave threads idle and read as a fixed cost.
  const std::int64_t start = std::max<std::int64_t>(std::int64_t(2e7 / (2.0 * double(s.n) * double(s.k))),
                                                    omp_get_max_threads());
  std::int64_t rows = std::clamp<std::int64_t>(start, 1, s.m);
  std::int64_t previous_rows = 0;
  double previous_t = 0;
  while (true) {
    auto ws = backend.prepare(GemmShape{rows, s.n, s.k});
    ws->upload(rows == s.m ? p.a : first_rows(p.a, std::size_t(rows)), p.b);
    if (p.beta != 0.0f) ws->set_output(rows == s.m ? p.c : first_rows(p.c, std::size_t(rows)));
    double t = 0;
    for (int i = 0; i < 2; ++i) {  // the first run pays for module loading and library start-up
      const auto t0 = Clock::now();
      ws->compute(p.alpha, p.beta);
      ws->synchronize();
      t = seconds_since(t0);
    }
    trial_rows = int(rows);
    if (rows == s.m) return t;
    if (t >= 0.02 && previous_rows) {
      const double per_row = std::max(0.0, (t - previous_t) / double(rows - previous_rows));
      const double fixed = std::max(0.0, t - per_row * double(rows));
      return fixed + per_row * double(s.m);
    }
    previous_rows = rows;
    previous_t = t;
    rows = std::min(s.m, rows * 8);
  }
}

std::string lift_hint(double needed_s, double limit_s) {
  return format("needs ~%.0f s", needed_s) + format(", over --time-limit %g", limit_s) +
         format("; run with --time-limit %.0f to measure it", std::ceil(needed_s * 1.2));
}

}  // namespace

std::string to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::failed: return "failed";
    case Status::skipped: return "skipped";
    case Status::unavailable: return "unavailable";
  }
  return "?";
}

void check_host_memory(const GemmShape& shape) {
  if (shape.m < 1 || shape.n < 1 || shape.k < 1)
    throw std::invalid_argument("matrix sizes must be >= 1, got " + to_string(shape));
  const double m = double(shape.m), n = double(shape.n), k = double(shape.k);
  // float operands, their float64 copies for the reference, the reference and its error scale,
  // one workspace's copies and the result being checked.
  const double need = 4 * (m * k + k * n + m * n) + 8 * (m * k + k * n) + 16 * m * n + 4 * (m * k + k * n + m * n) +
                      8 * m * n;
  const double have = available_host_bytes();
  if (need > have)
    throw std::runtime_error("a " + to_string(shape) + " problem needs about " + format("%.1f", need / (1ull << 30)) +
                             " GiB of host memory but only " + format("%.1f", have / (1ull << 30)) + " GiB is available");
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

Problem make_problem(const GemmShape& shape, float alpha, float beta, std::uint64_t seed, InputValues values) {
  check_host_memory(shape);
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
  p.c = draw(shape.m, shape.n, 3);
  p.reference = compute_reference(alpha, p.a, p.b, beta, p.c);
  return p;
}

namespace {

// measure and measure_paired: `partners` are timed in turn with the row; sample i of row_ms pairs with
// sample i of each partner's partner_ms.
BenchmarkResult measure_with(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                             const std::vector<const Backend*>& partners, std::vector<double>& row_ms,
                             std::vector<std::vector<double>>& partner_ms) {
  check_options(o);
  BenchmarkResult r;
  r.backend = backend.info();
  r.shape = p.shape;
  r.alpha = p.alpha;
  r.beta = p.beta;
  const Availability avail = backend.availability();
  if (!avail.available) {
    r.status = Status::unavailable;
    r.reason = avail.reason;
    return r;
  }
  const int runs_planned = 1 + 2 * o.repetitions;  // verification, compute samples, end-to-end samples
  try {
    int trial_rows = 0;
    r.estimated_run_s = estimate_run_seconds(backend, p, trial_rows);
    if (r.estimated_run_s * runs_planned > o.time_limit_s) {
      r.status = Status::skipped;
      r.reason = format("estimated %.3g s per run", r.estimated_run_s) + " (from a " + std::to_string(trial_rows) +
                 "-row trial); " + std::to_string(runs_planned) + " runs " +
                 lift_hint(r.estimated_run_s * runs_planned, o.time_limit_s);
      return r;
    }

    // β = 0 promises C is not read: NaN there makes any read show in the result.
    const MatrixF c_in = p.beta == 0.0f ? MatrixF(p.shape.m, p.shape.n, std::numeric_limits<float>::quiet_NaN()) : p.c;
    MatrixF out(p.shape.m, p.shape.n, std::numeric_limits<float>::quiet_NaN());
    Timed row(backend, p, c_in);
    const auto t0 = Clock::now();
    row.ws->compute(p.alpha, p.beta);
    row.ws->synchronize();
    const double verify_s = seconds_since(t0);
    row.ws->download(out);
    r.errors = compare_to_reference(out, p.reference, r.backend.precision);
    r.verified = true;
    if (!r.errors.passed) {
      r.status = Status::failed;
      r.reason = !r.errors.finite ? "NaN or Inf in the result"
                                  : format("differs from the float64 reference: blas ratio %.3g", r.errors.blas_ratio) +
                                        format(" > %.3g", blas_ratio_threshold(r.backend.precision, p.shape.k));
      return r;
    }
    if (verify_s * (runs_planned - 1) > o.time_limit_s) {
      r.status = Status::skipped;
      r.estimated_run_s = verify_s;
      r.reason = format("verified, but one run took %.3g s", verify_s) + "; " + std::to_string(runs_planned - 1) +
                 " timed runs " + lift_hint(verify_s * (runs_planned - 1), o.time_limit_s);
      return r;
    }

    std::vector<Timed> others;
    for (const Backend* partner : partners) others.emplace_back(*partner, p, c_in);
    partner_ms.assign(others.size(), {});
    auto time_partners = [&] {
      for (std::size_t i = 0; i < others.size(); ++i) partner_ms[i].push_back(others[i].compute_ms(p, c_in, o));
    };
    int round = 0;
    r.compute = sample(o, [&] {
      // ABBA: whoever went second goes first next time, so a slope in time favours neither.
      const bool partners_first = round++ % 2 == 1;
      if (partners_first) time_partners();
      const double t = row.compute_ms(p, c_in, o);
      if (!partners_first) time_partners();
      row_ms.push_back(t);
      return t;
    });
    others.clear();
    r.total = sample(o, [&] {
      if (o.flush_cache) row.ws->flush_cache();
      row.ws->synchronize();
      const auto start = Clock::now();
      row.ws->upload(p.a, p.b);
      if (p.beta != 0.0f) row.ws->set_output(c_in);
      row.ws->compute(p.alpha, p.beta);
      row.ws->download(out);
      return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    });
    r.gflops = p.shape.flops() / (r.compute.median_ms * 1e6);
    r.status = Status::ok;
  } catch (const std::bad_alloc&) {
    r.status = Status::failed;
    r.reason = "out of host memory";
  } catch (const std::exception& e) {
    r.status = Status::failed;
    r.reason = e.what();
  }
  return r;
}

}  // namespace

BenchmarkResult measure(const Backend& backend, const Problem& p, const BenchmarkOptions& o) {
  std::vector<double> row_ms;
  std::vector<std::vector<double>> partner_ms;
  return measure_with(backend, p, o, {}, row_ms, partner_ms);
}

BenchmarkResult measure_paired(const Backend& backend, const Problem& p, const BenchmarkOptions& o,
                               const Backend& vendor, const Backend* precision_vendor) {
  std::vector<const Backend*> partners{&vendor};
  if (precision_vendor && precision_vendor != &vendor) partners.push_back(precision_vendor);
  std::vector<double> row_ms;
  std::vector<std::vector<double>> partner_ms;
  BenchmarkResult r = measure_with(backend, p, o, partners, row_ms, partner_ms);
  if (r.status != Status::ok) return r;
  const PairedRatio device = paired_ratio(partner_ms[0], row_ms);
  r.vs_vendor = device.median;
  r.vs_vendor_q1 = device.q1;
  r.vs_vendor_q3 = device.q3;
  r.vs_vendor_pairs = device.pairs;
  r.vs_precision_vendor =
      partners.size() > 1 ? paired_ratio(partner_ms[1], row_ms).median
                          : (precision_vendor ? device.median : 0.0);
  return r;
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

  for (const GemmShape& shape : shapes) check_host_memory(shape);  // fail before any work, not midway

  std::vector<BenchmarkResult> all;
  const auto start = Clock::now();
  int done = 0;
  const int total = int(shapes.size() * order.size());
  for (const GemmShape& shape : shapes) {
    const Problem problem = make_problem(shape, options.alpha, options.beta, options.seed, options.input_values);
    std::map<const Backend*, BenchmarkResult> by_backend;
    // The vendors that ran: of each device, and of each (device, precision).
    std::map<DeviceKind, const Backend*> device_vendor;
    std::map<std::pair<DeviceKind, Precision>, const Backend*> precision_vendor;
    auto vendor_of = [](const auto& table, const auto& key) -> const Backend* {
      const auto found = table.find(key);
      return found == table.end() ? nullptr : found->second;
    };
    for (const Backend* b : order) {
      if (progress) progress(Progress{b->info().name, shape, done, total, seconds_since(start)});
      const BackendInfo& info = b->info();
      const Backend* vendor = vendor_of(device_vendor, info.device);
      const Backend* same_precision = vendor_of(precision_vendor, std::make_pair(info.device, info.precision));
      BenchmarkResult r;
      if (info.vendor) {
        r = measure(*b, problem, options);
        if (r.status == Status::ok) {
          r.vs_vendor = 1.0;
          device_vendor[info.device] = b;
        }
      } else if (vendor) {
        r = measure_paired(*b, problem, options, *vendor, same_precision);
      } else {
        r = measure(*b, problem, options);
      }
      if ((info.vendor || info.precision_vendor) && r.status == Status::ok) {
        r.vs_precision_vendor = 1.0;
        precision_vendor[{info.device, info.precision}] = b;
      }
      by_backend[b] = std::move(r);
      ++done;
    }
    for (const Backend* b : backends) all.push_back(std::move(by_backend[b]));
  }
  if (progress) progress(Progress{"", shapes.empty() ? GemmShape{} : shapes.back(), done, total, seconds_since(start)});
  return all;
}

}  // namespace matcompare
