#pragma once
// Verification and timing, written once and applied identically to every backend.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"
#include "matcompare/error_metrics.hpp"

namespace matcompare {

// What the inputs A, B and C are drawn from. Seed 003 measured its error sums on values from 1 to 100.
enum class InputValues {
  uniform,         // reals uniform in [-1, 1]
  integers_1_100,  // integers uniform in 1..100
  reals_1_100,     // reals uniform in [1, 100]
};
// These two throw std::invalid_argument for a value that is none of InputValues'.
std::string to_string(InputValues v);  // "uniform", "integers-1-100", "reals-1-100"
std::string describe(InputValues v);   // in words, e.g. "reals uniform in [-1, 1]"
// Throws std::invalid_argument naming the accepted names.
InputValues parse_input_values(const std::string& name);

// The largest times check_options accepts. A deadline past about 292 years overflows std::chrono's clock (a budget
// of 1e300 s did), and no run is meant to last longer than these: the time limit may be as long as the budget (the
// CLI takes up to 1e7 s of either), a minimum of timed work per measurement is seconds, never days.
constexpr double kMaxBudgetS = 365 * 24 * 3600.0;   // budget_s: a year
constexpr double kMaxTimeLimitS = kMaxBudgetS;      // time_limit_s: a year
constexpr double kMaxMinTimeS = 24 * 3600.0;        // min_time_s: a day

struct BenchmarkOptions {
  float alpha = 1.0f;
  float beta = 0.0f;
  std::uint64_t seed = 42;
  int repetitions = 5;        // at least this many timed samples…
  double min_time_s = 0.25;   // …and at least this much timed work per measurement
  double time_limit_s = 20;   // at most this much wall time for one backend on one shape
  // Wall-clock seconds for a whole run_benchmarks call, spent so that every row gets a figure (run_budget_s).
  // 0: kDefaultBudgetPerShape for each shape.
  double budget_s = 0;
  bool flush_cache = true;    // evict caches between samples
  InputValues input_values = InputValues::uniform;
  // Problems of more flops (a 6300^3 product) are verified on rows of C (sampled_row_count): a full float64
  // reference costs twice their flops on the host, seconds to minutes a shape that no budget planned for
  // (bench/NOTES.md, "Where a suite's time went"), and several times the memory of the problem itself.
  double full_reference_max_flops = 5e11;
};

// Rows of C checked when a problem is verified on a sample: at least this many.
constexpr std::int64_t kSampledRows = 64;
// At most this many rows apart where the sample's reference may cost as much as a full one is allowed to
// (full_reference_max_flops): then every 64-row band of C, so every block tile's rows, holds a checked row.
constexpr std::int64_t kSampledRowSpacing = 64;
// How many rows a sampled verification of `shape` checks: all M up to kSampledRows; else enough rows for
// kSampledRowSpacing, as far as their reference (4*rows*N*K flops: the values and the error scale) stays within
// options.full_reference_max_flops, and never fewer than kSampledRows.
std::int64_t sampled_row_count(const GemmShape& shape, const BenchmarkOptions& options);
// The rows of an M-row C that a sampled verification checks: `count` (or all M when fewer; kSampledRows when not
// given) spread evenly from the first to the last, row floor(s*(M-1)/(S-1)) for s = 0..S-1. Throws
// std::invalid_argument naming m when it is below 1, or count when it is below 1.
std::vector<std::int64_t> sampled_rows(std::int64_t m, std::int64_t count = kSampledRows);
// "64 rows of 131072, evenly spread from row 0 to row 131071 (floor(s*(M-1)/63))". Throws std::invalid_argument
// naming m when it is below 1, rows when it is not from 1 to m.
std::string describe_sample(std::int64_t rows, std::int64_t m);

constexpr double kDefaultBudgetPerShape = 50;  // seconds
// The budget run_benchmarks spends on `shape_count` shapes: budget_s, or its default when 0.
double run_budget_s(const BenchmarkOptions& options, std::size_t shape_count);

// ok: measured in full (as many samples as fit, at least one verified run). estimated: one full run did not fit
// the row's budget, so the figures are extrapolated from timing and verifying the first rows of C.
enum class Status { ok, estimated, failed, unavailable };
std::string to_string(Status s);  // throws std::invalid_argument for a value that is none of Status's

struct TimeStats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double cv = 0;   // standard deviation / mean
  int samples = 0;
};

