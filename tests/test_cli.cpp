#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../apps/budget_note.hpp"
#include "../apps/cli_support.hpp"
#include "../apps/progress.hpp"
#include "matcompare/matcompare.hpp"
#include "test_cli_spawn.hpp"

namespace {

using cli_test::count_lines;
using cli_test::empty_folder;
using cli_test::names_in;
using cli_test::Outcome;
namespace fs = std::filesystem;

// Every CPU vendor library joins a run of CPU rows (OpenBLAS, and BLIS and oneMKL, available or not).
std::size_t cpu_vendor_libraries() {
  const auto& all = matcompare::all_backends();
  return std::size_t(std::count_if(all.begin(), all.end(), [](const matcompare::Backend* b) {
    return b->info().device == matcompare::DeviceKind::cpu && b->info().vendor_library;
  }));
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs the CLI as a user would, without a shell (test_cli_spawn.hpp), capturing stdout and stderr separately.
// `args` is split at spaces ('' is an empty argument); `environment` ("NAME=value ...") is set for it alone.
Outcome run_cli(const std::string& args, const std::string& environment = "") {
  std::vector<std::pair<std::string, std::string>> env;
  for (const std::string& setting : cli_test::words(environment)) {
    const std::size_t equals = setting.find('=');
    env.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
  }
  return cli_test::run_cli(cli_test::words(args), env);
}

// Runs that test what the CLI prints, not the timing: no flush between samples, which on a machine with a large last
// level cache (480 MiB on the CI VM: a 960 MiB write a sample) was most of each run's seconds. The flush itself is
// pinned by test_method, its wiring to the CLI below.
const char* kQuick = " --repetitions 2 --min-time 0 --no-flush ";

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("--list --format json names every backend with its seed step and availability") {
  const Outcome o = run_cli("--list --format json");
  REQUIRE(o.exit_code == 0);
  const auto j = nlohmann::json::parse(o.out);
  REQUIRE(j["backends"].size() >= 36);
  for (const auto& b : j["backends"]) {
    for (const char* key : {"name", "device", "seed", "idea", "precision", "available", "reason"})
      CHECK_MESSAGE(b.contains(key), key);
    if (b["device"] == "cpu") CHECK(b["available"] == true);
  }
}

TEST_CASE("an odd shape with alpha and beta gives parseable JSON in which every row that ran passed") {
  // A budget far above what the rows need: under load a row's trial can read slow, and a tight share then leaves
  // no time for an end-to-end sample, whose figure this test checks.
  const Outcome o = run_cli(std::string("--m 127 --n 253 --k 61 --alpha 0.5 --beta 2 --all --format json") + kQuick +
                            "--time-limit 5 --budget 600");
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  const auto j = nlohmann::json::parse(o.out);
  for (const char* key : {"hostname", "cpu_model", "openblas", "gpu", "gpus", "multi_gpu_devices", "cublasxt_block_dim",
                          "cublasmp", "git_commit", "command_line", "timestamp_utc"})
    CHECK_MESSAGE(j["context"].contains(key), key);
  int ran = 0;
  for (const auto& r : j["results"]) {
    for (const char* key : {"backend", "device", "seed", "idea", "precision", "vendor", "m", "n", "k", "alpha", "beta",
                            "status", "reason", "median_ms", "min_ms", "max_ms", "cv", "samples", "total_ms",
                            "total_min_ms", "total_samples", "gflops", "vs_vendor", "vs_vendor_q1", "vs_vendor_q3",
                            "vs_vendor_pairs", "vs_precision_vendor", "vs_best_vendor", "best_vendor",
                            "vs_best_vendor_pairs", "estimated_run_s", "estimate_rows", "estimate_subset_ms", "estimate_ms_per_row", "budget_s",
                            "spent_s", "max_abs_error", "sum_abs_error", "rel_error", "blas_ratio", "passed",
                            "verified_rows", "verification_sample", "devices", "speedup", "efficiency",
                            "speedup_basis"})
      CHECK_MESSAGE(r.contains(key), key);
    CHECK(r["m"] == 127);
    CHECK(r["n"] == 253);
    CHECK(r["k"] == 61);
    CHECK(r["alpha"] == 0.5);
    CHECK(r["beta"] == 2.0);
    if (r["status"] == "ok") {
      ++ran;
      CHECK_MESSAGE(r["passed"] == true, r["backend"]);
      CHECK(r["gflops"].get<double>() > 0);
      CHECK(r["total_ms"].get<double>() > 0);
      CHECK(r["verified_rows"] == 127);  // a full reference: every row of C checked
      CHECK(r["verification_sample"].is_null());
    } else {
      CHECK_MESSAGE(r["status"] != "failed", r["backend"], ": ", r["reason"]);
    }
    if (r["backend"] == "cpu/openblas") CHECK(r["vs_vendor"] == 1.0);
  }
  CHECK(ran >= 14);
}

TEST_CASE("table, markdown and csv print the same rows; --out writes a file instead of stdout") {
  for (const char* format : {"table", "md", "csv"}) {
    const Outcome o = run_cli(std::string("--size 33 --filter cpu/tiling --format ") + format + kQuick);
    REQUIRE(o.exit_code == 0);
    CHECK(o.out.find("cpu/tiling") != std::string::npos);
    CHECK(o.out.find("cpu/openblas") != std::string::npos);
  }
  const Outcome o = run_cli(std::string("--size 20 --filter cpu/gold --format csv --out cli_out.csv") + kQuick);
  REQUIRE(o.exit_code == 0);
  CHECK(o.out.empty());
  const std::string csv = slurp("cli_out.csv");
  CHECK(csv.rfind("backend,device,precision,m,n,k", 0) == 0);
  CHECK(count_lines(csv) == 3 + cpu_vendor_libraries());  // header, gold, gold-omp, openblas, libblis, onemkl
}

TEST_CASE("--values draws the inputs from seed 003's range and the JSON context records it") {
  const Outcome o = run_cli(std::string("--size 16 --filter cpu/gold --values integers-1-100 --format json") + kQuick);
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  const auto j = nlohmann::json::parse(o.out);
  CHECK(j["context"]["input_values"] == "integers-1-100");
  CHECK(j["context"]["input_values_description"].get<std::string>().find("1..100") != std::string::npos);
  for (const auto& r : j["results"]) CHECK_MESSAGE(r["sum_abs_error"] == 0.0, r["backend"]);  // exact in FP32
  const Outcome plain = run_cli(std::string("--size 16 --filter cpu/gold --format json") + kQuick);
  REQUIRE(plain.exit_code == 0);
  CHECK(nlohmann::json::parse(plain.out)["context"]["input_values"] == "uniform");
}

TEST_CASE("--shapes runs a list's problems in their layouts, and the JSON context names the list and each problem") {
  const fs::path folder = empty_folder("cli_shapes");
  std::ofstream(folder / "layers.txt") << "# layers: two of them\n9 17 33 NT qkv T=9\n\n5 7 11 tt\n";
  const Outcome o = run_cli("--shapes " + (folder / "layers.txt").string() + " --filter cpu/blis,cpu/tiling --alpha 0.5 "
                            "--beta 2 --format json" + kQuick);
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  const auto j = nlohmann::json::parse(o.out);
  const auto& suite = j["context"]["suite"];
  CHECK(suite["name"] == "layers");
  CHECK(suite["title"] == "two of them");
  REQUIRE(suite["shapes"].size() == 2);
  CHECK(suite["shapes"][0]["name"] == "qkv T=9");
  CHECK(suite["shapes"][1]["layout"] == "TT");
  int blis = 0;
  for (const auto& r : j["results"]) {
    CAPTURE(r["backend"]);
    const bool first = r["m"] == 9;
    CHECK(r["layout"] == (first ? "NT" : "TT"));
    if (r["backend"] == "cpu/tiling") CHECK(r["status"] == "unavailable");
    if (r["backend"] == "cpu/blis") blis += r["passed"] == true;
  }
  CHECK(blis == 2);
  // A run by sizes has no suite.
  const Outcome plain = run_cli(std::string("--size 16 --filter cpu/gold --format json") + kQuick);
  REQUIRE(plain.exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(plain.out)["context"].contains("suite"));
}

TEST_CASE("--list-suites lists every shipped suite with its count and title") {
  const Outcome o = run_cli(std::string("--list-suites"));
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  CHECK(count_lines(o.out) == 8);
  CHECK(o.out.find("deepbench-training  160 problems  DeepBench's GEMM training set") != std::string::npos);
  CHECK(o.out.find("error-vs-k  5 problems") != std::string::npos);
  CHECK(o.out.find("llama-3.1-70b-prefill  15 problems") != std::string::npos);
}

TEST_CASE("--budget: a run that cannot measure every row in full still gives each a figure, estimates labelled") {
  const Outcome o = run_cli("--size 384 --filter cpu/ --budget 2 --format json");
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  const auto j = nlohmann::json::parse(o.out);
  CHECK(j["context"]["timing"]["budget_s"] == 2.0);
  const double run_s = j["context"]["timing"]["run_s"].get<double>();  // the run's wall time, beside its budget
  CHECK(run_s > 0.5);
  CHECK(run_s < 60);
  CHECK(j["context"]["timing"]["time_limit_s"] == 20.0);
  for (const auto& r : j["results"]) {
    INFO(r["backend"], ": ", r["reason"]);
    CHECK((r["status"] == "ok" || r["status"] == "estimated"));
    CHECK(r["gflops"].get<double>() > 0);
    CHECK(r["passed"] == true);
    if (r["status"] == "estimated") {
      CHECK(r["estimate_rows"].get<int>() > 0);
      CHECK(r["reason"].get<std::string>().rfind("estimate from rows 0-", 0) == 0);
    } else {
      CHECK(r["estimate_rows"].is_null());
    }
  }
  const Outcome table = run_cli("--size 1024 --filter cpu/gold --budget 0.5");
  REQUIRE_MESSAGE(table.exit_code == 0, table.err);
  CHECK(table.out.find("estimated: estimate from rows 0-") != std::string::npos);
  CHECK(table.out.find(" ~") != std::string::npos);  // the estimate's figures are marked
  CHECK(table.out.find("skipped") == std::string::npos);
}

TEST_CASE("sweeps accept lists and ranges and zip --m/--n/--k lists") {
  const Outcome o = run_cli(std::string("--size 8:24:8 --filter cpu/loop-ikj --format json") + kQuick);
  REQUIRE(o.exit_code == 0);
  CHECK(nlohmann::json::parse(o.out)["results"].size() == 3 * (1 + cpu_vendor_libraries()));
  const Outcome zipped = run_cli(std::string("--m 5,6 --n 7 --k 9,10 --filter cpu/loop-ikj --format json") + kQuick);
  REQUIRE(zipped.exit_code == 0);
  const auto all = nlohmann::json::parse(zipped.out);
  nlohmann::json r = nlohmann::json::array();  // the loop's rows, one per shape
  for (const auto& row : all["results"])
    if (row["backend"] == "cpu/loop-ikj") r.push_back(row);
  REQUIRE(r.size() == 2);
  CHECK(r[0]["m"] == 5);
  CHECK(r[0]["k"] == 9);
  CHECK(r[1]["m"] == 6);
  CHECK(r[1]["n"] == 7);
  CHECK(r[1]["k"] == 10);
}

TEST_CASE("a product too large for the host memory is refused before any allocation, and the limit can be set") {
  // 0.01 GiB: a 1024 problem's operands and reference (about 40 MiB) no longer fit.
  const Outcome refused = run_cli("--size 1024 --filter cpu/openblas", "MATCOMPARE_HOST_MEMORY_GIB=0.01");
  INFO("stderr: ", refused.err);
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.empty());
  CHECK(count_lines(refused.err) == 1);
  CHECK(refused.err.find("GiB of host memory") != std::string::npos);
  CHECK(refused.err.find("MATCOMPARE_HOST_MEMORY_GIB") != std::string::npos);
  const Outcome bad = run_cli("--size 8 --filter cpu/openblas", "MATCOMPARE_HOST_MEMORY_GIB=lots");
  CHECK(bad.exit_code == 2);
  CHECK(count_lines(bad.err) == 1);
  const Outcome fits = run_cli(std::string("--size 64 --filter cpu/openblas") + kQuick, "MATCOMPARE_HOST_MEMORY_GIB=0.01");
  CHECK_MESSAGE(fits.exit_code == 0, fits.err);
}

TEST_CASE("matcompare report: a bad file is refused with one line naming the file and what is wrong, exit 2") {
  const fs::path folder = empty_folder("cli_report_inputs");
  const std::string valid_row =
      R"({"backend": "cpu/gold", "device": "cpu", "m": 8, "n": 8, "k": 8, "status": "ok", "median_ms": 1.0, )";
  std::string random_bytes;
  for (int i = 0; i < 1024; ++i) random_bytes += char((i * 131 + 7) % 256);
  const std::string whole = R"({"context": {}, "results": [)" + valid_row + R"("gflops": 2.0}]})";
  struct BadFile {
    const char* name;
    std::string text;
    const char* said;  // besides the file's name
  };
  const std::vector<BadFile> cases = {
      {"random.json", random_bytes, "not UTF-8"},
      {"truncated.json", whole.substr(0, whole.size() - 12), "truncated"},
      {"results_text.json", R"({"context": {}, "results": "x"})", "results must be an array"},
      {"no_shape.json", R"({"context": {}, "results": [{"backend": "x"}]})", "results[0].m"},
      {"no_time.json", R"({"context": {}, "results": [)" + valid_row + R"("gflops": null}]})", "results[0].gflops"},
      {"nan.json", R"({"context": {}, "results": [)" + valid_row + R"("gflops": NaN}]})", "NaN"},
  };
  for (const BadFile& bad : cases) write_text(folder / bad.name, bad.text);
  // A sparse file: large on paper, cheap to make.
  const fs::path huge = folder / "huge.json";
  write_text(huge, "");
  fs::resize_file(huge, std::uintmax_t(65) << 20);

  auto expect_refused = [&](const fs::path& file, const std::string& said) {
    const fs::path out = folder / ("report_of_" + file.stem().string());
    const Outcome o = run_cli("report " + file.string() + " --out " + out.string());
    INFO("file: ", file.string(), "\nstderr: ", o.err);
    CHECK(o.exit_code == 2);
    CHECK(o.out.empty());
    CHECK(count_lines(o.err) == 1);
    CHECK(o.err.rfind("matcompare: error: ", 0) == 0);
    CHECK(o.err.find(file.string()) != std::string::npos);
    CHECK(o.err.find(said) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  };
  for (const BadFile& bad : cases) expect_refused(folder / bad.name, bad.said);
  expect_refused(huge, "MiB");
}

TEST_CASE("--out is replaced whole or left as it was: a failed run leaves neither a partial nor a temporary file") {
  const fs::path folder = empty_folder("cli_out_failures");
  const fs::path kept = folder / "kept.csv";
  write_text(kept, "the previous results\n");
  // A shape too large for memory fails after --out was opened; a folder as the file and a bad format fail before.
  for (const std::string args : {"--size 8,300000 --filter cpu/gold --out " + kept.string(),
                                 "--size 8 --filter cpu/gold --out " + folder.string(),
                                 "--size 8 --filter cpu/gold --out " + (folder / "new.csv").string() + " --format xml"}) {
    const Outcome o = run_cli(args + kQuick);
    INFO("args: ", args, "\nstderr: ", o.err);
    CHECK(o.exit_code == 2);
    CHECK(count_lines(o.err) == 1);
    CHECK(names_in(folder) == std::vector<std::string>{"kept.csv"});
    CHECK(slurp(kept.string()) == "the previous results\n");
  }
  const Outcome replaced = run_cli("--size 8 --filter cpu/gold --format csv --out " + kept.string() + kQuick);
  REQUIRE_MESSAGE(replaced.exit_code == 0, replaced.err);
  CHECK(names_in(folder) == std::vector<std::string>{"kept.csv"});
  CHECK(slurp(kept.string()).rfind("backend,", 0) == 0);
}

TEST_CASE("--out through a symbolic link replaces the file it names and keeps the link") {
  const fs::path folder = empty_folder("cli_out_link");
  write_text(folder / "target.csv", "old\n");
  fs::create_symlink("target.csv", folder / "link.csv");
  const Outcome o = run_cli("--size 8 --filter cpu/gold --format csv --out " + (folder / "link.csv").string() + kQuick);
  REQUIRE_MESSAGE(o.exit_code == 0, o.err);
  CHECK(fs::is_symlink(folder / "link.csv"));
  CHECK(slurp((folder / "target.csv").string()).rfind("backend,", 0) == 0);
  CHECK(names_in(folder) == std::vector<std::string>{"link.csv", "target.csv"});
}

TEST_CASE("Ctrl-C stops a run at once, by SIGINT, and leaves the previous --out file as it was") {
  const fs::path folder = empty_folder("cli_interrupt");
  const fs::path out = folder / "results.json";
  write_text(out, "the previous results\n");
  // Minutes of work: gold at 1024 with at least a minute of timed samples.
  cli_test::Run run;
  run.args = cli_test::words("--size 1024 --filter cpu/gold --min-time 600 --time-limit 100000 --format json --out " +
                             out.string());
  cli_test::Child child(run);
  // The temporary file beside results.json appears once the run has started.
  CHECK(child.wait_until([&] { return names_in(folder).size() == 2; }, 30, std::chrono::milliseconds(20)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  REQUIRE(kill(child.pid(), SIGINT) == 0);
  const double interrupted_at = child.seconds_since_start();
  CHECK(child.wait_until([&] { return !child.running(); }, 10, std::chrono::milliseconds(10)));
  CHECK(child.seconds_since_start() - interrupted_at < 2);
  const Outcome o = child.finish();
  CHECK(o.signal == SIGINT);
  CHECK(names_in(folder) == std::vector<std::string>{"results.json"});
  CHECK(slurp(out.string()) == "the previous results\n");
  CHECK(count_lines(o.err) == 1);
  CHECK(o.err.rfind("matcompare: error: interrupted", 0) == 0);
}

TEST_CASE("a stopped run leaves its finished shapes beside --out as FILE.partial; a finished run leaves none") {
  const fs::path folder = empty_folder("cli_partial");
  const fs::path out = folder / "results.json", partial = folder / "results.json.partial";
  write_text(out, "the previous results\n");
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write);  // 0600: the partial file keeps it
  // Two shapes are done in seconds; the third draws a 4096^3 problem and its float64 reference first.
  cli_test::Run run;
  run.args = cli_test::words("--sizes 8,9,4096 --budget 2 --filter cpu/gold --format json --out " + out.string());
  cli_test::Child child(run);
  const auto shapes_kept = [&] {
    std::set<int> rows;
    if (!fs::exists(partial)) return rows;
    const auto kept = nlohmann::json::parse(slurp(partial.string()));
    for (const auto& r : kept["results"]) rows.insert(r["m"].get<int>());
    return rows;
  };
  // The wait ends as soon as shape 9 is kept; its limit only has to outlast a slow machine (7.5-8.9 s under ASan
  // beside another test on the 2-core VM, where CI's sanitizer leg runs this file in ~91 s).
  CHECK(child.wait_until([&] { return shapes_kept().count(9) == 1; }, 300, std::chrono::milliseconds(20)));
  REQUIRE(kill(child.pid(), SIGTERM) == 0);
  CHECK(child.wait_until([&] { return !child.running(); }, 10, std::chrono::milliseconds(10)));
  const Outcome o = child.finish();
  CHECK(o.signal == SIGTERM);
  // The last line of stderr (progress lines come before it once a run is past its quiet start, as under a sanitizer)
  const std::string last = o.err.substr(o.err.rfind('\n', o.err.size() - 2) + 1);
  CHECK(last.rfind("matcompare: error: terminated (SIGTERM); the results of the finished shapes are in " +
                       partial.string(), 0) == 0);
  CHECK(names_in(folder) == std::vector<std::string>{"results.json", "results.json.partial"});
  CHECK(slurp(out.string()) == "the previous results\n");
  CHECK(shapes_kept() == std::set<int>{8, 9});
  CHECK(fs::status(partial).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(nlohmann::json::parse(slurp(partial.string()))["context"]["command_line"].get<std::string>().find(
            "--sizes 8,9,4096") != std::string::npos);

  // Something already at FILE.partial (that run's results, a folder) is left as it is, with a note.
  for (const bool folder_there : {false, true}) {
    INFO("a folder at FILE.partial: ", folder_there);
    if (folder_there) {
      fs::remove(partial);
      fs::create_directory(partial);
    }
    const std::string before = folder_there ? "" : slurp(partial.string());
    const Outcome done = run_cli("--size 8 --filter cpu/gold --format json --out " + out.string() + kQuick);
    REQUIRE_MESSAGE(done.exit_code == 0, done.err);
    CHECK(done.err.find("matcompare: note: '" + partial.string() + "' exists") != std::string::npos);
    CHECK(names_in(folder) == std::vector<std::string>{"results.json", "results.json.partial"});
    CHECK(fs::is_directory(partial) == folder_there);
    if (!folder_there) CHECK(slurp(partial.string()) == before);
    CHECK(nlohmann::json::parse(slurp(out.string()))["results"].size() >= 4);
  }
  fs::remove(partial);
  const Outcome done = run_cli("--sizes 8,9 --filter cpu/gold --format json --out " + out.string() + kQuick);
  REQUIRE_MESSAGE(done.exit_code == 0, done.err);
  CHECK(done.err.find("note") == std::string::npos);
  CHECK(names_in(folder) == std::vector<std::string>{"results.json"});
}

TEST_CASE("a run flushes the caches between samples unless --no-flush says not, and its JSON says which") {
  const Outcome flushed = run_cli("--size 8 --filter cpu/gold --repetitions 1 --min-time 0 --format json");
  REQUIRE_MESSAGE(flushed.exit_code == 0, flushed.err);
  const auto j = nlohmann::json::parse(flushed.out);
  CHECK(j["context"]["timing"]["flush_cache"] == true);
  CHECK(j["context"]["host_cache_policy"].get<std::string>().find("flushed") != std::string::npos);
  const Outcome kept = run_cli("--size 8 --filter cpu/gold --format json" + std::string(kQuick));
  REQUIRE_MESSAGE(kept.exit_code == 0, kept.err);
  CHECK(nlohmann::json::parse(kept.out)["context"]["timing"]["flush_cache"] == false);
}

TEST_CASE("--help and --version succeed") {
  const Outcome help = run_cli("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--time-limit") != std::string::npos);
  CHECK(help.out.find("--budget") != std::string::npos);
  const Outcome version = run_cli("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out.find("matcompare") != std::string::npos);
}

TEST_CASE("an OPENBLAS_CORETYPE below the CPU is kept, with a note that the CPU ratios reflect it") {
  // Prescott is below every CPU with AVX2: the CLI keeps the user's choice and says what it costs.
  const Outcome held = run_cli("--size 16 --filter cpu/tiling --budget 1 --format csv", "OPENBLAS_CORETYPE=Prescott");
  CHECK(held.exit_code == 0);
  INFO("stderr: ", held.err);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    CHECK(held.err.find("matcompare: note: OPENBLAS_CORETYPE=Prescott holds OpenBLAS below this CPU") !=
          std::string::npos);
  }
  const Outcome gpu_only = run_cli("--size 16 --filter gpu/naive --budget 1 --format csv", "OPENBLAS_CORETYPE=Prescott");
  CHECK(gpu_only.exit_code == 0);
  CHECK(gpu_only.err.find("OPENBLAS_CORETYPE") == std::string::npos);  // no CPU row, nothing to skew
}

TEST_CASE("the exit status: 3 when a row failed, whatever else ran; 0 when rows passed, were estimated or unavailable") {
  using matcompare::Status;
  auto row = [](Status status) {
    matcompare::BenchmarkResult r;
    r.status = status;
    return r;
  };
  CHECK(exit_status({}) == kExitOk);
  CHECK(exit_status({row(Status::ok), row(Status::estimated), row(Status::unavailable)}) == kExitOk);
  CHECK(exit_status({row(Status::ok), row(Status::failed), row(Status::ok)}) == kExitRowFailed);
  CHECK(exit_status({row(Status::unavailable), row(Status::failed)}) == 3);
}

TEST_CASE("a run well past its budget ends with a note of where the time went; one within it says nothing") {
  auto row = [](double budget_s, double spent_s) {
    matcompare::BenchmarkResult r;
    r.budget_s = budget_s;
    r.spent_s = spent_s;
    return r;
  };
  const std::vector<matcompare::BenchmarkResult> rows{row(2, 6), row(3, 4), row(1, 0.5)};  // 10.5 s, 5 s past
  CHECK(budget_overrun_note(rows, 10, 10.9) == "");
  CHECK(budget_overrun_note(rows, 10, 11.0) == "");  // kBudgetNoteSlack: a last sample's overrun is within the rule
  CHECK(budget_overrun_note(rows, 0, 30) == "");
  const std::string note = budget_overrun_note(rows, 10, 20.4);
  INFO(note);
  // 5.5 s within the rows' shares, 5 s past them, 9.9 s outside the rows: the three add up to the run's time.
  CHECK(note.rfind("matcompare: note: the run took 20.4 s of its 10 s budget: 5.5 s in its rows' shares (each at least "
                   "0.05 s, or one full run where that takes at most 1 s), 5 s past them (planning trials, set-ups, "
                   "uploads, first runs and verification, ", 0) == 0);
  CHECK(note.find("9.9 s outside the rows (inputs and their float64 references)") != std::string::npos);
  CHECK(budget_overrun_note(rows, 4000, 8000).rfind("matcompare: note: the run took 8000 s of its 4000 s budget", 0) ==
        0);
  CHECK(note.find('\n') == std::string::npos);
  // The CLI: a budget far below one shape's fixed costs (a 1024 cube's inputs and float64 reference, every CPU row's
  // set-up and verification), then the same rows within a budget they fit.
  const Outcome over = run_cli("--size 1024 --filter cpu/gold,cpu/openblas --budget 0.1 --format csv");
  REQUIRE_MESSAGE(over.exit_code == 0, over.err);
  CHECK(over.err.find("matcompare: note: the run took ") != std::string::npos);
  const Outcome within = run_cli("--size 64 --filter cpu/gold,cpu/openblas --budget 20 --format csv");
  REQUIRE_MESSAGE(within.exit_code == 0, within.err);
  CHECK(within.err.find("matcompare: note:") == std::string::npos);
}

namespace {

matcompare::Progress step(const std::string& backend, bool planning, int done, double elapsed_s) {
  matcompare::Progress p;
  p.backend = backend;
  p.shape = {64, 64, 64};
  p.planning = planning;
  p.done = done;
  p.total = 3;
  p.elapsed_s = elapsed_s;
  p.row_budget_s = 2;
  p.budget_left_s = 10 - elapsed_s;
  return p;
}

std::vector<std::string> lines_in(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("progress without a terminal: silent at first, then a line per row, one per shape's planning, and lines "
          "while a row goes on") {
  std::ostringstream out;
  {
    ProgressReport report(ProgressReport::Mode::lines, out, 0.01, 1.0, 0.05);
    report.update(step("cpu/gold", true, 0, 0.1));  // within the quiet start: nothing
    report.update(step("cpu/gold", false, 0, 0.5));
    CHECK(out.str().empty());
    matcompare::Progress inputs = step("", false, 1, 1.4);  // the next shape's inputs and reference
    inputs.drawing_inputs = true;
    report.update(inputs);
    report.update(step("cpu/gold", true, 1, 1.5));
    report.update(step("cpu/blis", true, 1, 1.6));  // the same shape's planning: no second line
    report.update(step("cpu/blis", false, 1, 2.0));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    report.finish();
    report.update(step("cpu/onemkl", false, 2, 3.0));  // after finish: nothing
  }
  const auto lines = lines_in(out.str());
  REQUIRE(lines.size() >= 4);
  CHECK(lines[0] == "matcompare: [1/3] 64x64x64: drawing the inputs and their float64 reference  (1.4s elapsed, "
                    "8.6s of the budget left)");
  CHECK(lines[1] == "matcompare: [1/3] 64x64x64: planning (a few-row trial of each row)  (1.5s elapsed, 8.5s of the "
                    "budget left)");
  CHECK(lines[2] == "matcompare: [1/3] cpu/blis 64x64x64: up to 2.0s  (2.0s elapsed, 8.0s of the budget left)");
  // The row went on for 0.2 s: lines every 0.05 s say how long it has run.
  CHECK(lines[3].rfind("matcompare: [1/3] cpu/blis 64x64x64: 0.", 0) == 0);
  CHECK(lines[3].find("s of up to 2.0s") != std::string::npos);
  CHECK(out.str().find("onemkl") == std::string::npos);
  CHECK(out.str().find('\r') == std::string::npos);
  std::ostringstream past;  // a run past its budget: its fixed costs go on, and the line says so
  {
    ProgressReport report(ProgressReport::Mode::lines, past, 0.01, 1.0, 0.05);
    report.update(step("cpu/blis", false, 2, 12.0));
    report.finish();
  }
  CHECK(lines_in(past.str()).front() == "matcompare: [2/3] cpu/blis 64x64x64: up to 2.0s  (12s elapsed, the budget "
                                        "spent)");
}

TEST_CASE("progress says once, when first predicted, that the shapes' fixed costs outgrow the budget left") {
  auto with_fixed = [](double elapsed_s, double fixed_s) {
    matcompare::Progress p = step("cpu/blis", false, 1, elapsed_s);
    p.fixed_costs_left_s = fixed_s;
    return p;
  };
  std::ostringstream out;
  {
    ProgressReport report(ProgressReport::Mode::lines, out, 10.0, 1.0, 10.0);
    report.update(with_fixed(0.5, 40));  // the quiet start: nothing
    report.update(with_fixed(2.0, 8.5));  // 0.5 s beyond the 8 s left: within the slack
    CHECK(out.str().find("note:") == std::string::npos);
    report.update(with_fixed(3.0, 40));
    report.update(with_fixed(4.0, 50));  // told once
    report.finish();
  }
  const auto lines = lines_in(out.str());
  std::vector<std::string> notes;
  for (const std::string& line : lines)
    if (line.rfind("matcompare: note:", 0) == 0) notes.push_back(line);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "matcompare: note: the shapes left need about 40s beyond their rows' samples (inputs, float64 "
                    "references, set-ups, verification; learnt from the shapes done), more than the 7.0s of the "
                    "budget left: the run will end about 33s past its budget");
  std::ostringstream terminal;  // on a terminal the line being redrawn is erased first, and the note ends its line
  {
    ProgressReport report(ProgressReport::Mode::terminal, terminal, 10.0);
    report.update(with_fixed(0.0, 0));
    report.update(with_fixed(0.5, 40));
    report.finish();
  }
  const std::string text = terminal.str();
  const std::size_t note = text.find("matcompare: note: the shapes left need about 40s");
  REQUIRE(note != std::string::npos);
  CHECK(text[note - 1] == '\r');
  CHECK(text.find("past its budget\n", note) != std::string::npos);
}

TEST_CASE("progress on a terminal: one line redrawn in place, also between steps, erased at the end") {
  std::ostringstream out;
  ProgressReport report(ProgressReport::Mode::terminal, out, 0.01);
  report.update(step("cpu/gold", false, 0, 0.0));
  const std::size_t after_step = out.str().size();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(out.str().size() > after_step);  // redrawn while the row runs
  CHECK(out.str().find(" of up to 2.0s") != std::string::npos);
  report.finish();
  const std::string text = out.str();
  CHECK(text.find('\n') == std::string::npos);
  CHECK(text.back() == '\r');  // erased: blanks over the line, the cursor back at its start
}

TEST_CASE("show prints a saved run in any format: its JSON back unchanged, a table within 120 columns, sorted") {
  const fs::path folder = empty_folder("cli_show");
  const std::string saved = (folder / "run.json").string();
  const Outcome run = run_cli("--sizes 24,40 --filter cpu/gold,cpu/blis --format json --out " + saved + kQuick);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const Outcome json = run_cli("show " + saved + " --format json");
  REQUIRE_MESSAGE(json.exit_code == 0, json.err);
  CHECK(json.out == slurp(saved));
  const Outcome table = run_cli("show " + saved + " --sort rate");
  REQUIRE_MESSAGE(table.exit_code == 0, table.err);
  CHECK(table.err.empty());
  for (const std::string& line : lines_in(table.out)) CHECK_MESSAGE(line.size() <= 120, line);
  CHECK(table.out.find("backend  ") != std::string::npos);
  CHECK(table.out.find("cpu/openblas") != std::string::npos);  // the vendor, added to the run
  const Outcome narrow = run_cli("show " + saved + " --columns backend,pass");
  REQUIRE_MESSAGE(narrow.exit_code == 0, narrow.err);
  CHECK(narrow.out.find("cpu/blis  ") != std::string::npos);
  CHECK(narrow.out.find("x vendor") == std::string::npos);
  for (const std::string& bad : {"show " + (folder / "missing.json").string(), "show " + saved + " --columns bogus",
                                 "show " + saved + " --sort speed", "show " + saved + " --wide --columns time",
                                 "show " + saved + " --size 64"}) {
    INFO(bad);
    const Outcome o = run_cli(bad);
    CHECK(o.exit_code == 2);
    CHECK(o.out.empty());
    CHECK(lines_in(o.err).size() == 1);
  }
  // A measuring run refuses an unknown sort key before it measures anything.
  const Outcome refused = run_cli("--size 1024 --filter cpu/gold --sort speed");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("unknown sort key 'speed'") != std::string::npos);
}
