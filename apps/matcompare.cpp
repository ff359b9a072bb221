// matcompare: a thin command-line client of the library (include/matcompare/).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "matcompare/matcompare.hpp"
#include "cli_support.hpp"
#include "interrupt.hpp"
#include "output_file.hpp"

#ifndef MATCOMPARE_SOURCE_REPORT_SCRIPT
#define MATCOMPARE_SOURCE_REPORT_SCRIPT ""
#endif
#ifndef MATCOMPARE_INSTALLED_REPORT_SCRIPT
#define MATCOMPARE_INSTALLED_REPORT_SCRIPT ""
#endif

namespace {


[[noreturn]] void fail(const std::string& message, int code = kExitBadInput) {
  std::cerr << "matcompare: error: " << message << std::endl;
  std::exit(code);
}

bool readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

std::string report_script() {
  const char* candidates[] = {std::getenv("MATCOMPARE_REPORT_SCRIPT"), MATCOMPARE_INSTALLED_REPORT_SCRIPT,
                              MATCOMPARE_SOURCE_REPORT_SCRIPT};
  for (const char* candidate : candidates)
    if (candidate && readable(candidate)) return candidate;
  fail("cannot find make_report.py (set MATCOMPARE_REPORT_SCRIPT to its path)");
}

// The first Python that has matplotlib: the report needs it for its plots.
std::string report_python() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("MATCOMPARE_PYTHON")) candidates.push_back(env);
  candidates.insert(candidates.end(), {"python3", "/usr/bin/python3"});
  for (const auto& python : candidates) {
    const std::string probe = "'" + python + "' -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  fail("no python3 with matplotlib found (install python3-matplotlib, or set MATCOMPARE_PYTHON)");
}

