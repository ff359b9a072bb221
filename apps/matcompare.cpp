// matcompare: a thin command-line client of the library (include/matcompare/).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "matcompare/matcompare.hpp"
#include "budget_note.hpp"
#include "cli_support.hpp"
#include "interrupt.hpp"
#include "partial_results.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "report_launch.hpp"
#include "run_comparison.hpp"
#include "saved_run.hpp"
#include "startup.hpp"

#ifndef MATCOMPARE_SOURCE_REPORT_SCRIPT
#define MATCOMPARE_SOURCE_REPORT_SCRIPT ""
#endif
#ifndef MATCOMPARE_INSTALLED_REPORT_SCRIPT
#define MATCOMPARE_INSTALLED_REPORT_SCRIPT ""
#endif
#ifndef MATCOMPARE_SOURCE_SUITES
#define MATCOMPARE_SOURCE_SUITES ""
#endif
#ifndef MATCOMPARE_INSTALLED_SUITES
#define MATCOMPARE_INSTALLED_SUITES ""
#endif

// Standard descriptors and signal handlers before the shared libraries' constructors (OpenBLAS starts its threads
// there): a Ctrl-C from the process's first moments prints its line. The sanitizers' runtimes start later, as
// libraries, and must see these calls: with them, main() does it.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MATCOMPARE_NO_PREINIT
#endif
#endif
#if !defined(MATCOMPARE_NO_PREINIT) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
namespace {
void start_before_libraries(int, char**, char** environment) { start_process(environment); }
}  // namespace
__attribute__((section(".preinit_array"), used)) static void (*const start_early)(int, char**, char**) =
    start_before_libraries;
#endif

namespace {

[[noreturn]] void fail(const std::string& message, int code = kExitBadInput) {
  std::cerr << "matcompare: error: " << message << std::endl;
  std::exit(code);
}

// Standard output, every write checked.
void print(const std::string& text) {
  try {
    write_stdout(text);
  } catch (const StdoutError& e) {
    fail(e.what(), kExitOutputFailed);
  }
}

bool readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + std::string(argv[i]);
  return line;
}

// Validators of option texts, run before CLI11 converts them (which would wrap "-1" into an unsigned, saturate an
// overflow, or let NaN through a range).
const CLI::Validator kNonEmpty(
    [](std::string& text) { return text.empty() ? std::string("an empty value is not allowed") : std::string(); }, "");

const CLI::Validator kSeed(
    [](std::string& text) {
      errno = 0;
      char* end = nullptr;
      const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (digits) std::strtoull(text.c_str(), &end, 10);
      return digits && errno == 0 ? std::string()
                                  : "'" + text + "' is not a whole number from 0 to " + std::to_string(UINT64_MAX);
    },
    "UINT64");

CLI::Validator number_between(double low, double high) {
  char range[96];
  std::snprintf(range, sizeof range, "a number from %g to %g", low, high);
  return CLI::Validator(
      [low, high, what = std::string(range)](std::string& text) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        const bool ok = !text.empty() && end && *end == '\0' && std::isfinite(x) && x >= low && x <= high;
        return ok ? std::string() : "'" + text + "' is not " + what;
      },
      "NUMBER");
}

const CLI::Validator kFiniteFloat(
    [](std::string& text) {
      char* end = nullptr;
      const double x = std::strtod(text.c_str(), &end);
      const bool ok = end && *end == '\0' && !text.empty() && std::isfinite(x) && std::fabs(x) <= FLT_MAX;
      return ok ? std::string() : "'" + text + "' is not a finite float";
    },
    "FLOAT");

const CLI::Validator kGpuIndex(
    [](std::string& text) {
      const bool digits = !text.empty() && text.size() <= 4 &&
                          std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
      return digits ? std::string() : "'" + text + "' is not a GPU index (0, 1, ...; nvidia-smi -L lists them)";
    },
    "N");

// Refuses each option of `options` that was given: "--size does nothing with --list".
void refuse_given(const std::vector<const CLI::Option*>& options, const std::string& with) {
  for (const CLI::Option* option : options)
    if (option->count() > 0) fail(option->get_name() + " does nothing with " + with);
}

