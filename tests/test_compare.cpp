// matcompare compare: the verdict per row (pairs, ranges, the floor, failures, rows on one side only), the reader's
// refusals, and the command's contract (a run with itself flags nothing; --fail-on-regression's exit status; one
// line for a bad file).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../apps/run_comparison.hpp"
#include "test_cli_spawn.hpp"

namespace {

using json = nlohmann::ordered_json;

// A row measured in pairs with its vendor: median time, × vendor and its quartiles.
SavedRow paired(const std::string& backend, double ms, double vs, double q1, double q3) {
  SavedRow r;
  r.backend = backend;
  r.precision = "fp32";
  r.status = "ok";
  r.m = r.n = r.k = 1024;
  r.median_ms = ms;
  r.min_ms = ms * 0.9;
  r.max_ms = ms * 1.1;
  r.samples = 20;
  r.gflops = 2e-6 * 1024.0 * 1024 * 1024 / ms;
  r.vs_vendor = vs;
  r.vs_vendor_q1 = q1;
  r.vs_vendor_q3 = q3;
  r.vs_vendor_pairs = 20;
  r.verified = r.passed = true;
  return r;
}

// A vendor row: samples but no pairs.
SavedRow ranged(const std::string& backend, double ms, double low, double high) {
  SavedRow r = paired(backend, ms, 1, 0, 0);
  r.vs_vendor_pairs = 0;
  r.vs_vendor_q1 = r.vs_vendor_q3 = 0;
  r.min_ms = low;
  r.max_ms = high;
  return r;
}

SavedRun run_of(std::vector<SavedRow> rows, const std::string& machine = "GPU X") {
  SavedRun run;
  run.path = "x.json";
  run.machine = machine;
  run.rows = std::move(rows);
  return run;
}

const RowComparison& only_row(const Comparison& c) {
  REQUIRE(c.rows.size() == 1);
  return c.rows.front();
}

}  // namespace

TEST_CASE("pairs: a change beyond the floor whose x vendor quartiles do not overlap is flagged, in its direction") {
  const SavedRun base = run_of({paired("gpu/a", 1.0, 1.00, 0.99, 1.01)});
  const RowComparison slower = only_row(compare_runs(base, run_of({paired("gpu/a", 1.1, 0.90, 0.89, 0.91)}), 0.05));
  CHECK(slower.basis == NoiseBasis::pairs);
  CHECK(slower.verdict == Verdict::slower);
  CHECK(slower.change == doctest::Approx(1.0 / 0.9 - 1));
  CHECK(slower.time_change == doctest::Approx(0.1));
  CHECK(slower.regression);
  const RowComparison faster = only_row(compare_runs(base, run_of({paired("gpu/a", 0.9, 1.10, 1.09, 1.11)}), 0.05));
  CHECK(faster.verdict == Verdict::faster);
  CHECK_FALSE(faster.regression);
  // Overlapping quartiles: the same 10% change in the medians is within the noise.
  const RowComparison noisy = only_row(compare_runs(base, run_of({paired("gpu/a", 1.1, 0.90, 0.80, 1.00)}), 0.05));
  CHECK(noisy.verdict == Verdict::same);
  CHECK_FALSE(noisy.regression);
}

TEST_CASE("the judged change is the x vendor's where there are pairs: a machine that drifted as a whole is no change") {
  // Both the row and its vendor ran 20% slower in NEW: the time says +20%, the pairs say nothing moved.
  const Comparison c = compare_runs(run_of({paired("gpu/a", 1.0, 1.00, 0.99, 1.01)}),
                                    run_of({paired("gpu/a", 1.2, 1.00, 0.99, 1.01)}), 0.05);
  CHECK(only_row(c).time_change == doctest::Approx(0.2));
  CHECK(only_row(c).change == doctest::Approx(0.0));
  CHECK(only_row(c).verdict == Verdict::same);
}

TEST_CASE("a change under the floor is never flagged, however tight the spreads") {
  const double small = 1 + kMinFlaggedChange / 2;
  const Comparison c = compare_runs(run_of({paired("gpu/a", 1.0, 1.0, 0.9999, 1.0001)}),
                                    run_of({paired("gpu/a", small, 1 / small, 1 / small - 1e-4, 1 / small + 1e-4)}), 0);
  CHECK(only_row(c).verdict == Verdict::same);
  CHECK_FALSE(only_row(c).regression);
}