struct BenchmarkResult {
  BackendInfo backend;
  GemmShape shape;
  float alpha = 1, beta = 0;
  Status status = Status::unavailable;
  std::string reason;
  TimeStats compute;          // compute only, data already resident
  TimeStats total;            // upload + compute + download
  double gflops = 0;          // from the compute median
  // Against the vendor of this device, from paired samples: the vendor and this row are timed in turn
  // (ABBA…) on the same inputs and cache policy, so drift and neighbours hit both; the median over pairs of
  // vendor time / this row's time, and the quartiles of those per-pair ratios. 0: unknown.
  double vs_vendor = 0;
  double vs_vendor_q1 = 0, vs_vendor_q3 = 0;
  int vs_vendor_pairs = 0;
  double vs_precision_vendor = 0;  // the same against the vendor row of this row's precision (0: unknown)
  // Against the fastest vendor library of this row's precision on its device in the same run (best_vendor names
  // it). The vendor libraries are measured first, each paired with the baseline vendor of its precision, so every
  // other row is timed in turn with the best of them as well: the median over those pairs (vs_best_vendor_pairs of
  // them; 0 for an estimate's ratio of medians). A vendor library's own ratio composes through the baseline,
  // vs_precision_vendor / the best's vs_precision_vendor, and so does a row's whose pairing with the best did not
  // happen (vs_best_vendor_pairs 0). 0: unknown (no vendor of this precision ran).
  double vs_best_vendor = 0;
  std::string best_vendor;
  int vs_best_vendor_pairs = 0;
  std::string kernel;         // what the backend chose for this shape (Workspace::kernel), "" where it has one path
  // The device's clock over the kept compute samples (median, MHz) and its maximum; 0 where unknown (the CPU).
  // Rounds of samples taken while a power or thermal limit held a GPU's clock under kThrottledClockFraction of its
  // maximum are dropped and counted in throttled_rounds, so a figure is the kernel's speed at the clock it is
  // sold at, whatever ran before it (bench/NOTES.md, "The clock under load").
  double clock_mhz = 0, clock_max_mhz = 0;
  int throttled_rounds = 0;
  double estimated_run_s = 0; // one run's estimated time, from the few-row trial
  // Status::estimated: compute.median_ms (so gflops and the ratios) is one full run extrapolated from timing the
  // first estimate_rows rows of C (compute.samples runs, median estimate_subset_ms) plus estimate_ms_per_row for
  // each further row (the slope from the trial's fewest rows to these); errors cover those rows only. The ratios
  // divide each vendor's full-size time.
  std::int64_t estimate_rows = 0;
  double estimate_subset_ms = 0, estimate_ms_per_row = 0;
  double budget_s = 0;        // wall-clock seconds this row was given
  double spent_s = 0;         // and took, its planning trial included
  ErrorStats errors;
  bool verified = false;      // errors were measured
  std::int64_t verified_rows = 0;  // rows of C the errors cover (all M unless sampled or estimated)
  std::string verification_sample; // how they were chosen when the problem was verified on a sample, else ""
  int devices = 0;            // GPUs the row used (0 on the CPU)
  // Multi-GPU rows: the single-GPU vendor's time on the same shape in the same run over this row's time, on the
  // basis named by speedup_basis ("end-to-end" for host-resident rows: the vendor's upload + compute + download
  // against this row's time; "compute" otherwise); efficiency = speedup / devices. 0: not applicable or unknown.
  double speedup = 0, efficiency = 0;
  std::string speedup_basis;
};

// The inputs of one shape and their float64 reference.
struct Problem {
  GemmShape shape;
  float alpha = 1, beta = 0;
  MatrixF a, b, c;            // a and b stored as shape.layout says; c is empty when the problem is sampled and beta
                              // is 0 (it would never be read)
  Reference reference;        // of every row of C, or of the rows in verified_rows only
  std::vector<std::int64_t> verified_rows;  // empty: the reference covers all of C
  bool sampled() const { return !verified_rows.empty(); }
};
// Throws std::invalid_argument naming the first option out of range: fewer than one repetition, a min_time_s
// that is negative, not finite or over kMaxMinTimeS, a time_limit_s that is not positive or over kMaxTimeLimitS,
// a budget_s that is negative or over kMaxBudgetS, a non-finite alpha or beta, an input_values that is none of
// InputValues', or a full_reference_max_flops that is negative or not finite. measure, measure_paired and
// run_benchmarks check their options with it before any work.
void check_options(const BenchmarkOptions& options);

// Throws std::invalid_argument naming the first field that does not fit the problem's shape (M, N, K >= 1): a
// non-finite alpha or beta, a that is not MxK, b not KxN (KxM and NxK where the shape's layout transposes them), c
// not MxN (it may be empty when beta is 0), a row of verified_rows outside [0, M), a reference whose value or scale is not (M or verified_rows.size()) x N, or whose k
// is not K. measure and measure_paired check their problem with it before any work; make_problem's pass.
void check_problem(const Problem& problem);