// The shipped suites: installed beside the report generator, else in the source tree this binary was built from.
std::string suites_folder() {
  for (const char* folder : {MATCOMPARE_INSTALLED_SUITES, MATCOMPARE_SOURCE_SUITES})
    if (folder[0] != '\0' && access(folder, R_OK | X_OK) == 0) return folder;
  throw std::invalid_argument("no suites folder found (looked in '" + std::string(MATCOMPARE_INSTALLED_SUITES) +
                              "' and '" + MATCOMPARE_SOURCE_SUITES + "')");
}

matcompare::Suite shipped_suite(const std::string& name) {
  const bool plain = !name.empty() && name.find('/') == std::string::npos && name[0] != '.';
  const std::string folder = suites_folder();
  if (plain && access((folder + "/" + name + ".txt").c_str(), R_OK) == 0)
    return matcompare::read_suite(folder + "/" + name + ".txt");
  std::string known;
  for (const auto& suite : matcompare::suites_in(folder)) known += (known.empty() ? "" : ", ") + suite.name;
  throw std::invalid_argument("--suite: no suite '" + name + "' (matcompare --list-suites shows them: " + known + ")");
}

std::string suite_list() {
  std::ostringstream text;
  for (const auto& suite : matcompare::suites_in(suites_folder()))
    text << suite.name << "  " << suite.shapes.size() << " problems  " << suite.title << "\n";
  return text.str();
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// --columns and --wide: throws std::invalid_argument for an unknown column or both given.
matcompare::TableOptions table_options_of(const std::string& columns, bool wide) {
  if (wide && !columns.empty()) throw std::invalid_argument("--wide and --columns exclude each other");
  matcompare::TableOptions table;
  if (wide) table.columns = matcompare::table_columns();
  if (!columns.empty()) table.columns = matcompare::parse_table_columns(columns);
  return table;
}

[[noreturn]] void run_report(const std::vector<std::string>& files, const std::string& out_dir) {
  std::string python, script;
  try {
    for (const auto& f : files)
      if (!readable(f)) throw std::invalid_argument("cannot read '" + f + "'");
    script = report_script(MATCOMPARE_INSTALLED_REPORT_SCRIPT, MATCOMPARE_SOURCE_REPORT_SCRIPT);
    python = report_python();
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  std::vector<std::string> args{python, script};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"--out", out_dir});
  exec_argv(args);
  fail("cannot run " + python + ": " + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv, char** envp) {
  start_process(envp);  // done already from .preinit_array where that is built in
  finish_start();
  // Settings OpenBLAS and OpenMP read only when they load: set them and run the same binary again. On failure,
  // carry on without them.
  auto fixes = matcompare::thread_wait_fixes();
  if (const char* core = matcompare::openblas_coretype_fix()) fixes.emplace_back("OPENBLAS_CORETYPE", core);
  if (!fixes.empty()) restart_with(fixes, argv);

  CLI::App app{"matcompare: multiply matrices with every CPU and GPU algorithm of its five source documents and "
               "compare them with the vendor libraries (time, GFLOP/s, error against a float64 reference)."};
  app.set_version_flag("--version", std::string("matcompare ") + matcompare::version());

  std::string sizes, ms, ns, ks, filter, format_name = "table", out_file, values_name = "uniform", devices;
  bool all = false, list = false, no_flush = false;
  double alpha = 1.0, beta = 0.0;
  std::uint64_t seed = 42;
  int threads = 0, device = -1;
  matcompare::BenchmarkOptions options;

  // The options that only measuring uses, refused with --list and with report.
  std::vector<const CLI::Option*> measuring;
  // The options --list takes as well.
  std::vector<const CLI::Option*> listing;
  const CLI::Option* size_option = app.add_option("--size,--sizes", sizes,
                 "square sizes: a list and/or ranges, e.g. 2048 or 512,1024 or 512:2560:512 (default 1024)")->check(kNonEmpty);
  measuring.push_back(size_option);
  const CLI::Option* m_option = app.add_option("--m", ms, "rows of A and C (list or range; a single value applies to every shape)")->check(kNonEmpty);
  const CLI::Option* n_option = app.add_option("--n", ns, "columns of B and C (list or range)")->check(kNonEmpty);
  const CLI::Option* k_option = app.add_option("--k", ks, "columns of A, rows of B (list or range)")->check(kNonEmpty);
  measuring.insert(measuring.end(), {m_option, n_option, k_option});
  std::string layouts_text = "NN";
  const CLI::Option* layout_option = app.add_option("--layout", layouts_text,
                 "which operands are stored transposed: NN (default), NT, TN, TT (op(A) then op(B), row-major); "
                 "a list runs every shape in each")->check(kNonEmpty);
  measuring.push_back(layout_option);
  listing.push_back(app.add_flag("--all", all, "run every backend (the default when no --filter is given)"));
  listing.push_back(app.add_option("--filter", filter, "backends whose name contains a pattern; comma-separated, '*' wildcards")
      ->check(kNonEmpty));
  app.add_flag("--list", list, "list the backends (with --filter, the matching ones) and exit");
  bool list_suites = false;
  app.add_flag("--list-suites", list_suites, "list the shipped shape suites (--suite) and exit");
  std::string suite_name, shapes_file;
  const CLI::Option* suite_option = app.add_option("--suite", suite_name,
      "run the shapes of a shipped suite (DeepBench's sets, transformer layers; --list-suites)")->check(kNonEmpty);
  const CLI::Option* shapes_option = app.add_option("--shapes", shapes_file,
      "run the shapes listed in a file: one problem a line, M N K [LAYOUT [NAME]], # comments")->check(kNonEmpty);
  measuring.push_back(suite_option);
  measuring.push_back(shapes_option);
  measuring.push_back(app.add_option("--alpha", alpha, "alpha in C = alpha*A*B + beta*C (default 1)")->check(kFiniteFloat));
  measuring.push_back(app.add_option("--beta", beta, "beta in C = alpha*A*B + beta*C (default 0: C is not read)")->check(kFiniteFloat));
  measuring.push_back(app.add_option("--seed", seed, "seed of the random inputs (default 42)")->check(kSeed));
  measuring.push_back(app.add_option("--values", values_name,
                 "what the inputs are drawn from: uniform (reals in [-1, 1], the default), integers-1-100 or "
                 "reals-1-100 (source document 003's error experiment)")->check(kNonEmpty));
  measuring.push_back(app.add_option("--threads", threads, "CPU threads for OpenMP and OpenBLAS (default: one per logical core)")
      ->check(CLI::Range(0, 4096)));
  listing.push_back(app.add_option("--device", device, "GPU to use (default 0; with --devices, the first of them)")
      ->check(kGpuIndex));
  const CLI::Option* devices_option = app.add_option("--devices", devices,
                 "GPUs the multi-GPU rows (gpu/cublasxt-fp32, gpu/cublasmp-fp32) run on: a list like 0,1 or all "
                 "(default: the --device GPU alone)")->check(kNonEmpty);
  listing.push_back(devices_option);
  measuring.push_back(app.add_option("--repetitions", options.repetitions, "at least this many timed samples (default 5)")
      ->check(CLI::Range(1, 1000000)));
  measuring.push_back(app.add_option("--min-time", options.min_time_s, "at least this many seconds of timed work per measurement (default 0.25)")
      ->check(number_between(0.0, 3600.0)));
  measuring.push_back(app.add_option("--budget", options.budget_s,
                 "wall-clock seconds for the whole run (default 50 per shape), spent so that every row gets a "
                 "figure: as many samples as fit, else one verified run, else an estimate from the first rows of C")
      ->check(number_between(1e-3, 1e7)));
  measuring.push_back(app.add_option("--time-limit", options.time_limit_s,
                 "at most this many seconds for one backend on one shape, within the budget (default 20)")
      ->check(number_between(1e-3, 1e7)));
  measuring.push_back(app.add_flag("--no-flush", no_flush, "do not flush caches between samples (flattering: inputs stay cached)"));
  listing.push_back(app.add_option("--format", format_name, "table, md, csv, json or gbench (Google Benchmark's JSON) (default table)")->check(kNonEmpty));
  std::string columns_text, sort_key = "registry";
  bool wide = false;
  auto add_table_options = [&](CLI::App& to) {
    std::vector<const CLI::Option*> added;
    added.push_back(to.add_option("--columns", columns_text,
                                  "the table's columns, comma-separated (wide: all of them): " + joined(matcompare::table_columns()))
                        ->check(kNonEmpty));
    added.push_back(to.add_flag("--wide", wide, "every column of the table (wider than a terminal)"));
    added.push_back(to.add_option("--sort", sort_key, "order of the rows of each shape: " + joined(matcompare::sort_keys()) +
                                                          " (default registry: as run)")
                        ->check(kNonEmpty));
    return added;
  };
  const auto table_options = add_table_options(app);
  measuring.insert(measuring.end(), table_options.begin(), table_options.end());
  listing.push_back(app.add_option("--out", out_file, "write the results to this file instead of standard output")
      ->check(kNonEmpty));

  std::vector<std::string> report_files;
  std::string report_out;
  CLI::App* report = app.add_subcommand("report", "turn JSON runs into Markdown tables and plots");
  report->add_option("files", report_files, "JSON files written by matcompare --format json")->required();
  report->add_option("--out", report_out, "output folder")->required()->check(kNonEmpty);

  std::string show_file;
  CLI::App* show = app.add_subcommand("show", "print a JSON run as a table (or in another format)");
  show->add_option("file", show_file, "a JSON file written by matcompare --format json")->required()->check(kNonEmpty);
  show->add_option("--format", format_name, "table, md, csv, json or gbench (default table)")->check(kNonEmpty);
  show->add_option("--out", out_file, "write to this file instead of standard output")->check(kNonEmpty);
  add_table_options(*show);

  std::vector<std::string> compare_files;
  double regression_percent = -1;
  CLI::App* compare = app.add_subcommand("compare", "compare two JSON runs row by row, flagging changes beyond the noise");
  compare->add_option("files", compare_files, "BASE.json NEW.json, written by matcompare --format json")
      ->required()->expected(2)->check(kNonEmpty);
  compare->add_option("--fail-on-regression", regression_percent,
                      "exit with status 5 when a row is slower beyond the noise by more than this many percent, "
                      "or fails verification where it passed")
      ->check(number_between(0.0, 1e6));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    print(app.help());
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    print(std::string(e.what()) + "\n");
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    fail(e.what());
  }
  if (report->parsed()) {
    refuse_given(measuring, "matcompare report");
    refuse_given(listing, "matcompare report (its --out comes after 'report')");
    run_report(report_files, report_out);
  }
  if (compare->parsed()) {
    refuse_given(measuring, "matcompare compare");
    refuse_given(listing, "matcompare compare");
    try {
      const SavedRun base = load_saved_run(compare_files[0]);
      const SavedRun next = load_saved_run(compare_files[1]);
      const double threshold = regression_percent >= 0 ? regression_percent / 100 : -1;
      const Comparison comparison = compare_runs(base, next, threshold);
      std::ostringstream text;
      write_comparison(text, base, next, comparison, threshold);
      print(text.str());
      return regression_percent >= 0 && comparison.regressions > 0 ? kExitRegression : kExitOk;
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
  if (show->parsed()) {
    refuse_given(measuring, "matcompare show (its --columns, --wide and --sort come after 'show')");
    refuse_given(listing, "matcompare show (its --format and --out come after 'show')");
    try {
      matcompare::SavedResults saved = read_run_file(show_file);
      const matcompare::Format format = matcompare::parse_format(format_name);
      const matcompare::TableOptions table = table_options_of(columns_text, wide);
      matcompare::sort_results(saved.results, sort_key);
      OutputFile output(out_file);
      std::ostringstream text;
      matcompare::write_results(text, format, saved.context, saved.results, table);
      output.commit(text.str());
      return kExitOk;
    } catch (const StdoutError& e) {
      fail(e.what(), kExitOutputFailed);
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  if (list) refuse_given(measuring, "--list");
  if (list_suites) {
    refuse_given(measuring, "--list-suites");
    refuse_given(listing, "--list-suites");
    if (list) fail("--list does nothing with --list-suites");
    try {
      print(suite_list());
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    return kExitOk;
  }
  // A suite's lines are its shapes: the options that make shapes would be ignored, so they are refused.
  if (suite_option->count() > 0 && shapes_option->count() > 0) fail("--suite and --shapes exclude each other");
  for (const CLI::Option* given : {suite_option, shapes_option})
    if (given->count() > 0) refuse_given({size_option, m_option, n_option, k_option, layout_option}, given->get_name());

  const bool terminal = isatty(STDERR_FILENO) != 0;
  ProgressReport bar(terminal ? ProgressReport::Mode::terminal : ProgressReport::Mode::lines, std::cerr);
  erase_progress_line_on_signal(isatty(STDERR_FILENO) != 0);
  std::string kept_partial_note;  // an error's line says where the finished shapes' results are, once kept
  try {
    // Every variable the library reads, before any work: a bad one is refused now, not after the run.
    matcompare::check_environment();
    const matcompare::Format format = matcompare::parse_format(format_name);
    const matcompare::TableOptions table = table_options_of(columns_text, wide);
    std::vector<matcompare::BenchmarkResult> none;
    matcompare::sort_results(none, sort_key);  // an unknown key is refused now, not after the run
    options.input_values = matcompare::parse_input_values(values_name);
    const auto backends = matcompare::select_backends(all ? "" : filter);
    if (backends.empty())
      throw std::invalid_argument("--filter '" + filter + "' matches no backend (matcompare --list shows them)");
    matcompare::Suite suite;
    if (!list && suite_option->count() > 0) suite = shipped_suite(suite_name);
    if (!list && shapes_option->count() > 0) suite = matcompare::read_suite(shapes_file);
    std::vector<matcompare::GemmShape> shapes;
    for (const auto& s : suite.shapes) shapes.push_back(s.shape);
    if (!list && suite.shapes.empty()) shapes = with_layouts(parse_shapes(sizes, ms, ns, ks), layouts_text);
    if (!list) options.budget_s = matcompare::run_budget_s(options, shapes.size());  // the context records what was used
    OutputFile output(out_file);  // an unwritable --out fails now, not after the run
    if (devices_option->count() > 0) matcompare::select_gpus(matcompare::parse_device_list(devices, matcompare::gpu_count()));
    if (device >= 0) matcompare::select_gpu(device);
    if (list) {
      std::ostringstream text;
      matcompare::write_backend_list(text, format, backends);
      output.commit(text.str());
      return kExitOk;
    }
    matcompare::set_threads(threads);
    options.alpha = float(alpha);
    options.beta = float(beta);
    options.seed = seed;
    options.flush_cache = !no_flush;

    auto context = matcompare::collect_context(joined_command_line(argc, argv), options);
    context.suite = suite;
    PartialResults partial(output.partial_path(), {context, format, table, sort_key, output.replaced_mode()});
    const auto run_started = std::chrono::steady_clock::now();
    auto results = matcompare::run_benchmarks(
        backends, shapes, options, [&](const matcompare::Progress& p) { bar.update(p); },
        [&](const std::vector<matcompare::BenchmarkResult>& shape_results) {
          partial.add(shape_results);
          kept_partial_note = partial.where_kept();
        });
    bar.finish();
    context.run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_started).count();
    const std::string overrun = budget_overrun_note(results, options.budget_s, context.run_s);
    if (!overrun.empty()) std::cerr << overrun << std::endl;
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
    matcompare::sort_results(results, sort_key);
    std::ostringstream text;
    matcompare::write_results(text, format, context, results, table);
    output.commit(text.str());
    partial.remove();
    return exit_status(results);
  } catch (const StdoutError& e) {
    bar.finish();
    fail(e.what(), kExitOutputFailed);
  } catch (const std::bad_alloc&) {
    // Leaving the try block has deleted any unfinished --out file; the finished shapes' results stay.
    bar.finish();
    fail("out of host memory" + kept_partial_note);
  } catch (const std::exception& e) {
    bar.finish();
    fail(e.what() + kept_partial_note);
  }
}
