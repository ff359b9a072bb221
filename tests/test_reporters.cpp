// Golden tests of the result reporters (table, md, csv, json) on a hand-built run: every field of every row holds
// its own value, each value is read back from its named column (table, md, csv) or key (json) and compared
// exactly, and an estimate is marked in each format where its own figures are, not merely somewhere in the output.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "matcompare/registry.hpp"
#include "matcompare/reporters.hpp"

namespace {

using namespace matcompare;
using nlohmann::json;

// One backend per kind of row.
const std::string kOk = "cpu/tiling";             // measured in full, with a reason that holds " ~"
const std::string kVendor = "cpu/openblas";       // the CPU's vendor row
const std::string kEstimated = "cpu/gold";        // one full run did not fit: extrapolated from rows 0-95
const std::string kFailed = "cpu/broken";         // verified and wrong; holds stale figures it must not show
const std::string kCrashed = "cpu/crashing";      // failed before verification
const std::string kUnavailable = "gpu/cublas-fp32";
const std::string kMulti = "gpu/cublasxt-fp32";   // two GPUs, host-resident, verified on a sample

// What the estimate's reason says, as the harness words it: its " ~12.3 s" alone would satisfy a search of the whole
// output for " ~", marked figures or not.
const std::string kEstimateReason =
    "estimate from rows 0-95 of 4096 (3 runs, median 578.3 ms, verified) plus 2.87 ms per further row: one full run "
    "~12.3 s (planned from the trial at ~11.5 s, too long for its budget of 3.12 s)";
const std::string kOkReason = "6 compute and 5 end-to-end samples of 7 fit its budget of 4.5 s (one run ~0.00125 s)";
const std::string kFailedReason = "differs from the float64 reference: blas ratio 4.1e+03 > 260";
const std::string kCrashedReason = "worker exited with status 1 | stderr: cublasMpInit failed";
const std::string kUnavailableReason = "no NVIDIA GPU or driver on this machine";
const std::string kSample = "64 rows of 8192, evenly spread from row 0 to row 8191 (floor(s*(M-1)/63))";

BackendInfo backend(const std::string& name, DeviceKind device, const std::string& seed) {
  BackendInfo b;
  b.name = name;
  b.device = device;
  b.seed = seed;
  b.idea = "the idea of " + name;
  return b;
}

std::vector<BenchmarkResult> hand_built_results() {
  std::vector<BenchmarkResult> results;
  const GemmShape small{512, 384, 256};

  BenchmarkResult ok;
  ok.backend = backend(kOk, DeviceKind::cpu, "001 tiling");
  ok.shape = small;
  ok.shape.layout = Layout::tn;  // A stored transposed: the layout travels into every format
  ok.alpha = 0.5f;
  ok.beta = 2.0f;
  ok.status = Status::ok;
  ok.reason = kOkReason;
  ok.compute = {1.25, 1.0, 2.0, 0.0625, 6};
  ok.total = {3.5, 3.0, 4.0, 0.125, 5};
  ok.gflops = 80.5;
  ok.vs_vendor = 0.86;
  ok.vs_vendor_q1 = 0.81;
  ok.vs_vendor_q3 = 0.93;
  ok.vs_vendor_pairs = 9;
  ok.vs_precision_vendor = 0.77;
  ok.vs_best_vendor = 0.62;
  ok.best_vendor = "cpu/vendor-fast";
  ok.vs_best_vendor_pairs = 7;
  ok.kernel = "algo 7, tile 128x64";
  ok.clock_mhz = 1755;
  ok.clock_max_mhz = 1980;
  ok.throttled_rounds = 3;
  ok.estimated_run_s = 0.00125;
  ok.budget_s = 4.5;
  ok.spent_s = 2.25;
  ok.errors = {0.00390625, 0.046875, 0.000122, 0.3, true, true};
  ok.verified = true;
  ok.verified_rows = 512;
  results.push_back(ok);

  BenchmarkResult vendor;
  vendor.backend = backend(kVendor, DeviceKind::cpu, "003 BLAS");
  vendor.backend.vendor = vendor.backend.precision_vendor = true;
  vendor.shape = small;
  vendor.alpha = 0.5f;
  vendor.beta = 2.0f;
  vendor.status = Status::ok;
  vendor.compute = {0.5, 0.45, 0.55, 0.03, 8};
  vendor.total = {2.75, 2.5, 3.25, 0.05, 7};
  vendor.gflops = 201.3;
  vendor.vs_vendor = 1.0;
  vendor.vs_vendor_q1 = 0.98;
  vendor.vs_vendor_q3 = 1.02;
  vendor.vs_vendor_pairs = 8;
  vendor.vs_precision_vendor = 1.0;
  vendor.estimated_run_s = 0.0006;
  vendor.budget_s = 5.5;
  vendor.spent_s = 1.75;
  vendor.errors = {0.0009765625, 0.015625, 0.0000305, 0.2, true, true};
  vendor.verified = true;
  vendor.verified_rows = 512;
  results.push_back(vendor);

  // As the harness leaves an estimate: min, max, cv and the end-to-end times unset, no pairs.
  BenchmarkResult estimate;
  estimate.backend = backend(kEstimated, DeviceKind::cpu, "003 Gold; 004 ijk");
  estimate.shape = {4096, 4096, 4096};
  estimate.status = Status::estimated;
  estimate.reason = kEstimateReason;
  estimate.compute = {12345.6, 0, 0, 0, 3};
  estimate.gflops = 11.1;
  estimate.vs_vendor = 0.021;
  estimate.vs_precision_vendor = 0.034;
  estimate.vs_best_vendor = 0.027;
  estimate.best_vendor = "cpu/vendor-fast";
  estimate.estimated_run_s = 11.5;
  estimate.estimate_rows = 96;
  estimate.estimate_subset_ms = 578.25;
  estimate.estimate_ms_per_row = 2.87;
  estimate.budget_s = 3.125;
  estimate.spent_s = 3.0625;
  estimate.errors = {0.0078125, 0.125, 0.00025, 0.45, true, true};
  estimate.verified = true;
  estimate.verified_rows = 96;
  results.push_back(estimate);

  // Wrong, and holding figures from before it failed: a failed row shows none of them.
  BenchmarkResult failed;
  failed.backend = backend(kFailed, DeviceKind::cpu, "001 broken");
  failed.shape = small;
  failed.status = Status::failed;
  failed.reason = kFailedReason;
  failed.compute = {9.75, 9.5, 10.25, 0.02, 4};
  failed.total = {11.5, 11.25, 12.0, 0.03, 4};
  failed.gflops = 6.9;
  failed.vs_vendor = 0.05;
  failed.vs_vendor_q1 = 0.04;
  failed.vs_vendor_q3 = 0.06;
  failed.vs_vendor_pairs = 4;
  failed.vs_precision_vendor = 0.055;
  failed.clock_mhz = 1500;
  failed.clock_max_mhz = 1980;
  failed.estimated_run_s = 0.0095;
  failed.budget_s = 2.5;
  failed.spent_s = 0.5;
  failed.errors = {3.0, 1536.0, 0.5, 4100.0, true, false};
  failed.verified = true;
  failed.verified_rows = 512;
  results.push_back(failed);

  BenchmarkResult crashed;
  crashed.backend = backend(kCrashed, DeviceKind::cpu, "002 crash");
  crashed.shape = small;
  crashed.status = Status::failed;
  crashed.reason = kCrashedReason;
  crashed.budget_s = 1.5;
  crashed.spent_s = 0.25;
  results.push_back(crashed);

  BenchmarkResult unavailable;
  unavailable.backend = backend(kUnavailable, DeviceKind::gpu, "000 cuBLAS");
  unavailable.backend.vendor = unavailable.backend.precision_vendor = true;
  unavailable.shape = small;
  unavailable.status = Status::unavailable;
  unavailable.reason = kUnavailableReason;
  unavailable.devices = 1;
  results.push_back(unavailable);

  // cuBLASXt: its compute is end to end, so its total is its compute (as the harness sets it).
  BenchmarkResult multi;
  multi.backend = backend(kMulti, DeviceKind::gpu, "multi-GPU");
  multi.backend.multi_gpu = multi.backend.host_resident = true;
  multi.shape = {8192, 8192, 8192};
  multi.status = Status::ok;
  multi.compute = multi.total = {2400.0, 2350.0, 2475.0, 0.015, 3};
  multi.gflops = 458.1;
  multi.vs_vendor = 0.92;
  multi.vs_vendor_q1 = 0.9;
  multi.vs_vendor_q3 = 0.95;
  multi.vs_vendor_pairs = 3;
  multi.vs_precision_vendor = 0.91;
  multi.estimated_run_s = 2.2;
  multi.budget_s = 30.5;
  multi.spent_s = 12.25;
  multi.errors = {0.5, 2048.0, 0.0000004, 0.7, true, true};
  multi.verified = true;
  multi.verified_rows = 64;
  multi.verification_sample = kSample;
  multi.devices = 2;
  multi.speedup = 1.6;
  multi.efficiency = 0.8;
  multi.speedup_basis = "end-to-end";
  results.push_back(multi);
  return results;
}

RunContext hand_built_context(bool with_gpu) {
  RunContext c;
  c.matcompare_version = "1.2.3";
  c.git_commit = "abc1234";
  c.build_type = "Release";
  c.cxx_compiler = "GNU 13.2.0";
  c.hostname = "host-x";
  c.cpu_model = "Test CPU 9000";
  c.cpu_cores = 12;
  c.omp_threads = 6;
  c.openblas_config = "OpenBLAS 0.3.26 DYNAMIC_ARCH";
  c.openblas_core = "SkylakeX";
  c.openblas_parallel = "pthreads";
  c.openblas_threads = 5;
  c.cpu_blis = "avx512 12x32, KC 512 MC 252 NC 4096";
  c.host_cache_policy = "flush 64 MiB";
  c.thread_waits = "GOMP_SPINCOUNT=10000 OPENBLAS_THREAD_TIMEOUT=20";
  c.gpu_unavailable_reason = kUnavailableReason;
  if (with_gpu) {
    GpuContext g;
    g.index = 1;
    g.name = "NVIDIA Test GPU";
    g.compute_capability = "9.0";
    g.multiprocessors = 132;
    g.l2_mib = 50;
    g.memory_gib = 79.5;
    g.sm_clock_max_mhz = 1980;
    g.sm_clock_observed_mhz = 1755;
    g.memory_clock_max_mhz = 2619;
    g.memory_bus_bits = 5120;
    g.driver_version = "13.0";
    g.runtime_version = "12.9";
    g.cublas_version = "12.9.1";
    g.cache_policy = "flush L2";
    g.pci_bus_id = "0000:18:00.0";
    c.gpu = g;
    c.gpu_unavailable_reason = "";
    c.gpus = {g};
    c.multi_gpu_devices = {1};
    c.cublasxt_block_dim = 8192;
    c.cublasmp = "cuBLASMp 0.4.0";
  }
  Peak cpu;
  cpu.device = DeviceKind::cpu;
  cpu.name = c.cpu_model;
  cpu.fp32_gflops = 500;
  cpu.bandwidth_gbs = 20;
  cpu.basis = "measured, for the test";
  c.peaks.push_back(cpu);
  if (with_gpu) c.peaks.push_back(gpu_peak(*c.gpu));
  c.options.repetitions = 7;
  c.options.min_time_s = 0.125;
  c.options.time_limit_s = 17;
  c.options.budget_s = 33;
  c.run_s = 41.5;
  c.options.seed = 4242;
  c.options.input_values = InputValues::reals_1_100;
  c.command_line = "matcompare --sizes 512 --budget 33";
  c.timestamp_utc = "2026-01-02T03:04:05Z";
  return c;
}

std::string render(Format format, const RunContext& context = hand_built_context(false)) {
  std::ostringstream out;
  write_results(out, format, context, hand_built_results());
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(' ') - begin + 1);
}