TEST_CASE("range: rows without pairs are judged by their sample times, and the threshold decides a regression") {
  const SavedRun base = run_of({ranged("gpu/vendor", 1.0, 0.98, 1.02)});
  const RowComparison apart = only_row(compare_runs(base, run_of({ranged("gpu/vendor", 1.1, 1.08, 1.12)}), 0.2));
  CHECK(apart.basis == NoiseBasis::range);
  CHECK(apart.verdict == Verdict::slower);
  CHECK(apart.change == doctest::Approx(0.1));
  CHECK_FALSE(apart.regression);  // 10% slower, under the 20% asked for
  const RowComparison overlapping = only_row(compare_runs(base, run_of({ranged("gpu/vendor", 1.1, 1.0, 1.2)}), 0));
  CHECK(overlapping.verdict == Verdict::same);
  // One sample, or an estimate: nothing to judge the noise by.
  SavedRow single = ranged("gpu/vendor", 2.0, 2.0, 2.0);
  single.samples = 1;
  CHECK(only_row(compare_runs(base, run_of({single}), 0)).basis == NoiseBasis::none);
  CHECK(only_row(compare_runs(base, run_of({single}), 0)).verdict == Verdict::same);
}

TEST_CASE("a row that fails where it passed is a regression whatever its time; rows on one side are listed") {
  SavedRow broken = paired("gpu/a", 0.5, 2.0, 1.9, 2.1);
  broken.passed = false;
  const Comparison c = compare_runs(run_of({paired("gpu/a", 1.0, 1.0, 0.99, 1.01), paired("gpu/gone", 1, 1, 1, 1)}),
                                    run_of({broken, paired("gpu/new", 1, 1, 1, 1)}), 0.5);
  REQUIRE(c.rows.size() == 3);
  CHECK(c.rows[0].verdict == Verdict::now_fails);
  CHECK(c.rows[0].regression);
  CHECK(c.rows[1].verdict == Verdict::only_in_base);
  CHECK(c.rows[2].verdict == Verdict::only_in_new);
  CHECK(c.regressions == 1);
  // And back.
  CHECK(only_row(compare_runs(run_of({broken}), run_of({paired("gpu/a", 1, 1, 1, 1)}), 0)).verdict ==
        Verdict::now_passes);
}

TEST_CASE("rows are matched by backend, shape, layout, alpha and beta") {
  SavedRow other_shape = paired("gpu/a", 1.0, 1.0, 0.99, 1.01);
  other_shape.layout = "TN";
  SavedRow other_beta = paired("gpu/a", 1.0, 1.0, 0.99, 1.01);
  other_beta.beta = 2;
  const Comparison c = compare_runs(run_of({paired("gpu/a", 1.0, 1.0, 0.99, 1.01)}), run_of({other_shape, other_beta}), 0);
  REQUIRE(c.rows.size() == 3);
  CHECK(c.rows[0].verdict == Verdict::only_in_base);
  CHECK(c.rows[1].verdict == Verdict::only_in_new);
  CHECK(c.rows[2].verdict == Verdict::only_in_new);
  CHECK(c.rows[1].shape == "1024x1024x1024 TN");
  CHECK_FALSE(compare_runs(run_of({}, "GPU X"), run_of({}, "GPU Y"), 0).same_machine);
}

namespace {

// A saved run as matcompare writes it, with the fields compare reads.
json saved_row(const std::string& backend, double ms, double vs, double q1, double q3, int pairs) {
  return {{"backend", backend}, {"device", "gpu"}, {"precision", "fp32"}, {"m", 256}, {"n", 256}, {"k", 256},
          {"alpha", 1.0}, {"beta", 0.0}, {"status", "ok"}, {"median_ms", ms}, {"min_ms", ms * 0.99},
          {"max_ms", ms * 1.01}, {"samples", 30}, {"gflops", 33.5 / ms}, {"vs_vendor", vs},
          {"vs_vendor_q1", pairs ? json(q1) : json(nullptr)}, {"vs_vendor_q3", pairs ? json(q3) : json(nullptr)},
          {"vs_vendor_pairs", pairs}, {"passed", true}};
}

std::string write_run(const std::string& name, const json& rows) {
  const json doc = {{"context", {{"git_commit", "abc1234"}, {"hostname", "h"}, {"cpu_model", "CPU Z"}}},
                    {"results", rows}};
  std::ofstream(name) << doc.dump(2);
  return name;
}

}  // namespace

