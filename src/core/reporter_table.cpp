// The terminal table and the Markdown (reporter_table.hpp). Each column is one entry of kColumns: its name for
// --columns, its header, how it aligns and what it means; a cell's text comes from cell().
#include "reporter_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "number_text.hpp"

namespace matcompare {
namespace {

struct Column {
  const char* name;     // as --columns takes it
  const char* header;   // "rate" has two: GFLOP/s or TFLOP/s, whichever reads better for the whole table
  bool numeric;         // right-aligned
  bool by_default;
  const char* legend;   // what it means, under the table ("" where the header says it)
};

const std::vector<Column> kColumns = {
    {"backend", "backend", false, true, ""},
    {"device", "device", false, false, ""},
    {"precision", "precision", false, false, ""},
    {"gpus", "GPUs", true, false, "GPUs: how many GPUs the row ran on."},
    {"shape", "shape", false, true, ""},
    {"time", "time", true, true,
     "time: the median compute time of the row's own samples, data already in place; noise: their coefficient of "
     "variation."},
    {"noise", "noise", true, true, ""},
    {"total", "end-to-end", true, false,
     "end-to-end: the median of separate samples of upload + compute + download (below the compute time only where "
     "the noise is larger than the transfers)."},
    {"rate", "GFLOP/s", true, true, ""},
    {"peak", "% peak", true, true,
     "% peak: the rate over the device's peak of the row's precision (Peaks above; a row that computes FP32 on "
     "tensor cores can pass 100)."},
    {"vendor", "x vendor", true, true,
     "x vendor: the median over pairs of the vendor's time over the row's, the two timed in turn on the same inputs "
     "so that drift hits both; on a noisy machine it can differ from the ratio of two rates, which come from "
     "unpaired samples. IQR: half the pairs' interquartile range, in % of their median (none from one pair)."},
    {"iqr", "IQR", true, true, ""},
    {"quartiles", "quartiles", true, false, "quartiles: the first and third quartile of the pair ratios."},
    {"prec-vendor", "x prec. vendor", true, false,
     "x prec. vendor: the same, against the vendor row of the row's precision."},
    {"best", "x best", true, true, ""},  // its legend names the best vendors of the run
    {"best-vendor", "best vendor", false, false, ""},
    {"speedup", "speedup", true, false,
     "speedup: a multi-GPU row's time against one GPU's vendor on the same shape; efficiency: speedup / GPUs."},
    {"efficiency", "efficiency", true, false, ""},
    {"max-err", "max abs err", true, false, "max abs err, sum abs err: against the float64 reference."},
    {"sum-err", "sum abs err", true, false, ""},
    {"rel-err", "rel err", true, true,
     "rel err: the relative Frobenius error against a float64 reference; pass: every element within its bound "
     "(K + 2 units of the precision's roundoff)."},
    {"blas-ratio", "BLAS ratio", true, false,
     "BLAS ratio: the largest element error over one unit of roundoff of its own scale; pass needs it within K + 2."},
    {"pass", "pass", false, true, ""},
    {"kernel", "kernel", false, false, "kernel: what the row chose for this shape."},
    {"notes", "notes", false, true, ""},
};

const Column& column(const std::string& name) {
  for (const Column& c : kColumns)
    if (name == c.name) return c;
  std::string known;
  for (const Column& c : kColumns) known += (known.empty() ? "" : ", ") + std::string(c.name);
  throw std::invalid_argument("unknown column '" + name + "' (known: " + known + ", or wide for all)");
}

// Three significant digits without an exponent: 1.29, 0.0234, 12.3, 456, 12345.
std::string sig3(double x) {
  if (!std::isfinite(x)) return "nan";
  const double a = std::fabs(x);
  if (a >= 99.95) return format("%.0f", x);
  if (a >= 9.995) return format("%.1f", x);
  if (a >= 0.9995 || a == 0) return format("%.2f", x);
  // Decimals from the value as it rounds: 0.09996 is 0.100, not 0.1000.
  if (a >= 0.09995) return format("%.3f", x);
  if (a >= 0.009995) return format("%.4f", x);
  // Below 0.01 an exponent is shorter than the zeros: 8.50e-4.
  std::string text = format("%.2e", x);
  const std::size_t e = text.find("e-0");
  if (e != std::string::npos) text.erase(e + 2, 1);
  return text;
}

std::string duration(double ms) {
  if (ms < 0.9995) return sig3(ms * 1000) + " us";
  if (ms < 999.5) return sig3(ms) + " ms";
  return sig3(ms / 1000) + " s";
}

std::string percent(double fraction) {
  const double p = fraction * 100;
  return (p < 9.95 ? format("%.1f", p) : format("%.0f", p)) + "%";
}

// Two significant digits: an error's order of magnitude is what tells rows apart.
std::string sci(double x) { return std::isnan(x) ? "nan" : format("%.1e", x); }

bool has_figure(const BenchmarkResult& r) { return r.status == Status::ok || r.status == Status::estimated; }

// The notes of a row, each a footnote: how its figures were obtained where that is not the default.
std::vector<std::string> notes_of(const BenchmarkResult& r) {
  std::vector<std::string> notes;
  const bool figure = has_figure(r);
  if (r.backend.host_resident && figure) notes.push_back("end to end by nature: its matrices stay in host memory");
  if (r.speedup > 0)
    notes.push_back("on " + std::to_string(r.devices) + " GPUs: " + sig3(r.speedup) + "x one GPU's cuBLAS (" +
                    r.speedup_basis + " time), efficiency " + sig3(r.efficiency));
  if (!r.verification_sample.empty()) notes.push_back("verified on " + r.verification_sample);
  if (!r.reason.empty()) notes.push_back(r.status == Status::ok ? r.reason : to_string(r.status) + ": " + r.reason);
  return notes;
}

struct Table {
  std::vector<const Column*> columns;
  bool teraflops = false;
  std::vector<std::vector<std::string>> rows;  // header first
  std::vector<std::string> footnotes;          // [i] is footnote i + 1
  std::vector<std::string> not_run;            // the unavailable rows, a line per reason
};

std::string cell(const Column& c, const BenchmarkResult& r, const RunContext& context, bool teraflops,
                 const std::string& note_numbers) {
  const std::string name = c.name;
  const bool timed = r.status == Status::ok, figure = has_figure(r), checked = r.verified;
  const std::string mark = timed ? "" : "~";
  if (name == "backend") return r.backend.name;
  if (name == "device") return to_string(r.backend.device);
  if (name == "precision") return to_string(r.backend.precision);
  if (name == "gpus") return r.devices > 0 ? std::to_string(r.devices) : "-";
  if (name == "shape") return to_string(r.shape);
  if (name == "time") return figure ? mark + duration(r.compute.median_ms) : "-";
  if (name == "noise") return timed && r.compute.samples > 1 ? percent(r.compute.cv) : "-";
  if (name == "total") return timed && r.total.samples > 0 ? duration(r.total.median_ms) : "-";
  if (name == "rate") return figure ? mark + sig3(teraflops ? r.gflops / 1000 : r.gflops) : "-";
  if (name == "peak") {
    const double peak = peak_gflops(context, r);
    if (!figure || peak <= 0) return "-";
    // Two decimals at most: a slow row's share of the peak needs no three significant digits.
    const double p = 100 * r.gflops / peak;
    return mark + (p >= 9.95 ? format("%.0f", p) : p >= 0.995 ? format("%.1f", p) : p >= 0.005 ? format("%.2f", p) : "<0.01");
  }
  if (name == "vendor") return figure && r.vs_vendor > 0 ? mark + sig3(r.vs_vendor) : "-";
  if (name == "iqr")
    return timed && r.vs_vendor_pairs > 1 && r.vs_vendor > 0
               ? percent((r.vs_vendor_q3 - r.vs_vendor_q1) / 2 / r.vs_vendor)
               : "-";
  if (name == "quartiles")
    return timed && r.vs_vendor_pairs > 1 ? sig3(r.vs_vendor_q1) + "-" + sig3(r.vs_vendor_q3) : "-";
  if (name == "prec-vendor") return figure && r.vs_precision_vendor > 0 ? mark + sig3(r.vs_precision_vendor) : "-";
  if (name == "best") return figure && r.vs_best_vendor > 0 ? mark + sig3(r.vs_best_vendor) : "-";
  if (name == "best-vendor") return figure && r.vs_best_vendor > 0 ? r.best_vendor : "-";
  if (name == "speedup") return r.speedup > 0 ? sig3(r.speedup) : "-";
  if (name == "efficiency") return r.efficiency > 0 ? sig3(r.efficiency) : "-";
  if (name == "max-err") return checked ? sci(r.errors.max_abs) : "-";
  if (name == "sum-err") return checked ? sci(r.errors.sum_abs) : "-";
  if (name == "rel-err") return checked ? sci(r.errors.rel_frobenius) : "-";
  if (name == "blas-ratio") return checked ? sig3(r.errors.blas_ratio) : "-";
  if (name == "pass") return r.verified ? (r.errors.passed ? "yes" : "NO") : "-";
  if (name == "kernel") return r.kernel.empty() ? "-" : r.kernel;
  return note_numbers.empty() ? "-" : note_numbers;  // notes
}

std::vector<const Column*> chosen_columns(const TableOptions& options) {
  const std::vector<std::string> names = options.columns.empty() ? default_table_columns() : options.columns;
  std::vector<const Column*> chosen;
  for (const std::string& name : names) chosen.push_back(&column(name));
  return chosen;
}

Table build_table(const RunContext& context, const std::vector<BenchmarkResult>& results,
                  const TableOptions& options) {
  Table t;
  t.columns = chosen_columns(options);
  double fastest = 0;
  for (const BenchmarkResult& r : results)
    if (has_figure(r)) fastest = std::max(fastest, r.gflops);
  t.teraflops = fastest >= 10000;
  std::vector<std::string> header;
  for (const Column* c : t.columns)
    header.push_back(std::string(c->name) == "rate" ? (t.teraflops ? "TFLOP/s" : "GFLOP/s") : c->header);
  t.rows.push_back(header);

  // Unavailable rows: one line per reason, naming the backends (and the shapes when not all of the run's).
  std::vector<std::string> reasons;
  std::map<std::string, std::vector<std::string>> backends_of, shapes_of;
  std::set<std::string> run_shapes;
  for (const BenchmarkResult& r : results) run_shapes.insert(to_string(r.shape));
  auto add_unique = [](std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  };
  for (const BenchmarkResult& r : results) {
    if (r.status == Status::unavailable) {
      if (!backends_of.count(r.reason)) reasons.push_back(r.reason);
      add_unique(backends_of[r.reason], r.backend.name);
      add_unique(shapes_of[r.reason], to_string(r.shape));
      continue;
    }
    std::string numbers;
    for (const std::string& note : notes_of(r)) {
      auto at = std::find(t.footnotes.begin(), t.footnotes.end(), note);
      if (at == t.footnotes.end()) at = t.footnotes.insert(t.footnotes.end(), note);
      numbers += (numbers.empty() ? "" : ",") + std::to_string(at - t.footnotes.begin() + 1);
    }
    std::vector<std::string> row;
    for (const Column* c : t.columns) row.push_back(cell(*c, r, context, t.teraflops, numbers));
    t.rows.push_back(row);
  }
  for (const std::string& reason : reasons) {
    std::string names;
    for (const std::string& b : backends_of[reason]) names += (names.empty() ? "" : ", ") + b;
    std::string line = "Not run (" + std::to_string(backends_of[reason].size()) + " backend" +
                       (backends_of[reason].size() > 1 ? "s" : "") + "): " + names;
    if (shapes_of[reason].size() < run_shapes.size()) {
      std::string shapes;
      for (const std::string& s : shapes_of[reason]) shapes += (shapes.empty() ? "" : ", ") + s;
      line += " on " + shapes;
    }
    t.not_run.push_back(line + ": " + reason);
  }
  return t;
}

// The legend of the shown columns, and which vendor each precision's "x best" means.
std::vector<std::string> legend(const Table& t, const std::vector<BenchmarkResult>& results) {
  std::vector<std::string> lines;
  for (const Column* c : t.columns) {
    const std::string name = c->name;
    if (name == "rate") {
      lines.push_back(std::string(t.teraflops ? "TFLOP/s" : "GFLOP/s") + ": 2MNK over the median time.");
    } else if (name == "best") {
      std::string best;
      std::set<std::string> seen;
      for (const BenchmarkResult& r : results)
        if (has_figure(r) && r.vs_best_vendor > 0 && seen.insert(r.best_vendor).second)
          best += (best.empty() ? "" : ", ") + r.best_vendor + " (" + to_string(r.backend.precision) + ")";
      lines.push_back("x best: against the fastest vendor library of the row's precision on its device in this run" +
                      (best.empty() ? std::string(".") : ": " + best + "."));
    } else if (*c->legend) {
      lines.push_back(c->legend);
    }
  }
  for (const BenchmarkResult& r : results)
    if (r.status == Status::estimated) {
      lines.push_back("~: estimated: one full run did not fit the row's time, so its figures come from timing and "
                      "verifying the first rows of C (its note says which).");
      break;
    }
  return lines;
}

// Greedy word wrap at `width`, continuation lines indented by `indent` spaces; a word longer than a line stays whole.
std::vector<std::string> wrapped(const std::string& text, std::size_t width, std::size_t indent) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    const std::size_t lead = lines.empty() ? 0 : indent;
    if (!line.empty() && lead + line.size() + 1 + word.size() > width) {
      lines.push_back(std::string(lead, ' ') + line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(std::string(lines.empty() ? 0 : indent, ' ') + line);
  return lines;
}

std::vector<std::string> context_lines(const RunContext& c) {
  std::vector<std::string> lines;
  lines.push_back("matcompare " + c.matcompare_version + " (" + c.git_commit + ", " + c.build_type + ") on " +
                  c.hostname);
  lines.push_back("CPU: " + c.cpu_model + ", " + std::to_string(c.cpu_cores) + " logical cores, OpenMP threads " +
                  std::to_string(c.omp_threads) + "; " + c.openblas_config + " (" + c.openblas_core + ", " +
                  c.openblas_parallel + ", " + std::to_string(c.openblas_threads) + " threads); cpu/blis " +
                  c.cpu_blis);
  if (c.gpu)
    lines.push_back("GPU " + std::to_string(c.gpu->index) + ": " + c.gpu->name + " (sm " + c.gpu->compute_capability +
                    ", " + std::to_string(c.gpu->multiprocessors) + " SMs, SM clock " +
                    std::to_string(c.gpu->sm_clock_observed_mhz) + " MHz seen / " +
                    std::to_string(c.gpu->sm_clock_max_mhz) + " max; driver " + c.gpu->driver_version +
                    ", runtime " + c.gpu->runtime_version + ", cuBLAS " + c.gpu->cublas_version + ")");
  else
    lines.push_back("GPU: none (" + c.gpu_unavailable_reason + ")");
  if (c.gpus.size() > 1 || c.multi_gpu_devices.size() > 1) {
    std::string line = "GPUs:";
    for (const GpuContext& g : c.gpus)
      line += " " + std::to_string(g.index) + " " + g.name + " (" + format("%.1f", g.memory_gib) + " GiB, " +
              g.pci_bus_id + ");";
    line += " multi-GPU rows on";
    for (int d : c.multi_gpu_devices) line += " " + std::to_string(d);
    lines.push_back(line);
  }
  if (c.gpu)
    lines.push_back("Multi-GPU: cuBLASXt tile " + std::to_string(c.cublasxt_block_dim) + "; " + c.cublasmp);
  for (const Peak& p : c.peaks) {
    std::string line = std::string(p.device == DeviceKind::cpu ? "CPU" : "GPU") + " peak: FP32 " +
                       sig3(p.fp32_gflops) + " GFLOP/s";
    if (p.tf32_gflops > 0) line += ", TF32 " + sig3(p.tf32_gflops) + " GFLOP/s";
    if (p.bandwidth_gbs > 0) line += ", memory " + sig3(p.bandwidth_gbs) + " GB/s";
    lines.push_back(line + " (" + p.basis + ")");
  }
  lines.push_back("Inputs: " + describe(c.options.input_values) + ", seed " + std::to_string(c.options.seed));
  return lines;
}

}  // namespace

std::vector<std::string> table_columns() {
  std::vector<std::string> names;
  for (const Column& c : kColumns) names.push_back(c.name);
  return names;
}

std::vector<std::string> default_table_columns() {
  std::vector<std::string> names;
  for (const Column& c : kColumns)
    if (c.by_default) names.push_back(c.name);
  return names;
}

std::vector<std::string> parse_table_columns(const std::string& text) {
  if (text == "wide") return table_columns();
  std::set<std::string> wanted;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = text.find(',', at);
    const std::string name = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (name.empty()) throw std::invalid_argument("--columns '" + text + "' has an empty name");
    column(name);  // throws for an unknown one
    if (!wanted.insert(name).second) throw std::invalid_argument("--columns names '" + name + "' twice");
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  std::vector<std::string> names;
  for (const Column& c : kColumns)
    if (wanted.count(c.name)) names.push_back(c.name);
  return names;
}

void write_table(std::ostream& out, const RunContext& context, const std::vector<BenchmarkResult>& results,
                 const TableOptions& options) {
  const Table t = build_table(context, results, options);
  const std::size_t width = std::size_t(std::max(options.width, 40));
  for (const std::string& line : context_lines(context))
    for (const std::string& part : wrapped(line, width, 2)) out << part << "\n";
  out << "\n";
  std::vector<std::size_t> widths(t.columns.size(), 0);
  for (const auto& row : t.rows)
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  // Two spaces between columns; one where the default columns would pass the width with two (a long shape such as
  // 16384x128256x8192 NT). Columns asked for (--columns, --wide) keep two: they are as wide as they were asked.
  std::size_t spread = 2 * (widths.size() - 1);
  for (const std::size_t w : widths) spread += w;
  const std::string gap(options.columns.empty() && spread > width ? 1 : 2, ' ');
  for (const auto& row : t.rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(widths[i] - row[i].size(), ' ');
      line += (i ? gap : "") + (t.columns[i]->numeric ? pad + row[i] : row[i] + pad);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  std::vector<std::string> after;
  for (std::size_t i = 0; i < t.footnotes.size(); ++i)
    after.push_back("[" + std::to_string(i + 1) + "] " + t.footnotes[i]);
  after.insert(after.end(), t.not_run.begin(), t.not_run.end());
  if (!after.empty()) out << "\n";
  for (const std::string& line : after)
    for (const std::string& part : wrapped(line, width, 4)) out << part << "\n";
  out << "\n";
  for (const std::string& line : legend(t, results))
    for (const std::string& part : wrapped(line, width, 2)) out << part << "\n";
}

void write_markdown(std::ostream& out, const RunContext& context, const std::vector<BenchmarkResult>& results,
                    const TableOptions& options) {
  const Table t = build_table(context, results, options);
  auto md = [](const std::string& s) {
    std::string escaped;
    for (char ch : s) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return escaped;
  };
  for (const std::string& line : context_lines(context)) out << "> " << md(line) << "\n";
  out << "\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out << "|";
    for (const std::string& c : t.rows[r]) out << " " << md(c) << " |";
    out << "\n";
    if (r == 0) {
      out << "|";
      for (const Column* c : t.columns) out << (c->numeric ? "---:|" : "---|");
      out << "\n";
    }
  }
  if (!t.footnotes.empty() || !t.not_run.empty()) out << "\n";
  for (std::size_t i = 0; i < t.footnotes.size(); ++i) out << "[" << i + 1 << "] " << md(t.footnotes[i]) << "  \n";
  for (const std::string& line : t.not_run) out << md(line) << "  \n";
  out << "\n";
  for (const std::string& line : legend(t, results)) out << md(line) << "  \n";
}

}  // namespace matcompare