// A table read back: its header and rows of cells, a cell found by the row's backend and the column's name.
struct Grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw std::runtime_error("no column named '" + name + "'");
  }
  const std::vector<std::string>& row(const std::string& backend) const {
    const std::size_t key = column("backend");
    for (const auto& r : rows)
      if (r.size() > key && r[key] == backend) return r;
    throw std::runtime_error("no row for " + backend);
  }
  std::string cell(const std::string& backend, const std::string& name) const { return row(backend).at(column(name)); }
  std::vector<std::string> backends() const {
    std::vector<std::string> names;
    for (const auto& r : rows) names.push_back(r.at(column("backend")));
    return names;
  }
};

// The terminal table: the header is the line that starts with "backend", the rows run to the first empty line.
// Cells are separated by two spaces or more and hold none themselves; names and words start where their header
// starts, numbers end where theirs ends.
Grid parse_table(const std::string& text, const std::vector<std::string>& numeric) {
  const auto lines = lines_of(text);
  std::size_t h = 0;
  while (h < lines.size() && lines[h].rfind("backend  ", 0) != 0) ++h;
  REQUIRE_MESSAGE(h < lines.size(), "no header line in\n", text);
  struct Token {
    std::size_t start, end;
    std::string text;
  };
  auto tokens = [](const std::string& line) {
    std::vector<Token> found;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && line[i] == ' ') ++i;
      if (i >= line.size()) break;
      std::size_t end = i;
      while (end < line.size() && !(line[end] == ' ' && (end + 1 >= line.size() || line[end + 1] == ' '))) ++end;
      found.push_back({i, end, line.substr(i, end - i)});
      i = end;
    }
    return found;
  };
  const std::vector<Token> head = tokens(lines[h]);
  Grid grid;
  for (const Token& t : head) grid.header.push_back(t.text);
  for (std::size_t l = h + 1; l < lines.size() && !lines[l].empty(); ++l) {
    const std::vector<Token> cells = tokens(lines[l]);
    REQUIRE_MESSAGE(cells.size() == head.size(), "cells of '", lines[l], "' do not match the header");
    std::vector<std::string> row;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool right = std::find(numeric.begin(), numeric.end(), head[c].text) != numeric.end();
      if (right)
        CHECK_MESSAGE(cells[c].end == head[c].end, "column ", head[c].text, " not right-aligned in: ", lines[l]);
      else
        CHECK_MESSAGE(cells[c].start == head[c].start, "column ", head[c].text, " not left-aligned in: ", lines[l]);
      row.push_back(cells[c].text);
    }
    grid.rows.push_back(row);
  }
  return grid;
}

// "| a | b\|c |" -> {"a", "b|c"}
std::vector<std::string> md_cells(const std::string& line) {
  REQUIRE_MESSAGE(line.size() >= 2, line);
  CHECK_MESSAGE(line.back() == '|', line);
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// The Markdown table: the first line that starts with "|" is the header, the next the rule (numbers right-aligned),
// then the rows.
Grid parse_markdown(const std::string& text, const std::vector<std::string>& numeric) {
  Grid grid;
  std::vector<std::string> table;
  for (const auto& line : lines_of(text))
    if (line.rfind("|", 0) == 0) table.push_back(line);
  REQUIRE_MESSAGE(table.size() >= 2, "no table in\n", text);
  grid.header = md_cells(table[0]);
  std::string rule = "|";
  for (const std::string& h : grid.header)
    rule += std::find(numeric.begin(), numeric.end(), h) != numeric.end() ? "---:|" : "---|";
  CHECK(table[1] == rule);
  for (std::size_t i = 2; i < table.size(); ++i) {
    grid.rows.push_back(md_cells(table[i]));
    CHECK_MESSAGE(grid.rows.back().size() == grid.header.size(), table[i]);
  }
  return grid;
}

// RFC 4180: fields separated by commas, quoted when they hold a comma, a quote or a newline, quotes doubled.
Grid parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records{{}};
  std::string field;
  bool quoted = false, at_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch == '"' && at_start) {
      quoted = true;
      at_start = false;
    } else if (ch == ',' || ch == '\n') {
      records.back().push_back(field);
      field.clear();
      at_start = true;
      if (ch == '\n') records.emplace_back();
    } else {
      field += ch;
      at_start = false;
    }
  }
  CHECK_MESSAGE(!quoted, "an unterminated quote");
  CHECK_MESSAGE((field.empty() && records.back().empty()), "the last line does not end with a newline");
  records.pop_back();
  REQUIRE(!records.empty());
  Grid grid;
  grid.header = records.front();
  for (std::size_t i = 1; i < records.size(); ++i) {
    CHECK_MESSAGE(records[i].size() == grid.header.size(), "record ", i, " has ", records[i].size(), " fields");
    grid.rows.push_back(records[i]);
  }
  return grid;
}

