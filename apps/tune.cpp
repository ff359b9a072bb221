// matcompare-tune: searches the parameter space of gpu/simt-tuned on this GPU. Every variant runs through the
// harness (verified, then timed like any row) beside cuBLAS FP32 on one square shape per shape class; the best
// three are tried again with other rasterization groups. The best variant of each block grid (tile size and
// blocks per SM), up to three grids, becomes a candidate row of the tuning table (src/gpu/simt/simt_tuning_table.inc)
// with its time, so that the backend can weigh wave quantization on other shapes; rows of other GPUs are kept.
// With --m/--n/--k it probes instead: every variant that takes the layout, on each shape given, ranked beside the
// table's own choice and the FP32 vendors (a lab for shapes off the classes); with --short-class, on one shape of at
// most kShortRows rows, its best variants become the short-C class's rows, which --table writes, keeping the rest.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "../src/gpu/runtime/gpu_runtime.hpp"
#include "../src/gpu/simt/simt_tuning.hpp"
#include "cli_support.hpp"
#include "matcompare/matcompare.hpp"
#include "output_file.hpp"
#include "tuning_table_file.hpp"

namespace {

using namespace matcompare;

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "matcompare-tune: error: " << message << std::endl;
  std::exit(2);
}

struct Trial {
  gpu::SimtChoice choice;
  double ms = std::numeric_limits<double>::infinity();  // compute median; infinite when it failed
  std::string failure;
};

std::string describe(const gpu::SimtChoice& c) { return c.variant + " g" + std::to_string(c.group); }

// Variants with the same block tile and the same blocks per SM run in the same waves.
std::string block_grid(const std::string& variant_name) {
  for (const gpu::SimtVariant& v : gpu::simt_variants())
    if (v.name == variant_name)
      return std::to_string(v.block_rows) + "x" + std::to_string(v.block_cols) + "/" +
             std::to_string(v.resident_blocks());
  return variant_name;
}

// The rows of one class (bound `bound`) from its trials, fastest first: the best variant of each of up to three block
// grids, with its time on `shape`.
std::vector<std::string> class_rows(const std::vector<Trial>& trials, int cc, std::int64_t bound,
                                    const GemmShape& shape, const std::string& gpu_name, const std::string& vendor,
                                    double vendor_ms) {
  std::vector<std::string> rows, grids_taken;
  for (const Trial& t : trials) {
    if (!std::isfinite(t.ms) || t.choice.variant.empty() || grids_taken.size() == 3) continue;
    const std::string grid = block_grid(t.choice.variant);
    if (std::find(grids_taken.begin(), grids_taken.end(), grid) != grids_taken.end()) continue;
    grids_taken.push_back(grid);
    char row[400];
    std::snprintf(row, sizeof row, "{%d, %lld, \"%s\", %d, {%lld, %lld, %lld}, %.4f},  // %s %s %s: x %s %.3f", cc,
                  static_cast<long long>(bound), t.choice.variant.c_str(), t.choice.group,
                  static_cast<long long>(shape.m), static_cast<long long>(shape.n), static_cast<long long>(shape.k),
                  t.ms, gpu_name.c_str(), to_string(GemmShape{shape.m, shape.n, shape.k}).c_str(),
                  to_string(shape.layout).c_str(), vendor.c_str(), vendor_ms / t.ms);
    rows.push_back(row);
  }
  return rows;
}