TEST_CASE("the command: a run against itself flags nothing; --fail-on-regression exits 5 on a slower row") {
  const auto folder = cli_test::empty_folder("compare_cli");
  const std::string base = write_run((folder / "base.json").string(),
                                     json::array({saved_row("gpu/cublas-fp32", 1.0, 1.0, 0, 0, 0),
                                                  saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30)}));
  const std::string slower = write_run((folder / "new.json").string(),
                                       json::array({saved_row("gpu/cublas-fp32", 1.0, 1.0, 0, 0, 0),
                                                    saved_row("gpu/simt-tuned", 1.25, 0.8, 0.79, 0.81, 30)}));
  const auto itself = cli_test::run_cli({"compare", base, base, "--fail-on-regression", "0"});
  CHECK(itself.exit_code == 0);
  CHECK(itself.err.empty());
  CHECK(itself.out.find("2 rows: 0 faster, 0 slower beyond the noise; 0 regressions") != std::string::npos);
  CHECK(itself.out.find("slower") == itself.out.find("slower beyond"));  // no row says slower
  const auto regressed = cli_test::run_cli({"compare", base, slower, "--fail-on-regression", "10"});
  CHECK(regressed.exit_code == 5);
  CHECK(regressed.out.find("slower (regression)") != std::string::npos);
  CHECK(regressed.out.find("+25.0%") != std::string::npos);
  // Over the threshold asked for: no regression, exit 0; without the option, exit 0 too.
  CHECK(cli_test::run_cli({"compare", base, slower, "--fail-on-regression", "30"}).exit_code == 0);
  CHECK(cli_test::run_cli({"compare", base, slower}).exit_code == 0);
}

TEST_CASE("the comparison's table fits 120 columns with a long backend name, a suite's widest shape and tiny ratios") {
  SavedRow row = paired("gpu/tensor-core-tf32-ws", 53320.0, 0.000732, 0.000731, 0.000733);
  row.m = 16384;
  row.n = 128256;
  row.k = 8192;
  row.layout = "NT";
  // And a fast row in both runs, slower beyond the noise by a regression's margin, with its spreads.
  SavedRow before = paired("gpu/tensor-core-3xtf32", 324.3, 0.925, 0.921, 0.929), after = before;
  before.m = after.m = row.m;
  before.n = after.n = row.n;
  before.k = after.k = row.k;
  before.layout = after.layout = row.layout;
  after.median_ms = 398.1;
  after.vs_vendor = 0.812;
  after.vs_vendor_q1 = 0.801;
  after.vs_vendor_q3 = 0.823;
  const SavedRun base = run_of({row, before}), next = run_of({after});
  std::ostringstream out;
  write_comparison(out, base, next, compare_runs(base, next, 0.05), 0.05);
  CHECK(out.str().find("slower (regression)") != std::string::npos);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    const auto columns = std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; });
    CHECK_MESSAGE(columns <= 120, line);
  }
}

TEST_CASE("a run written before layouts existed (no layout field) matches a new run's NN rows") {
  const auto folder = cli_test::empty_folder("compare_old_new");
  const std::string old_run = write_run((folder / "old.json").string(),
                                        json::array({saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30)}));
  json row = saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30);
  row["layout"] = "NN";
  const std::string new_run = write_run((folder / "new.json").string(), json::array({row}));
  const auto o = cli_test::run_cli({"compare", old_run, new_run});
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("1 rows: 0 faster, 0 slower beyond the noise") != std::string::npos);
  CHECK(o.out.find("only in") == std::string::npos);
  CHECK(o.out.find("within noise") != std::string::npos);
}

TEST_CASE("runs saved before pair quartiles and --budget (no vs_vendor_pairs, a 'skipped' row) still compare") {
  const auto folder = cli_test::empty_folder("compare_oldest");
  json row = saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30);
  for (const char* key : {"vs_vendor_q1", "vs_vendor_q3", "vs_vendor_pairs"}) row.erase(key);
  json skipped = saved_row("cpu/gold", 1.0, 1.0, 0.99, 1.01, 30);
  skipped["status"] = "skipped";
  const std::string old_run = write_run((folder / "old.json").string(), json::array({row, skipped}));
  const std::string new_run =
      write_run((folder / "new.json").string(), json::array({saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30)}));
  const auto o = cli_test::run_cli({"compare", old_run, new_run});
  INFO(o.err);
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("within noise") != std::string::npos);
}