const json& result_of(const json& document, const std::string& backend) {
  for (const json& r : document.at("results"))
    if (r.at("backend") == backend) return r;
  throw std::runtime_error("no result for " + backend);
}

// Every result, in run order, as csv, json and gbench list them.
const std::vector<std::string> kOrder = {kOk, kVendor, kEstimated, kFailed, kCrashed, kUnavailable, kMulti};

// The measured rows, in run order: the unavailable one is not a row but a line under the table.
const std::vector<std::string> kRows = {kOk, kVendor, kEstimated, kFailed, kCrashed, kMulti};

// The headers of right-aligned columns.
const std::vector<std::string> kNumeric = {"GPUs", "time", "noise", "end-to-end", "GFLOP/s", "TFLOP/s", "% peak",
                                           "x vendor", "IQR", "quartiles", "x prec. vendor", "x best", "speedup",
                                           "efficiency", "max abs err", "sum abs err", "rel err", "BLAS ratio"};

// The figure columns: an estimate's carry "~", nobody else's do.
const std::vector<std::string> kFigureColumns = {"time", "end-to-end", "GFLOP/s", "% peak", "x vendor", "quartiles",
                                                 "x prec. vendor", "x best", "speedup", "efficiency"};

std::string render_table(Format format, const RunContext& context, const std::vector<std::string>& columns) {
  std::ostringstream out;
  TableOptions table;
  table.columns = columns;
  write_results(out, format, context, hand_built_results(), table);
  return out.str();
}

Grid read_back(Format format, const std::vector<std::string>& columns = table_columns(),
               const RunContext& context = hand_built_context(false)) {
  const std::string text = render_table(format, context, columns);
  return format == Format::table ? parse_table(text, kNumeric) : parse_markdown(text, kNumeric);
}

// Table and Markdown show the same cells (docs/cli.md: "Table columns"); every column shown (wide).
void check_text_cells(const Grid& g, const char* format) {
  INFO("format: ", format);
  CHECK(g.backends() == kRows);

  // Measured in full: each figure in its own column, none marked.
  CHECK(g.cell(kOk, "device") == "cpu");
  CHECK(g.cell(kOk, "precision") == "fp32");
  CHECK(g.cell(kOk, "GPUs") == "-");
  CHECK(g.cell(kOk, "shape") == "512x384x256 TN");
  CHECK(g.cell(kOk, "time") == "1.25 ms");  // the compute median, not min (1.0), max (2.0) or end to end (3.5)
  CHECK(g.cell(kOk, "noise") == "6.2%");    // its coefficient of variation, 0.0625
  CHECK(g.cell(kOk, "end-to-end") == "3.50 ms");  // upload + compute + download, not its minimum (3.0)
  CHECK(g.cell(kOk, "GFLOP/s") == "80.5");
  CHECK(g.cell(kOk, "% peak") == "16");      // of the CPU's 500 GFLOP/s
  CHECK(g.cell(kOk, "x vendor") == "0.860");
  CHECK(g.cell(kOk, "IQR") == "7.0%");       // (0.93 - 0.81) / 2 / 0.86
  CHECK(g.cell(kOk, "quartiles") == "0.810-0.930");
  CHECK(g.cell(kOk, "x prec. vendor") == "0.770");
  CHECK(g.cell(kOk, "x best") == "0.620");
  CHECK(g.cell(kOk, "best vendor") == "cpu/vendor-fast");
  CHECK(g.cell(kOk, "speedup") == "-");
  CHECK(g.cell(kOk, "efficiency") == "-");
  CHECK(g.cell(kOk, "max abs err") == "3.9e-03");
  CHECK(g.cell(kOk, "sum abs err") == "4.7e-02");
  CHECK(g.cell(kOk, "rel err") == "1.2e-04");
  CHECK(g.cell(kOk, "BLAS ratio") == "0.300");
  CHECK(g.cell(kOk, "pass") == "yes");
  CHECK(g.cell(kOk, "kernel") == "algo 7, tile 128x64");
  CHECK(g.cell(kOk, "notes") == "1");

  CHECK(g.cell(kVendor, "time") == "500 us");
  CHECK(g.cell(kVendor, "end-to-end") == "2.75 ms");
  CHECK(g.cell(kVendor, "GFLOP/s") == "201");
  CHECK(g.cell(kVendor, "% peak") == "40");
  CHECK(g.cell(kVendor, "x vendor") == "1.00");
  CHECK(g.cell(kVendor, "IQR") == "2.0%");
  CHECK(g.cell(kVendor, "pass") == "yes");
  CHECK(g.cell(kVendor, "kernel") == "-");
  CHECK(g.cell(kVendor, "notes") == "-");
  CHECK(g.cell(kVendor, "x best") == "-");  // none was set: no vendor library of its precision ran

  // The estimate: its figures marked in their own cells, no noise, end-to-end time or pair spread.
  CHECK(g.cell(kEstimated, "shape") == "4096x4096x4096");
  CHECK(g.cell(kEstimated, "time") == "~12.3 s");
  CHECK(g.cell(kEstimated, "noise") == "-");
  CHECK(g.cell(kEstimated, "end-to-end") == "-");
  CHECK(g.cell(kEstimated, "GFLOP/s") == "~11.1");
  CHECK(g.cell(kEstimated, "% peak") == "~2.2");
  CHECK(g.cell(kEstimated, "x vendor") == "~0.0210");
  CHECK(g.cell(kEstimated, "IQR") == "-");
  CHECK(g.cell(kEstimated, "quartiles") == "-");
  CHECK(g.cell(kEstimated, "x prec. vendor") == "~0.0340");
  CHECK(g.cell(kEstimated, "x best") == "~0.0270");
  CHECK(g.cell(kEstimated, "best vendor") == "cpu/vendor-fast");
  CHECK(g.cell(kEstimated, "max abs err") == "7.8e-03");  // errors are measured, on rows 0-95: not marked
  CHECK(g.cell(kEstimated, "BLAS ratio") == "0.450");
  CHECK(g.cell(kEstimated, "pass") == "yes");
  CHECK(g.cell(kEstimated, "notes") == "2");
  for (const std::string& backend : kRows) {
    if (backend == kEstimated) continue;
    for (const std::string& column : kFigureColumns)
      CHECK_MESSAGE(g.cell(backend, column).find('~') == std::string::npos, backend, " ", column, " is marked");
  }

  // Failed: none of the figures it holds, its errors and "NO"; failed before verification: "-".
  for (const std::string& column : {"time", "noise", "end-to-end", "GFLOP/s", "% peak", "x vendor", "IQR",
                                    "quartiles", "x prec. vendor", "x best"})
    CHECK_MESSAGE(g.cell(kFailed, column) == "-", column);
  CHECK(g.cell(kFailed, "max abs err") == "3.0e+00");
  CHECK(g.cell(kFailed, "sum abs err") == "1.5e+03");
  CHECK(g.cell(kFailed, "rel err") == "5.0e-01");
  CHECK(g.cell(kFailed, "BLAS ratio") == "4100");
  CHECK(g.cell(kFailed, "pass") == "NO");
  CHECK(g.cell(kFailed, "notes") == "3");
  for (const std::string& column : kFigureColumns) CHECK_MESSAGE(g.cell(kCrashed, column) == "-", column);
  CHECK(g.cell(kCrashed, "pass") == "-");
  CHECK(g.cell(kCrashed, "notes") == "4");

  CHECK(g.cell(kMulti, "GPUs") == "2");
  CHECK(g.cell(kMulti, "time") == "2.40 s");
  CHECK(g.cell(kMulti, "end-to-end") == "2.40 s");
  CHECK(g.cell(kMulti, "GFLOP/s") == "458");
  CHECK(g.cell(kMulti, "% peak") == "-");  // no GPU peak in this context
  CHECK(g.cell(kMulti, "quartiles") == "0.900-0.950");
  CHECK(g.cell(kMulti, "speedup") == "1.60");
  CHECK(g.cell(kMulti, "efficiency") == "0.800");
  CHECK(g.cell(kMulti, "notes") == "5,6,7");
}