// Rewrites the table at `path`: this GPU's rows of the short-C class or of the other classes become `own_rows`.
void write_table(const std::string& path, int cc, bool short_class, const std::vector<std::string>& own_rows) {
  std::ifstream in(path);
  std::ostringstream old_text;
  old_text << in.rdbuf();
  try {
    OutputFile(path).commit(rewritten_tuning_table(old_text.str(), cc, gpu::kShortCClass, short_class, own_rows));
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

// A variant forced, or the table's choice with `choice` empty, measured on `problem`; one line printed.
Trial run_choice(const Backend& tuned, const Problem& problem, const BenchmarkOptions& options,
                 const gpu::SimtChoice& choice) {
  gpu::force_simt_choice(choice);
  const BenchmarkResult r = measure(tuned, problem, options);
  gpu::force_simt_choice({});
  Trial t;
  t.choice = choice;
  if (r.status == Status::ok)
    t.ms = r.compute.median_ms;
  else
    t.failure = to_string(r.status) + ": " + r.reason;
  const std::string name = choice.variant.empty() ? "the table's choice: " + r.kernel : describe(choice);
  std::printf("  %-60s %s\n", name.c_str(),
              t.failure.empty() ? (std::to_string(t.ms) + " ms").c_str() : t.failure.c_str());
  std::fflush(stdout);
  return t;
}

bool faster(const Trial& a, const Trial& b) { return a.ms < b.ms; }

// Every variant that takes the shape's layout, at group 8, then the three fastest again at groups 1, 4 and 16: the
// trials, fastest first.
std::vector<Trial> search_variants(const Backend& tuned, const Problem& problem, const BenchmarkOptions& options) {
  std::vector<Trial> trials;
  for (const gpu::SimtVariant& v : gpu::simt_variants())
    if (v.takes(gpu::simt_kernel_shape(problem.shape).layout))
      trials.push_back(run_choice(tuned, problem, options, {v.name, 8}));
  std::vector<Trial> ranked = trials;
  std::sort(ranked.begin(), ranked.end(), faster);
  for (std::size_t top = 0; top < std::min<std::size_t>(3, ranked.size()); ++top)
    for (int group : {1, 4, 16})
      if (std::isfinite(ranked[top].ms))
        trials.push_back(run_choice(tuned, problem, options, {ranked[top].choice.variant, group}));
  std::sort(trials.begin(), trials.end(), faster);
  return trials;
}

struct Probed {
  std::vector<Trial> trials;  // fastest first; the table's own choice has an empty variant
  std::string vendor;         // the fastest FP32 vendor, "" where none ran
  double vendor_ms = std::numeric_limits<double>::infinity();
};

// The probe (--m/--n/--k): per shape, the FP32 vendors, the table's choice and the variants' search, ranked against the
// fastest vendor.
std::vector<Probed> probe(const std::vector<GemmShape>& shapes, const BenchmarkOptions& options) {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  std::vector<Probed> all;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GemmShape& shape = shapes[i];
    const Problem problem = make_problem(shape, 1.0f, 0.0f, 42 + i);
    std::printf("%s %s\n", to_string(shape).c_str(), to_string(shape.layout).c_str());
    double vendor_ms = std::numeric_limits<double>::infinity();
    std::string vendor;
    for (const char* name : {"gpu/cublas-fp32", "gpu/cublaslt-fp32"}) {
      const Backend& b = find_backend(name);
      if (!b.availability(shape.layout).available) continue;
      const BenchmarkResult r = measure(b, problem, options);
      if (r.status != Status::ok) continue;
      std::printf("  %-60s %f ms\n", name, r.compute.median_ms);
      if (r.compute.median_ms < vendor_ms) vendor_ms = r.compute.median_ms, vendor = name;
    }
    std::vector<Trial> trials = search_variants(tuned, problem, options);
    trials.push_back(run_choice(tuned, problem, options, {}));
    std::sort(trials.begin(), trials.end(), faster);
    std::printf("%s %s ranked, x %s (%f ms):\n", to_string(shape).c_str(), to_string(shape.layout).c_str(),
                vendor.empty() ? "no vendor" : vendor.c_str(), vendor_ms);
    for (const Trial& t : trials)
      if (std::isfinite(t.ms))
        std::printf("  %6.3f  %s\n", vendor_ms / t.ms,
                    t.choice.variant.empty() ? "the table's choice" : describe(t.choice).c_str());
    all.push_back({trials, vendor, vendor_ms});
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Tunes gpu/simt-tuned on this GPU and writes its rows of the tuning table"};
  std::string sizes_text = "1024,2048,4096,8192", table_path;
  int device = 0;
  double min_time = 0.1;
  app.add_option("--sizes", sizes_text, "one square size per shape class, ascending");
  app.add_option("--table", table_path, "the tuning table to update (default: only print)");
  app.add_option("--device", device, "which GPU")->check(CLI::NonNegativeNumber);
  app.add_option("--min-time", min_time, "seconds of timed work per measurement")->check(CLI::Range(0.0, 60.0));
  std::string m_text, n_text, k_text, layouts = "NN";
  app.add_option("--m", m_text, "probe: rows of C (lists as matcompare's --m)");
  app.add_option("--n", n_text, "probe: columns of C");
  app.add_option("--k", k_text, "probe: the inner dimension");
  app.add_option("--layout", layouts, "probe: layouts, comma-separated (NN, NT, TN, TT)");
  bool short_class = false;
  app.add_flag("--short-class", short_class,
               "probe one shape of at most 64 rows and make its best variants the short-C class's rows");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fail(e.what());
  }

  const bool probing = !m_text.empty() || !n_text.empty() || !k_text.empty();
  if (probing && !short_class && !table_path.empty())
    fail("--table goes with --sizes or --short-class, not with a probe alone (--m/--n/--k)");
  if (short_class && !probing) fail("--short-class needs its shape (--m/--n/--k)");
  std::vector<GemmShape> shapes;
  try {
    shapes = probing ? with_layouts(parse_shapes(sizes_text, m_text, n_text, k_text), layouts)
                     : parse_shapes(sizes_text, "", "", "");
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (!probing)
    for (std::size_t i = 1; i < shapes.size(); ++i)
      if (shapes[i].m <= shapes[i - 1].m) fail("--sizes must be ascending");
  if (short_class && (shapes.size() != 1 || shapes[0].m > gpu::kShortRows))
    fail("--short-class takes one shape of at most " + std::to_string(gpu::kShortRows) + " rows in one layout");
  try {
    gpu::select_device(device);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  const Backend& tuned = find_backend("gpu/simt-tuned");
  const Backend& cublas = find_backend("gpu/cublas-fp32");
  const Availability available = tuned.availability();
  if (!available.available) fail("gpu/simt-tuned cannot run here: " + available.reason);
  const int cc = gpu::compute_capability();
  std::string why_not;
  const auto gpu_context = gpu::describe_device(why_not);
  const std::string gpu_name = gpu_context ? gpu_context->name : "unknown GPU";

  BenchmarkOptions options;
  options.min_time_s = min_time;
  options.repetitions = 5;
  if (probing) {
    const std::vector<Probed> probed = probe(shapes, options);
    if (!short_class) return 0;
    const std::vector<std::string> rows =
        class_rows(probed[0].trials, cc, gpu::kShortCClass, shapes[0], gpu_name, probed[0].vendor, probed[0].vendor_ms);
    if (rows.empty()) fail("no variant ran on " + to_string(shapes[0]));
    if (!table_path.empty()) write_table(table_path, cc, true, rows);
    for (const std::string& r : rows) std::printf("%s\n", r.c_str());
    return 0;
  }
  std::vector<std::string> own_rows;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GemmShape& shape = shapes[i];
    const Problem problem = make_problem(shape, 1.0f, 0.0f, 42 + i);
    const BenchmarkResult vendor_before = measure(cublas, problem, options);
    std::printf("%s: cuBLAS FP32 %.4f ms\n", to_string(shape).c_str(), vendor_before.compute.median_ms);
    const std::vector<Trial> trials = search_variants(tuned, problem, options);
    const BenchmarkResult vendor_after = measure(cublas, problem, options);
    const double vendor_ms = 0.5 * (vendor_before.compute.median_ms + vendor_after.compute.median_ms);
    if (trials.empty() || !std::isfinite(trials.front().ms)) fail("no variant ran on " + to_string(shape));
    std::printf("%s best: %s %.4f ms, cuBLAS FP32 %.4f / %.4f ms, x cuBLAS %.3f\n", to_string(shape).c_str(),
                describe(trials.front().choice).c_str(), trials.front().ms, vendor_before.compute.median_ms,
                vendor_after.compute.median_ms, vendor_ms / trials.front().ms);
    // Classes meet halfway (geometrically) between the tuned sizes.
    const std::int64_t bound =
        i + 1 < shapes.size() ? shape.m * shapes[i + 1].m : std::numeric_limits<std::int64_t>::max();
    for (const std::string& r : class_rows(trials, cc, bound, shape, gpu_name, "cuBLAS FP32", vendor_ms))
      own_rows.push_back(r);
  }

  if (!table_path.empty()) write_table(table_path, cc, false, own_rows);
  for (const std::string& r : own_rows) std::printf("%s\n", r.c_str());
  return 0;
}