// True when a problem of this shape is verified on sampled_rows instead of a full reference.
bool verified_on_sample(const GemmShape& shape, const BenchmarkOptions& options);
// The host memory a measurement of this shape needs at its peak: operands, the reference (full, or of the
// sampled rows) and the one C-sized buffer a workspace or a download needs.
double host_bytes_needed(const GemmShape& shape, float beta, const BenchmarkOptions& options);
// These three throw std::invalid_argument naming `shape` when it has M, N or K below 1, and naming
// full_reference_max_flops when it is negative or not finite. check_host_memory throws std::runtime_error when the
// problem would not fit in the host memory (host_memory.hpp: MemTotal or the cgroup limit, or
// MATCOMPARE_HOST_MEMORY_GIB), before any allocation.
void check_host_memory(const GemmShape& shape, float beta = 0, const BenchmarkOptions& options = {});
// Throws std::invalid_argument naming alpha or beta when not finite and `values` when it is none of InputValues',
// and what check_host_memory throws, before any allocation.
Problem make_problem(const GemmShape& shape, float alpha, float beta, std::uint64_t seed,
                     InputValues values = InputValues::uniform, const BenchmarkOptions& options = {});

struct Progress {
  std::string backend;
  GemmShape shape;
  bool planning = false;      // a few-row trial that plans the shape's budget, not the row's measurement
  int done = 0, total = 0;    // measurements finished / planned in the whole run
  double elapsed_s = 0;
  double row_budget_s = 0;    // what this row may spend
  double budget_left_s = 0;   // of the whole run's budget
  bool drawing_inputs = false;  // the shape's inputs and float64 reference being made (backend empty): before planning
  // On a shape's first step (drawing_inputs): what it and the shapes after it are predicted to cost beyond their
  // rows' samples (inputs, float64 references, trials, set-ups, uploads, verification), learnt from the shapes done;
  // 0 until one is, and on every other step. Above budget_left_s the run can only end past its budget.
  double fixed_costs_left_s = 0;
};
using ProgressFn = std::function<void(const Progress&)>;
// Called by run_benchmarks once each shape's rows are all measured, with that shape's results (the order they will
// have in the whole run's): what a caller keeps of a long run that is stopped before its end.
using ShapeResultsFn = std::function<void(const std::vector<BenchmarkResult>& shape_results)>;

// The first call of measure, measure_paired, run_benchmarks, set_threads or collect_context settles OpenBLAS for the
// whole process, where the user has not set OPENBLAS_CORETYPE or OPENBLAS_THREAD_TIMEOUT: it switches OpenBLAS to the
// kernels this CPU should run and restarts its thread pool (docs/environment.md, "Two thread pools"). Make that first
// call before other threads of the program use OpenBLAS, or set both variables.

// One backend on one problem within time_limit_s: availability, a few-row trial, then verification and as many
// samples as fit, or, when one full run does not fit, an estimate from the first rows of C (Status::estimated).
// Throws std::invalid_argument, before any work, for options check_options refuses or a problem check_problem
// refuses; any error of the backend's own is the result's (Status::failed, or unavailable), not an exception.
BenchmarkResult measure(const Backend& backend, const Problem& problem, const BenchmarkOptions& options);

// The same, with the compute samples taken in turn with those of `vendor` (and of `precision_vendor` when
// given and different) on the same problem: vs_vendor, its quartiles and vs_precision_vendor come from the
// pairs. The vendors are timed, not verified here: their own rows verify them.
BenchmarkResult measure_paired(const Backend& backend, const Problem& problem, const BenchmarkOptions& options,
                               const Backend& vendor, const Backend* precision_vendor = nullptr);

// Every backend on every shape within run_budget_s. Each device's vendor backend, the vendor row of each precision
// selected on it and every vendor library of those precisions are added when absent and measured first (the
// baselines on their own, the other libraries paired with them); every other row is then measured paired with its
// baselines and with the fastest of its precision's vendor libraries (vs_best_vendor). Each shape gets an equal
// share of the budget left; a few-row trial of each of its rows tells what a full measurement would cost, rows that
// need less than an equal share get what they need and the others share the rest equally (never more than
// time_limit_s each), so every row gets a figure. Results come shape by shape, in registry order; `shape_done`, when
// given, gets each shape's as soon as they are complete. Throws std::invalid_argument, before any work, for options
// check_options refuses, a backend that is null or not one of all_backends() (naming its index), or a shape with
// M, N or K below 1 (naming its index); std::runtime_error when a shape's problem does not fit in host memory.
std::vector<BenchmarkResult> run_benchmarks(const std::vector<const Backend*>& backends,
                                            const std::vector<GemmShape>& shapes, const BenchmarkOptions& options,
                                            const ProgressFn& progress = {}, const ShapeResultsFn& shape_done = {});

}  // namespace matcompare