// The footnotes and the grouped rows that did not run, in order, after the table.
std::vector<std::string> expected_notes() {
  return {"[1] " + kOkReason,
          "[2] estimated: " + kEstimateReason,
          "[3] failed: " + kFailedReason,
          "[4] failed: " + kCrashedReason,
          "[5] end to end by nature: its matrices stay in host memory",
          "[6] on 2 GPUs: 1.60x one GPU's cuBLAS (end-to-end time), efficiency 0.800",
          "[7] verified on " + kSample,
          "Not run (1 backend): " + kUnavailable + " on 512x384x256: " + kUnavailableReason};
}

// Lines of the text after the table, continuation lines (indented) joined to the line they continue.
std::vector<std::string> joined_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> joined;
  for (const std::string& line : lines) {
    if (!joined.empty() && !joined.back().empty() && line.rfind("  ", 0) == 0)
      joined.back() += " " + trim(line);
    else
      joined.push_back(line);
  }
  return joined;
}

// The context lines both text formats open with, in order, each a whole line (after md's "> ").
std::vector<std::string> context_lines(bool with_gpu) {
  std::vector<std::string> lines = {
      "matcompare 1.2.3 (abc1234, Release) on host-x",
      "CPU: Test CPU 9000, 12 logical cores, OpenMP threads 6; OpenBLAS 0.3.26 DYNAMIC_ARCH (SkylakeX, pthreads, 5 "
      "threads); cpu/blis avx512 12x32, KC 512 MC 252 NC 4096"};
  if (with_gpu) {
    lines.push_back("GPU 1: NVIDIA Test GPU (sm 9.0, 132 SMs, SM clock 1755 MHz seen / 1980 max; driver 13.0, runtime "
                    "12.9, cuBLAS 12.9.1)");
    lines.push_back("Multi-GPU: cuBLASXt tile 8192; cuBLASMp 0.4.0");
  } else {
    lines.push_back("GPU: none (" + kUnavailableReason + ")");
  }
  lines.push_back("CPU peak: FP32 500 GFLOP/s, memory 20.0 GB/s (measured, for the test)");
  if (with_gpu)
    lines.push_back("GPU peak: FP32 66908 GFLOP/s, TF32 535265 GFLOP/s, memory 3352 GB/s (" +
                    gpu_peak(*hand_built_context(true).gpu).basis + ")");
  lines.push_back("Inputs: reals uniform in [1, 100] (source document 003), seed 4242");
  return lines;
}

}  // namespace

TEST_CASE("parse_format: the five names and markdown's long one; anything else is refused") {
  CHECK(parse_format("table") == Format::table);
  CHECK(parse_format("md") == Format::markdown);
  CHECK(parse_format("markdown") == Format::markdown);
  CHECK(parse_format("csv") == Format::csv);
  CHECK(parse_format("json") == Format::json);
  CHECK(parse_format("gbench") == Format::gbench);
  CHECK_THROWS_AS(parse_format("JSON"), std::invalid_argument);
  CHECK_THROWS_AS(parse_format(""), std::invalid_argument);
}

TEST_CASE("table: every value in its named column, numbers right-aligned; an estimate's figures carry ~ in their own cells") {
  check_text_cells(read_back(Format::table), "table");
}

TEST_CASE("markdown: every value in its named column; an estimate's figures carry ~ in their own cells") {
  const Grid g = read_back(Format::markdown);
  CHECK(g.header == read_back(Format::table).header);
  check_text_cells(g, "md");
}