int run_report(const std::vector<std::string>& files, const std::string& out_dir) {
  for (const auto& f : files)
    if (!readable(f)) fail("cannot read '" + f + "'");
  const std::string python = report_python();
  const std::string script = report_script();
  std::vector<std::string> args{python, script};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"--out", out_dir});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  fail("cannot run " + python + ": " + std::strerror(errno));
}

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + std::string(argv[i]);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  // Settings OpenBLAS and OpenMP read only when they load: set them and run the same binary again, by its real
  // path so the process keeps its name for ps and pgrep. On failure, carry on without them.
  auto fixes = matcompare::thread_wait_fixes();
  if (const char* core = matcompare::openblas_coretype_fix()) fixes.emplace_back("OPENBLAS_CORETYPE", core);
  if (!fixes.empty()) {
    char self[4096];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0) {
      self[length] = '\0';
      for (const auto& [name, value] : fixes) setenv(name.c_str(), value.c_str(), 1);
      execv(self, argv);
    }
  }
  CLI::App app{"matcompare: multiply matrices with every CPU and GPU algorithm of the seeds and compare them "
               "with the vendor libraries (time, GFLOP/s, error against a float64 reference)."};
  app.set_version_flag("--version", std::string("matcompare ") + matcompare::version());

  std::string sizes, ms, ns, ks, filter, format_name = "table", out_file, values_name = "uniform", devices;
  bool all = false, list = false, no_flush = false;
  double alpha = 1.0, beta = 0.0;
  std::uint64_t seed = 42;
  int threads = 0, device = -1;
  matcompare::BenchmarkOptions options;

  app.add_option("--size,--sizes", sizes,
                 "square sizes: a list and/or ranges, e.g. 2048 or 512,1024 or 512:2560:512 (default 1024)");
  app.add_option("--m", ms, "rows of A and C (list or range; a single value applies to every shape)");
  app.add_option("--n", ns, "columns of B and C (list or range)");
  app.add_option("--k", ks, "columns of A, rows of B (list or range)");
  app.add_flag("--all", all, "run every backend (the default when no --filter is given)");
  app.add_option("--filter", filter, "backends whose name contains a pattern; comma-separated, '*' wildcards");
  app.add_flag("--list", list, "list the backends (with --filter, the matching ones) and exit");
  const auto finite_float = CLI::Validator(
      [](std::string& text) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        const bool ok = end && *end == '\0' && !text.empty() && std::isfinite(x) && std::fabs(x) <= FLT_MAX;
        return ok ? std::string() : "'" + text + "' is not a finite float";
      },
      "FLOAT");
  app.add_option("--alpha", alpha, "alpha in C = alpha*A*B + beta*C (default 1)")->check(finite_float);
  app.add_option("--beta", beta, "beta in C = alpha*A*B + beta*C (default 0: C is not read)")->check(finite_float);
  app.add_option("--seed", seed, "seed of the random inputs (default 42)");
  app.add_option("--values", values_name,
                 "what the inputs are drawn from: uniform (reals in [-1, 1], the default), integers-1-100 or "
                 "reals-1-100 (seed 003's error experiment)");
  app.add_option("--threads", threads, "CPU threads for OpenMP and OpenBLAS (default: one per logical core)")
      ->check(CLI::Range(0, 4096));
  app.add_option("--device", device, "GPU to use (default 0; with --devices, the first of them)")
      ->check(CLI::NonNegativeNumber);
  const CLI::Option* devices_option = app.add_option("--devices", devices,
                 "GPUs the multi-GPU rows (gpu/cublasxt-fp32, gpu/cublasmp-fp32) run on: a list like 0,1 or all "
                 "(default: the --device GPU alone)");
  app.add_option("--repetitions", options.repetitions, "at least this many timed samples (default 5)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--min-time", options.min_time_s, "at least this many seconds of timed work per measurement (default 0.25)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--budget", options.budget_s,
                 "wall-clock seconds for the whole run (default 50 per shape), spent so that every row gets a "
                 "figure: as many samples as fit, else one verified run, else an estimate from the first rows of C")
      ->check(CLI::Range(1e-3, 1e7));
  app.add_option("--time-limit", options.time_limit_s,
                 "at most this many seconds for one backend on one shape, within the budget (default 20)")
      ->check(CLI::Range(1e-3, 1e7));
  app.add_flag("--no-flush", no_flush, "do not flush caches between samples (flattering: inputs stay cached)");
  app.add_option("--format", format_name, "table, md, csv or json (default table)");
  app.add_option("--out", out_file, "write the results to this file instead of standard output");

  std::vector<std::string> report_files;
  std::string report_out;
  CLI::App* report = app.add_subcommand("report", "turn JSON runs into Markdown tables and plots");
  report->add_option("files", report_files, "JSON files written by matcompare --format json")->required();
  report->add_option("--out", report_out, "output folder")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fail(e.what());
  }
  if (report->parsed()) return run_report(report_files, report_out);

  ProgressBar bar(isatty(STDERR_FILENO) != 0);
  stop_on_interrupt(isatty(STDERR_FILENO) != 0);
  try {
    const matcompare::Format format = matcompare::parse_format(format_name);
    options.input_values = matcompare::parse_input_values(values_name);
    const auto backends = matcompare::select_backends(all ? "" : filter);
    if (backends.empty())
      throw std::invalid_argument("--filter '" + filter + "' matches no backend (matcompare --list shows them)");
    if (list) {
      OutputFile output(out_file);
      std::ostringstream text;
      matcompare::write_backend_list(text, format, backends);
      output.commit(text.str());
      return 0;
    }
    const auto shapes = parse_shapes(sizes, ms, ns, ks);
    options.budget_s = matcompare::run_budget_s(options, shapes.size());  // the context records what was used
    OutputFile output(out_file);  // an unwritable --out fails now, not after the run
    if (devices_option->count() > 0) matcompare::select_gpus(matcompare::parse_device_list(devices, matcompare::gpu_count()));
    if (device >= 0) matcompare::select_gpu(device);
    matcompare::set_threads(threads);
    options.alpha = float(alpha);
    options.beta = float(beta);
    options.seed = seed;
    options.flush_cache = !no_flush;

    const auto results = matcompare::run_benchmarks(backends, shapes, options,
                                                    [&](const matcompare::Progress& p) { bar.update(p); });
    bar.finish();
    // The user's OPENBLAS_CORETYPE is kept, but a vendor held below the CPU skews every CPU ratio: say so.
    const char* better_core = matcompare::openblas_core_below_cpu();
    // Equal to the better core: the CLI set it itself, and this OpenBLAS cannot switch (no DYNAMIC_ARCH).
    const char* forced_core = std::getenv("OPENBLAS_CORETYPE");
    if (better_core && forced_core && std::string(forced_core) != better_core &&
        std::any_of(backends.begin(), backends.end(),
                    [](const matcompare::Backend* b) { return b->info().device == matcompare::DeviceKind::cpu; }))
      std::cerr << "matcompare: note: OPENBLAS_CORETYPE=" << forced_core
                << " holds OpenBLAS below this CPU (" << better_core
                << " would be faster): cpu/openblas and every CPU x vendor reflect that; unset it to compare with "
                   "OpenBLAS at its best"
                << std::endl;
    const auto context = matcompare::collect_context(joined_command_line(argc, argv), options);
    std::ostringstream text;
    matcompare::write_results(text, format, context, results);
    output.commit(text.str());
    return exit_status(results);
  } catch (const std::bad_alloc&) {
    // Leaving the try block has deleted any unfinished --out file.
    bar.finish();
    fail("out of host memory");
  } catch (const std::exception& e) {
    bar.finish();
    fail(e.what());
  }
}