TEST_CASE("load_saved_run keeps each field a comparison reads, from the file's own key") {
  const auto folder = cli_test::empty_folder("compare_fields");
  json row = saved_row("gpu/simt-tuned", 2.0, 1.5, 1.25, 1.75, 12);
  row["layout"] = "TN";
  row["min_ms"] = 1.5;
  row["max_ms"] = 3.0;
  row["samples"] = 7;
  row["passed"] = false;
  const SavedRun run = load_saved_run(write_run((folder / "one.json").string(), json::array({row})));
  REQUIRE(run.rows.size() == 1);
  const SavedRow& r = run.rows[0];
  CHECK(run.git_commit == "abc1234");
  CHECK(run.machine == "CPU Z");
  CHECK(r.backend == "gpu/simt-tuned");
  CHECK(r.status == "ok");
  CHECK(r.layout == "TN");
  CHECK(r.median_ms == 2.0);
  CHECK(r.min_ms == 1.5);
  CHECK(r.max_ms == 3.0);
  CHECK(r.samples == 7);
  CHECK(r.gflops == doctest::Approx(33.5 / 2.0));
  CHECK(r.vs_vendor == 1.5);
  CHECK(r.vs_vendor_q1 == 1.25);
  CHECK(r.vs_vendor_q3 == 1.75);
  CHECK(r.vs_vendor_pairs == 12);
  CHECK(r.verified);
  CHECK_FALSE(r.passed);
}

TEST_CASE("the command: a bad or foreign file is one line naming the file and the field, exit 2, nothing on stdout") {
  const auto folder = cli_test::empty_folder("compare_bad");
  const std::string good = write_run((folder / "good.json").string(),
                                     json::array({saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30)}));
  json no_time = saved_row("gpu/simt-tuned", 1.0, 1.0, 0.99, 1.01, 30);
  no_time["median_ms"] = "fast";
  const std::string bad_field = write_run((folder / "field.json").string(), json::array({no_time}));
  std::ofstream(folder / "text.json") << "not json";
  std::ofstream(folder / "gbench.json") << R"({"context": {}, "benchmarks": []})";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"compare", good, bad_field}, "field.json: results[0].median_ms must be a number or null"},
      {{"compare", good, (folder / "text.json").string()}, "text.json: is not a JSON run of matcompare"},
      {{"compare", (folder / "gbench.json").string(), good}, "gbench.json: is not a JSON run of matcompare"},
      {{"compare", good, (folder / "missing.json").string()}, "missing.json: cannot be read"},
      {{"compare", good}, "files: At least 2 required but received 1"},
      {{"compare", good, good, "--fail-on-regression", "-1"}, "--fail-on-regression"},
      {{"--size", "64", "compare", good, good}, "--size does nothing with matcompare compare"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const auto o = cli_test::run_cli(args);
    CHECK(o.exit_code == 2);
    CHECK(o.out.empty());
    CHECK(cli_test::count_lines(o.err) == 1);
    CHECK(o.err.find(message) != std::string::npos);
  }
}

TEST_CASE("the table prints each run's spread on the basis the verdict used, beside the change") {
  const SavedRun base = run_of({paired("gpu/a", 1.0, 1.00, 0.99, 1.01), ranged("gpu/v", 1.0, 0.9, 1.1)});
  const SavedRun next = run_of({paired("gpu/a", 1.1, 0.90, 0.89, 0.91), ranged("gpu/v", 1.0, 0.95, 1.05)});
  std::ostringstream out;
  write_comparison(out, base, next, compare_runs(base, next, -1), -1);
  const std::string text = out.str();
  // Half the pairs' interquartile range in % of x vendor: 0.01 / 1.00 and 0.01 / 0.90.
  CHECK(text.find("±1.0/1.1%") != std::string::npos);
  // Half the [fastest, slowest] times in % of the median: 0.1 / 1.0 and 0.05 / 1.0.
  CHECK(text.find("±10/5.0%") != std::string::npos);
  CHECK(text.find("spread: half of each of those ranges") != std::string::npos);
}