TEST_CASE("the default columns are the documented few, in table order; --columns picks, wide shows all") {
  CHECK(default_table_columns() == std::vector<std::string>{"backend", "shape", "time", "noise", "rate", "peak",
                                                            "vendor", "iqr", "best", "rel-err", "pass", "notes"});
  const Grid g = read_back(Format::table, {});
  CHECK(g.header == std::vector<std::string>{"backend", "shape", "time", "noise", "GFLOP/s", "% peak", "x vendor",
                                             "IQR", "x best", "rel err", "pass", "notes"});
  CHECK(parse_table_columns("pass,backend") == std::vector<std::string>{"backend", "pass"});
  CHECK(parse_table_columns("wide") == table_columns());
  CHECK_THROWS_WITH_AS(parse_table_columns("backend,bogus"), doctest::Contains("unknown column 'bogus'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_table_columns("time,time"), doctest::Contains("'time' twice"), std::invalid_argument);
  CHECK_THROWS_AS(parse_table_columns("time,"), std::invalid_argument);
  for (const std::vector<std::string>& columns : std::vector<std::vector<std::string>>{
           {"bogus"}, {"wide"}, {"time,noise"}, {"time", "time"}}) {
    TableOptions bad;
    bad.columns = columns;
    std::ostringstream out;
    CHECK_THROWS_AS(write_results(out, Format::table, hand_built_context(false), hand_built_results(), bad),
                    std::invalid_argument);
    CHECK(out.str().empty());
  }
}

TEST_CASE("figures keep three significant digits where they round up to the next decade") {
  auto results = hand_built_results();
  results[0].vs_vendor = 0.09996;        // 0.100, not 0.1000
  results[1].vs_vendor = 0.0099996;      // 0.0100
  results[0].compute.median_ms = 0.9996; // 1.00 ms, not 1000 us
  std::ostringstream out;
  write_results(out, Format::table, hand_built_context(false), results);
  const Grid g = parse_table(out.str(), kNumeric);
  CHECK(g.cell(kOk, "x vendor") == "0.100");
  CHECK(g.cell(kVendor, "x vendor") == "0.0100");
  CHECK(g.cell(kOk, "time") == "1.00 ms");
}

TEST_CASE("a ratio from one pair shows no spread: IQR and quartiles are left empty") {
  auto results = hand_built_results();
  results[0].vs_vendor_pairs = 1;
  results[0].vs_vendor_q1 = results[0].vs_vendor_q3 = results[0].vs_vendor;
  TableOptions wide;
  wide.columns = table_columns();
  std::ostringstream out;
  write_results(out, Format::table, hand_built_context(false), results, wide);
  const Grid g = parse_table(out.str(), kNumeric);
  CHECK(g.cell(kOk, "x vendor") == "0.860");
  CHECK(g.cell(kOk, "IQR") == "-");  // not "0.0%"
  CHECK(g.cell(kOk, "quartiles") == "-");
  CHECK(g.cell(kVendor, "IQR") == "2.0%");
}

TEST_CASE("rates switch to TFLOP/s when a row reaches 10 TFLOP/s, for the whole column") {
  auto results = hand_built_results();
  results[0].gflops = 52900;
  std::ostringstream out;
  write_results(out, Format::table, hand_built_context(false), results);
  const Grid g = parse_table(out.str(), kNumeric);
  CHECK(g.cell(kOk, "TFLOP/s") == "52.9");
  CHECK(g.cell(kVendor, "TFLOP/s") == "0.201");
}

TEST_CASE("table and markdown: footnotes numbered in order of first use, rows that did not run grouped by reason") {
  for (const Format format : {Format::table, Format::markdown}) {
    INFO("format: ", format == Format::table ? "table" : "md");
    const std::string text = render_table(format, hand_built_context(false), {});
    INFO(text);
    std::vector<std::string> lines;
    for (std::string line : joined_lines(lines_of(text))) {
      // Markdown's hard line breaks and escaped bars.
      for (std::size_t at; (at = line.find("\\|")) != std::string::npos;) line.erase(at, 1);
      lines.push_back(trim(line));
    }
    const auto notes = expected_notes();
    const auto first = std::find(lines.begin(), lines.end(), notes.front());
    REQUIRE(first != lines.end());
    REQUIRE(std::size_t(lines.end() - first) >= notes.size());
    for (std::size_t i = 0; i < notes.size(); ++i) CHECK(first[std::ptrdiff_t(i)] == notes[i]);
  }
  // Two rows with the same note share its number; the unavailable rows of every shape make one line.
  auto results = hand_built_results();
  results[1].reason = kOkReason;
  BenchmarkResult another = results[5];
  another.backend.name = "gpu/naive";
  another.shape = {4096, 4096, 4096};
  results.push_back(another);
  std::ostringstream out;
  write_results(out, Format::table, hand_built_context(false), results);
  const Grid g = parse_table(out.str(), kNumeric);
  CHECK(g.cell(kVendor, "notes") == "1");
  const auto lines = joined_lines(lines_of(out.str()));
  CHECK(std::find(lines.begin(), lines.end(), "Not run (2 backends): " + kUnavailable + ", gpu/naive on 512x384x256, "
                                                  "4096x4096x4096: " + kUnavailableReason) != lines.end());
}

TEST_CASE("table and markdown open with the run's context, one whole line each; the table's wrap at its width") {
  for (const bool with_gpu : {false, true}) {
    INFO("with a GPU: ", with_gpu);
    const auto raw = lines_of(render(Format::table, hand_built_context(with_gpu)));
    for (const std::string& line : raw) CHECK_MESSAGE(line.size() <= 120, line);
    const auto table = joined_lines(raw);
    const auto md = lines_of(render(Format::markdown, hand_built_context(with_gpu)));
    const auto expected = context_lines(with_gpu);
    REQUIRE(table.size() > expected.size());
    REQUIRE(md.size() > expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(table[i] == expected[i]);
      CHECK(md[i] == "> " + expected[i]);
    }
    CHECK(table[expected.size()] == "");
    CHECK(md[expected.size()] == "");
  }
}

TEST_CASE("the default table fits 120 columns with every backend's name, the slowest figures and a suite's shapes") {
  std::vector<BenchmarkResult> results;
  RunContext context = hand_built_context(true);
  // The widest shapes of the shipped suites (a decode LM head's table once read 121 characters).
  for (const GemmShape shape : {GemmShape{8192, 8192, 8192}, GemmShape{64, 128256, 4096, Layout::nt},
                                GemmShape{16384, 128256, 28672, Layout::nt}})
  for (const Backend* b : all_backends()) {
    BenchmarkResult r;
    r.backend = b->info();
    r.shape = shape;
    r.status = Status::estimated;
    r.reason = "an estimate";
    r.compute = {123456.0, 0, 0, 0, 1};
    // cpu/gold on a GPU host: 1.7 GFLOP/s in a column of TFLOP/s, 0.0009x the vendor
    r.gflops = b->info().device == DeviceKind::cpu ? 1.7 : 60100;
    r.vs_vendor = r.vs_best_vendor = 0.000853;
    r.best_vendor = "cpu/onemkl";
    r.verified = true;
    r.errors = {0.5, 2048.0, 1.23e-05, 0.7, true, false};
    results.push_back(r);
  }
  std::ostringstream out;
  write_results(out, Format::table, context, results);
  for (const std::string& line : lines_of(out.str())) CHECK_MESSAGE(line.size() <= 120, line);
}

TEST_CASE("sort_results: each shape's rows by a figure, rows without it last; the shapes keep their order") {
  auto results = hand_built_results();
  sort_results(results, "rate");
  std::vector<std::string> names;
  for (const auto& r : results) names.push_back(r.backend.name);
  // 512x384x256 TN alone (kOk), then the NN rows of 512x384x256 gathered: vendor 201, then the rows without a rate.
  CHECK(names == std::vector<std::string>{kOk, kVendor, kFailed, kCrashed, kUnavailable, kEstimated, kMulti});
  auto by_time = hand_built_results();
  std::swap(by_time[1], by_time[3]);  // failed before vendor
  sort_results(by_time, "time");
  CHECK(by_time[1].backend.name == kVendor);
  auto by_name = hand_built_results();
  sort_results(by_name, "backend");
  CHECK(by_name[1].backend.name == kFailed);  // cpu/broken
  CHECK(by_name[2].backend.name == kCrashed);  // cpu/crashing
  auto same = hand_built_results();
  sort_results(same, "registry");
  CHECK(same.front().backend.name == kOk);
  CHECK_THROWS_WITH_AS(sort_results(same, "speed"), doctest::Contains("unknown sort key 'speed'"), std::invalid_argument);
  CHECK_THROWS_AS(sort_results(same, "peak"), std::invalid_argument);  // peaks differ by device and precision
}

TEST_CASE("a JSON run read back prints the same table, markdown, csv and json as the run itself") {
  for (const bool with_gpu : {false, true}) {
    INFO("with a GPU: ", with_gpu);
    const RunContext context = hand_built_context(with_gpu);
    std::ostringstream saved;
    write_results(saved, Format::json, context, hand_built_results());
    std::istringstream in(saved.str());
    const SavedResults back = read_results_json(in);
    for (const Format format : {Format::table, Format::markdown, Format::csv, Format::json}) {
      TableOptions wide;
      wide.columns = table_columns();
      std::ostringstream direct, again;
      write_results(direct, format, context, hand_built_results(), wide);
      write_results(again, format, back.context, back.results, wide);
      CHECK(again.str() == direct.str());
    }
  }
}

TEST_CASE("read_results_json: a damaged run is one clear error naming the field") {
  std::ostringstream saved;
  write_results(saved, Format::json, hand_built_context(false), hand_built_results());
  auto damaged = [&](const std::function<void(json&)>& damage) {
    json j = json::parse(saved.str());
    damage(j);
    std::istringstream in(j.dump());
    return in;
  };
  auto in = damaged([](json& j) { j["results"][2]["median_ms"] = "fast"; });
  CHECK_THROWS_WITH_AS(read_results_json(in), "results[2].median_ms must be a number or null", std::invalid_argument);
  auto no_backend = damaged([](json& j) { j["results"][0].erase("backend"); });
  CHECK_THROWS_WITH_AS(read_results_json(no_backend), "results[0].backend is missing", std::invalid_argument);
  auto no_figure = damaged([](json& j) { j["results"][0]["median_ms"] = nullptr; });
  CHECK_THROWS_WITH_AS(read_results_json(no_figure), "results[0].median_ms must be positive for a row of status ok",
                       std::invalid_argument);
  auto bad_status = damaged([](json& j) { j["results"][1]["status"] = "great"; });
  CHECK_THROWS_AS(read_results_json(bad_status), std::invalid_argument);
  // A row whose output held NaN: its errors were written as null, and read back as not finite, not as 0.
  auto nan_row = damaged([](json& j) {
    for (const char* key : {"max_abs_error", "sum_abs_error", "rel_error", "blas_ratio"}) j["results"][3][key] = nullptr;
  });
  const SavedResults with_nan = read_results_json(nan_row);
  CHECK_FALSE(with_nan.results[3].errors.finite);
  CHECK(std::isnan(with_nan.results[3].errors.rel_frobenius));
  auto not_array = damaged([](json& j) { j["context"]["peaks"] = "fast"; });
  CHECK_THROWS_WITH_AS(read_results_json(not_array), "context.peaks must be an array", std::invalid_argument);
  auto bad_layout = damaged([](json& j) { j["results"][0]["layout"] = "XX"; });
  CHECK_THROWS_WITH_AS(read_results_json(bad_layout), "results[0].layout must be NN, NT, TN or TT, not 'XX'",
                       std::invalid_argument);
  // A run saved before --budget: a row that did not fit --time-limit was "skipped", not measured.
  auto skipped = damaged([](json& j) { j["results"][5]["status"] = "skipped"; });
  const SavedResults old_run = read_results_json(skipped);
  CHECK(old_run.results[5].status == Status::unavailable);
  CHECK(old_run.results[5].reason.rfind("skipped (not measured within --time-limit): ", 0) == 0);
  std::istringstream not_json("{ nope");
  CHECK_THROWS_WITH_AS(read_results_json(not_json), doctest::Contains("not a JSON run"), std::invalid_argument);
}

TEST_CASE("a run saved before peaks were recorded gets its GPU's from the properties it kept, and no CPU peak") {
  std::ostringstream saved;
  write_results(saved, Format::json, hand_built_context(true), hand_built_results());
  json j = json::parse(saved.str());
  j["context"].erase("peaks");
  std::istringstream in(j.dump());
  const SavedResults back = read_results_json(in);
  REQUIRE(back.context.peaks.size() == 1);
  CHECK(back.context.peaks[0].device == DeviceKind::gpu);
  CHECK(back.context.peaks[0].fp32_gflops == doctest::Approx(66908.16));
}

TEST_CASE("gpu_peak: SMs x lanes x 2 x clock, dense TF32 per SM, memory clock x 2 x bus; unknown parts are 0") {
  GpuContext h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_capability = "9.0";
  h100.multiprocessors = 132;
  h100.sm_clock_max_mhz = 1980;
  h100.memory_clock_max_mhz = 2619;
  h100.memory_bus_bits = 5120;
  const Peak p = gpu_peak(h100);
  CHECK(p.device == DeviceKind::gpu);
  CHECK(p.fp32_gflops == doctest::Approx(66908.16));   // NVIDIA's 66.9 TFLOP/s
  CHECK(p.tf32_gflops == doctest::Approx(535265.28));  // 494.7 at the 1830 MHz NVIDIA quotes it at
  CHECK(p.bandwidth_gbs == doctest::Approx(3352.32));  // NVIDIA's 3.35 TB/s
  GpuContext a100 = h100;
  a100.compute_capability = "8.0";
  a100.multiprocessors = 108;
  a100.sm_clock_max_mhz = 1410;
  CHECK(gpu_peak(a100).fp32_gflops == doctest::Approx(19491.84));  // 19.5 TFLOP/s
  CHECK(gpu_peak(a100).tf32_gflops == doctest::Approx(155934.72)); // 156 TFLOP/s
  GpuContext unknown = h100;
  unknown.compute_capability = "6.1";
  unknown.memory_bus_bits = 0;
  CHECK(gpu_peak(unknown).fp32_gflops == 0);
  CHECK(gpu_peak(unknown).tf32_gflops == 0);
  CHECK(gpu_peak(unknown).bandwidth_gbs == 0);
  CHECK(gpu_peak(unknown).basis.find("unknown for sm 6.1") != std::string::npos);
}

TEST_CASE("peak_gflops: the row's device and precision, times the GPUs of a multi-GPU row") {
  const RunContext c = hand_built_context(true);
  const auto results = hand_built_results();
  CHECK(peak_gflops(c, results[0]) == 500);
  BenchmarkResult tf32 = results[0];
  tf32.backend.device = DeviceKind::gpu;
  tf32.backend.precision = Precision::tf32;
  CHECK(peak_gflops(c, tf32) == doctest::Approx(535265.28));
  CHECK(peak_gflops(c, results[6]) == doctest::Approx(2 * 66908.16));
  CHECK(peak_gflops(hand_built_context(false), results[6]) == 0);
}

TEST_CASE("csv: the documented header, every value under its own, the disposition passed only for a measured row") {
  const std::string text = render(Format::csv);
  CHECK(lines_of(text).front() ==
        "backend,device,precision,m,n,k,layout,alpha,beta,runtime_ms,total_ms,gflops,vs_vendor,vs_vendor_q1,vs_vendor_q3,"
        "vs_precision_vendor,vs_best_vendor,best_vendor,devices,speedup,efficiency,max_abs_error,sum_abs_error,rel_error,"
        "blas_ratio,disposition,reason,machine,git_commit");
  const Grid g = parse_csv(text);
  // Each row names its machine (the CPU for CPU rows, the GPU for GPU rows) and the commit.
  CHECK(g.cell(kOk, "machine") == "Test CPU 9000");
  CHECK(g.cell(kOk, "git_commit") == "abc1234");
  const Grid with_gpu = parse_csv(render(Format::csv, hand_built_context(true)));
  CHECK(with_gpu.cell(kUnavailable, "machine") == hand_built_context(true).gpu->name);
  CHECK(with_gpu.cell(kOk, "machine") == "Test CPU 9000");
  CHECK(g.backends() == kOrder);

  CHECK(g.cell(kOk, "device") == "cpu");
  CHECK(g.cell(kOk, "precision") == "fp32");
  CHECK(g.cell(kOk, "m") == "512");
  CHECK(g.cell(kOk, "n") == "384");
  CHECK(g.cell(kOk, "k") == "256");
  CHECK(g.cell(kOk, "layout") == "TN");
  CHECK(g.cell(kVendor, "layout") == "NN");
  CHECK(g.cell(kOk, "alpha") == "0.5");
  CHECK(g.cell(kOk, "beta") == "2");
  CHECK(g.cell(kOk, "runtime_ms") == "1.25");  // the compute median
  CHECK(g.cell(kOk, "total_ms") == "3.5");     // end to end
  CHECK(g.cell(kOk, "gflops") == "80.5");
  CHECK(g.cell(kOk, "vs_vendor") == "0.86");
  CHECK(g.cell(kOk, "vs_vendor_q1") == "0.81");
  CHECK(g.cell(kOk, "vs_vendor_q3") == "0.93");
  CHECK(g.cell(kOk, "vs_precision_vendor") == "0.77");
  CHECK(g.cell(kOk, "vs_best_vendor") == "0.62");
  CHECK(g.cell(kOk, "best_vendor") == "cpu/vendor-fast");
  CHECK(g.cell(kOk, "devices") == "");
  CHECK(g.cell(kOk, "speedup") == "");
  CHECK(g.cell(kOk, "efficiency") == "");
  CHECK(g.cell(kOk, "max_abs_error") == "0.00390625");
  CHECK(g.cell(kOk, "sum_abs_error") == "0.046875");
  CHECK(g.cell(kOk, "rel_error") == "0.000122");
  CHECK(g.cell(kOk, "blas_ratio") == "0.3");
  CHECK(g.cell(kOk, "disposition") == "passed");
  CHECK(g.cell(kOk, "reason") == kOkReason);
  CHECK(g.cell(kVendor, "runtime_ms") == "0.5");
  CHECK(g.cell(kVendor, "total_ms") == "2.75");
  CHECK(g.cell(kVendor, "disposition") == "passed");

  // The estimate: its status is its disposition (never "passed"), its figures the extrapolated run's.
  CHECK(g.cell(kEstimated, "disposition") == "estimated");
  CHECK(g.cell(kEstimated, "m") == "4096");
  CHECK(g.cell(kEstimated, "runtime_ms") == "12345.6");
  CHECK(g.cell(kEstimated, "total_ms") == "");
  CHECK(g.cell(kEstimated, "gflops") == "11.1");
  CHECK(g.cell(kEstimated, "vs_vendor") == "0.021");
  CHECK(g.cell(kEstimated, "vs_vendor_q1") == "");
  CHECK(g.cell(kEstimated, "vs_vendor_q3") == "");
  CHECK(g.cell(kEstimated, "vs_precision_vendor") == "0.034");
  CHECK(g.cell(kEstimated, "vs_best_vendor") == "0.027");
  CHECK(g.cell(kEstimated, "max_abs_error") == "0.0078125");
  CHECK(g.cell(kEstimated, "reason") == kEstimateReason);  // quoted: it holds commas

  for (const std::string& backend : {kFailed, kCrashed}) {
    INFO(backend);
    CHECK(g.cell(backend, "disposition") == "failed");
    for (const char* column : {"runtime_ms", "total_ms", "gflops", "vs_vendor", "vs_vendor_q1", "vs_vendor_q3",
                               "vs_precision_vendor"})
      CHECK_MESSAGE(g.cell(backend, column) == "", column);
  }
  CHECK(g.cell(kFailed, "max_abs_error") == "3");
  CHECK(g.cell(kFailed, "blas_ratio") == "4100");
  CHECK(g.cell(kFailed, "reason") == kFailedReason);
  CHECK(g.cell(kCrashed, "max_abs_error") == "");
  CHECK(g.cell(kCrashed, "reason") == kCrashedReason);

  CHECK(g.cell(kUnavailable, "disposition") == "unavailable");
  CHECK(g.cell(kUnavailable, "device") == "gpu");
  CHECK(g.cell(kUnavailable, "devices") == "1");
  CHECK(g.cell(kUnavailable, "runtime_ms") == "");
  CHECK(g.cell(kUnavailable, "reason") == kUnavailableReason);

  CHECK(g.cell(kMulti, "disposition") == "passed");
  CHECK(g.cell(kMulti, "devices") == "2");
  CHECK(g.cell(kMulti, "speedup") == "1.6");
  CHECK(g.cell(kMulti, "efficiency") == "0.8");
  CHECK(g.cell(kMulti, "runtime_ms") == "2400");
}

TEST_CASE("json: every documented key holds its own value; an estimate and a failure say what they are") {
  const json document = json::parse(render(Format::json));
  REQUIRE(document.at("results").size() == kOrder.size());
  for (std::size_t i = 0; i < kOrder.size(); ++i) CHECK(document["results"][i].at("backend") == kOrder[i]);
  // docs/json.md's list of each result's keys.
  for (const char* key :
       {"backend", "device", "seed", "idea", "precision", "vendor", "multi_gpu", "host_resident", "m", "n", "k", "layout", "alpha", "beta", "status", "reason",
        "median_ms", "min_ms", "max_ms", "cv", "samples", "total_ms", "total_min_ms", "total_samples", "gflops",
        "vs_vendor", "vs_vendor_q1", "vs_vendor_q3", "vs_vendor_pairs", "vs_precision_vendor", "vs_best_vendor", "best_vendor", "kernel", "clock_mhz", "clock_max_mhz", "throttled_rounds", "vendor_library", "estimated_run_s",
        "estimate_rows", "estimate_subset_ms", "estimate_ms_per_row", "budget_s", "spent_s", "max_abs_error",
        "sum_abs_error", "rel_error", "blas_ratio", "passed", "verified_rows", "verification_sample", "devices",
        "speedup", "efficiency", "speedup_basis"})
    for (const json& r : document["results"]) CHECK_MESSAGE(r.contains(key), r["backend"], " lacks ", key);

  const json& ok = result_of(document, kOk);
  CHECK(ok.at("multi_gpu") == false);
  CHECK(result_of(document, kMulti).at("multi_gpu") == true);
  CHECK(result_of(document, kMulti).at("host_resident") == true);
  CHECK(ok.at("device") == "cpu");
  CHECK(ok.at("seed") == "001 tiling");
  CHECK(ok.at("idea") == "the idea of cpu/tiling");
  CHECK(ok.at("precision") == "fp32");
  CHECK(ok.at("vendor") == false);
  CHECK(ok.at("m") == 512);
  CHECK(ok.at("n") == 384);
  CHECK(ok.at("k") == 256);
  CHECK(ok.at("layout") == "TN");
  CHECK(result_of(document, kVendor).at("layout") == "NN");
  CHECK(ok.at("alpha") == 0.5);
  CHECK(ok.at("beta") == 2.0);
  CHECK(ok.at("status") == "ok");
  CHECK(ok.at("reason") == kOkReason);
  CHECK(ok.at("median_ms") == 1.25);  // compute, not end to end (3.5)
  CHECK(ok.at("min_ms") == 1.0);
  CHECK(ok.at("max_ms") == 2.0);
  CHECK(ok.at("cv") == 0.0625);
  CHECK(ok.at("samples") == 6);
  CHECK(ok.at("total_ms") == 3.5);
  CHECK(ok.at("total_min_ms") == 3.0);
  CHECK(ok.at("total_samples") == 5);
  CHECK(ok.at("gflops") == 80.5);
  CHECK(ok.at("vs_vendor") == 0.86);
  CHECK(ok.at("vs_vendor_q1") == 0.81);
  CHECK(ok.at("vs_vendor_q3") == 0.93);
  CHECK(ok.at("vs_vendor_pairs") == 9);
  CHECK(ok.at("vs_precision_vendor") == 0.77);
  CHECK(ok.at("vs_best_vendor") == 0.62);
  CHECK(ok.at("best_vendor") == "cpu/vendor-fast");
  CHECK(ok.at("kernel") == "algo 7, tile 128x64");
  CHECK(ok.at("clock_mhz") == 1755);
  CHECK(ok.at("clock_max_mhz") == 1980);
  CHECK(ok.at("throttled_rounds") == 3);
  CHECK(ok.at("estimated_run_s") == 0.00125);
  CHECK(ok.at("estimate_rows").is_null());
  CHECK(ok.at("estimate_subset_ms").is_null());
  CHECK(ok.at("estimate_ms_per_row").is_null());
  CHECK(ok.at("budget_s") == 4.5);
  CHECK(ok.at("spent_s") == 2.25);
  CHECK(ok.at("max_abs_error") == 0.00390625);
  CHECK(ok.at("sum_abs_error") == 0.046875);
  CHECK(ok.at("rel_error") == 0.000122);
  CHECK(ok.at("blas_ratio") == 0.3);
  CHECK(ok.at("passed") == true);
  CHECK(ok.at("verified_rows") == 512);
  CHECK(ok.at("verification_sample").is_null());
  CHECK(ok.at("devices").is_null());
  CHECK(ok.at("speedup").is_null());
  CHECK(ok.at("efficiency").is_null());
  CHECK(ok.at("speedup_basis").is_null());

  const json& vendor = result_of(document, kVendor);
  CHECK(vendor.at("vendor") == true);
  CHECK(vendor.at("median_ms") == 0.5);
  CHECK(vendor.at("min_ms") == 0.45);
  CHECK(vendor.at("max_ms") == 0.55);
  CHECK(vendor.at("total_ms") == 2.75);
  CHECK(vendor.at("total_min_ms") == 2.5);

  // docs/json.md: for an estimate median_ms, gflops and the ratios are the extrapolated run's; min, max, cv, total and
  // the quartiles null; passed covers the rows it verified.
  const json& estimate = result_of(document, kEstimated);
  CHECK(estimate.at("status") == "estimated");
  CHECK(estimate.at("reason") == kEstimateReason);
  CHECK(estimate.at("median_ms") == 12345.6);
  CHECK(estimate.at("min_ms").is_null());
  CHECK(estimate.at("max_ms").is_null());
  CHECK(estimate.at("cv").is_null());
  CHECK(estimate.at("samples") == 3);
  CHECK(estimate.at("total_ms").is_null());
  CHECK(estimate.at("total_min_ms").is_null());
  CHECK(estimate.at("gflops") == 11.1);
  CHECK(estimate.at("vs_vendor") == 0.021);
  CHECK(estimate.at("vs_vendor_q1").is_null());
  CHECK(estimate.at("vs_vendor_q3").is_null());
  CHECK(estimate.at("vs_precision_vendor") == 0.034);
  CHECK(estimate.at("vs_best_vendor") == 0.027);
  CHECK(estimate.at("estimated_run_s") == 11.5);
  CHECK(estimate.at("estimate_rows") == 96);
  CHECK(estimate.at("estimate_subset_ms") == 578.25);
  CHECK(estimate.at("estimate_ms_per_row") == 2.87);
  CHECK(estimate.at("budget_s") == 3.125);
  CHECK(estimate.at("spent_s") == 3.0625);
  CHECK(estimate.at("max_abs_error") == 0.0078125);
  CHECK(estimate.at("sum_abs_error") == 0.125);
  CHECK(estimate.at("rel_error") == 0.00025);
  CHECK(estimate.at("blas_ratio") == 0.45);
  CHECK(estimate.at("passed") == true);
  CHECK(estimate.at("verified_rows") == 96);

  const json& failed = result_of(document, kFailed);
  CHECK(failed.at("status") == "failed");
  CHECK(failed.at("passed") == false);
  for (const char* key : {"median_ms", "min_ms", "max_ms", "cv", "total_ms", "total_min_ms", "gflops", "vs_vendor",
                          "vs_vendor_q1", "vs_vendor_q3", "vs_precision_vendor", "estimate_rows", "clock_mhz",
                          "clock_max_mhz"})
    CHECK_MESSAGE(failed.at(key).is_null(), key);
  CHECK(failed.at("max_abs_error") == 3.0);
  CHECK(failed.at("sum_abs_error") == 1536.0);
  CHECK(failed.at("rel_error") == 0.5);
  CHECK(failed.at("blas_ratio") == 4100.0);
  CHECK(failed.at("budget_s") == 2.5);
  CHECK(failed.at("spent_s") == 0.5);

  const json& crashed = result_of(document, kCrashed);
  CHECK(crashed.at("status") == "failed");
  CHECK(crashed.at("passed").is_null());  // never verified
  CHECK(crashed.at("max_abs_error").is_null());
  CHECK(crashed.at("verified_rows").is_null());
  CHECK(crashed.at("reason") == kCrashedReason);

  const json& unavailable = result_of(document, kUnavailable);
  CHECK(unavailable.at("status") == "unavailable");
  CHECK(unavailable.at("reason") == kUnavailableReason);
  CHECK(unavailable.at("passed").is_null());
  CHECK(unavailable.at("median_ms").is_null());
  CHECK(unavailable.at("budget_s").is_null());
  CHECK(unavailable.at("spent_s").is_null());
  CHECK(unavailable.at("devices") == 1);

  const json& multi = result_of(document, kMulti);
  CHECK(multi.at("median_ms") == 2400.0);
  CHECK(multi.at("total_ms") == 2400.0);
  CHECK(multi.at("min_ms") == 2350.0);
  CHECK(multi.at("max_ms") == 2475.0);
  CHECK(multi.at("devices") == 2);
  CHECK(multi.at("speedup") == 1.6);
  CHECK(multi.at("efficiency") == 0.8);
  CHECK(multi.at("speedup_basis") == "end-to-end");
  CHECK(multi.at("verified_rows") == 64);
  CHECK(multi.at("verification_sample") == kSample);
}

TEST_CASE("json: the context names the machine and how the run was timed, each under its own key") {
  const json c = json::parse(render(Format::json, hand_built_context(true))).at("context");
  CHECK(c.at("tool") == "matcompare");
  CHECK(c.at("version") == "1.2.3");
  CHECK(c.at("git_commit") == "abc1234");
  CHECK(c.at("build_type") == "Release");
  CHECK(c.at("hostname") == "host-x");
  CHECK(c.at("cpu_model") == "Test CPU 9000");
  CHECK(c.at("cpu_cores") == 12);
  CHECK(c.at("omp_threads") == 6);
  CHECK(c.at("openblas").at("core") == "SkylakeX");
  CHECK(c.at("openblas").at("parallel") == "pthreads");
  CHECK(c.at("openblas").at("threads") == 5);
  CHECK(c.at("thread_waits") == "GOMP_SPINCOUNT=10000 OPENBLAS_THREAD_TIMEOUT=20");
  const json& gpu = c.at("gpu");
  CHECK(gpu.at("index") == 1);
  CHECK(gpu.at("sm_clock_max_mhz") == 1980);
  CHECK(gpu.at("sm_clock_observed_mhz") == 1755);
  CHECK(gpu.at("memory_clock_max_mhz") == 2619);
  CHECK(gpu.at("l2_mib") == 50.0);
  CHECK(gpu.at("memory_gib") == 79.5);
  CHECK(gpu.at("driver_version") == "13.0");
  CHECK(gpu.at("runtime_version") == "12.9");
  CHECK(gpu.at("cublas_version") == "12.9.1");
  CHECK(gpu.at("pci_bus_id") == "0000:18:00.0");
  CHECK(c.at("multi_gpu_devices") == json::array({1}));
  CHECK(c.at("cublasxt_block_dim") == 8192);
  const json& timing = c.at("timing");
  CHECK(timing.at("repetitions") == 7);
  CHECK(timing.at("min_time_s") == 0.125);
  CHECK(timing.at("time_limit_s") == 17.0);
  CHECK(timing.at("budget_s") == 33.0);
  CHECK(timing.at("run_s") == 41.5);
  CHECK(c.at("input_seed") == 4242);
  CHECK(c.at("input_values") == "reals-1-100");
  CHECK(c.at("command_line") == "matcompare --sizes 512 --budget 33");
  CHECK(c.at("timestamp_utc") == "2026-01-02T03:04:05Z");

  RunContext unfinished = hand_built_context(false);
  unfinished.run_s = 0;  // a run not yet ended: a .partial file's context
  CHECK(json::parse(render(Format::json, unfinished)).at("context").at("timing").at("run_s").is_null());
  const json none = json::parse(render(Format::json)).at("context");
  CHECK(none.at("gpu").is_null());
  CHECK(none.at("gpu_unavailable_reason") == kUnavailableReason);
  CHECK(none.at("cublasxt_block_dim").is_null());
}

TEST_CASE("gbench: Google Benchmark's schema, a benchmark per result in microseconds, errors where no figure holds") {
  const json document = json::parse(render(Format::gbench, hand_built_context(true)));
  const json& context = document.at("context");
  CHECK(context.at("json_schema_version") == 1);
  CHECK(context.at("library_build_type") == "release");
  CHECK(context.at("git_commit") == hand_built_context(true).git_commit);
  CHECK(context.at("gpu") == hand_built_context(true).gpu->name);
  const json& benchmarks = document.at("benchmarks");
  REQUIRE(benchmarks.size() == kOrder.size());
  auto named = [&](const std::string& name) -> const json& {
    for (const json& b : benchmarks)
      if (b.at("name") == name) return b;
    FAIL("no benchmark named " << name);
    return benchmarks.front();
  };
  // The layout (TN) and α = 0.5, β = 2 are in the name; the compute median (1.25 ms) is the time in microseconds, CPU time alike.
  const json& ok = named(kOk + "/512x384x256/TN/alpha:0.5/beta:2");
  CHECK(ok.at("run_name") == ok.at("name"));
  CHECK(ok.at("run_type") == "iteration");
  CHECK(ok.at("real_time") == doctest::Approx(1250));
  CHECK(ok.at("cpu_time") == doctest::Approx(1250));
  CHECK(ok.at("time_unit") == "us");
  CHECK(ok.at("iterations") == 6);
  CHECK(ok.at("GFLOPS") == doctest::Approx(80.5));
  CHECK(ok.at("x_vendor") == doctest::Approx(0.86));
  CHECK(ok.at("x_best_vendor") == doctest::Approx(0.62));
  CHECK_FALSE(ok.contains("error_occurred"));
  // Families are backends, in the order they first appear; instances count each backend's shapes.
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    CHECK(benchmarks[i].at("family_index") == int(i));
    CHECK(benchmarks[i].at("per_family_instance_index") == 0);
  }
  // An estimate keeps its figure and says so; a wrong result, a crash and an unavailable row are errors whose times
  // and iterations are 0, as Google Benchmark's own writer gives its errors: its compare.py reads the times of every
  // benchmark (without them it stopped on ours with a KeyError; bench/NOTES.md, "Google Benchmark's compare.py").
  for (const json& b : benchmarks) {
    const std::string name = b.at("name");
    CAPTURE(name);
    const bool error = name.rfind(kFailed, 0) == 0 || name.rfind(kCrashed, 0) == 0 || name.rfind(kUnavailable, 0) == 0;
    CHECK(b.contains("error_occurred") == error);
    CHECK(b.at("time_unit") == "us");
    if (error) {
      CHECK_FALSE(b.at("error_message").get<std::string>().empty());
      CHECK(b.at("real_time") == 0);
      CHECK(b.at("cpu_time") == 0);
      CHECK(b.at("iterations") == 0);
    }
    if (name.rfind(kEstimated, 0) == 0) CHECK(b.at("label").get<std::string>().find("estimated from the first") == 0);
  }
  std::ostringstream listing;
  CHECK_THROWS_AS(write_backend_list(listing, Format::gbench, {}), std::invalid_argument);
  CHECK(listing.str().empty());
}

TEST_CASE("csv: figures rounded to six significant digits, whole numbers kept whole") {
  std::vector<BenchmarkResult> results = hand_built_results();
  results.front().gflops = 5.6600494999999995;
  results.front().vs_vendor = 1234567.891;
  std::ostringstream out;
  write_results(out, Format::csv, hand_built_context(false), results);
  const Grid g = parse_csv(out.str());
  CHECK(g.cell(kOk, "gflops") == "5.66005");
  CHECK(g.cell(kOk, "vs_vendor") == "1.23457e+06");
  CHECK(g.cell(kOk, "m") == "512");
  CHECK(g.cell(kMulti, "devices") == "2");
}
