#include "matcompare/reporters.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "json_fields.hpp"
#include "reporter_gbench.hpp"

namespace matcompare {
namespace {

using json = nlohmann::ordered_json;

std::string fixed(double x, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

std::string sci(double x) {
  if (std::isnan(x)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", x);
  return text;
}

std::vector<std::string> header() {
  return {"backend", "device", "GPUs", "shape", "median ms", "total ms", "GFLOP/s", "x vendor", "x vendor IQR",
          "x prec. vendor", "x best vendor", "best vendor", "speedup", "efficiency",
          "max abs err",
          "sum abs err", "rel err", "blas ratio", "pass", "note"};
}

std::vector<std::string> cells(const BenchmarkResult& r) {
  const bool timed = r.status == Status::ok;
  const bool checked = r.verified;
  // An estimate's figures carry "~", and its note says which rows they come from.
  const bool figure = timed || r.status == Status::estimated;
  const std::string mark = timed ? "" : "~";
  std::string pass = r.verified ? (r.errors.passed ? "yes" : "NO") : "-";
  std::string note = r.backend.precision == Precision::tf32 && figure ? "tf32" : "";
  auto add = [&](const std::string& text) { note += (note.empty() ? "" : "; ") + text; };
  if (r.backend.host_resident && figure) add("end to end: host-resident matrices");
  if (r.speedup > 0) add("speedup over 1-GPU cuBLAS, " + r.speedup_basis);
  if (!r.kernel.empty() && figure) add("kernel " + r.kernel);
  if (!r.verification_sample.empty()) add("verified on " + r.verification_sample);
  if (!r.reason.empty()) note += (note.empty() ? "" : "; ") + (timed ? r.reason : to_string(r.status) + ": " + r.reason);
  return {r.backend.name,
          to_string(r.backend.device),
          r.devices > 0 ? std::to_string(r.devices) : "-",
          to_string(r.shape),
          figure ? mark + fixed(r.compute.median_ms, 3) : "-",
          timed && r.total.samples > 0 ? fixed(r.total.median_ms, 3) : "-",
          figure ? mark + fixed(r.gflops, 1) : "-",
          figure && r.vs_vendor > 0 ? mark + fixed(r.vs_vendor, 2) : "-",
          timed && r.vs_vendor_pairs > 0 ? fixed(r.vs_vendor_q1, 2) + "-" + fixed(r.vs_vendor_q3, 2) : "-",
          figure && r.vs_precision_vendor > 0 ? mark + fixed(r.vs_precision_vendor, 2) : "-",
          figure && r.vs_best_vendor > 0 ? mark + fixed(r.vs_best_vendor, 2) : "-",
          figure && r.vs_best_vendor > 0 ? r.best_vendor : "-",
          r.speedup > 0 ? fixed(r.speedup, 2) : "-",
          r.efficiency > 0 ? fixed(r.efficiency, 2) : "-",
          checked ? sci(r.errors.max_abs) : "-",
          checked ? sci(r.errors.sum_abs) : "-",
          checked ? sci(r.errors.rel_frobenius) : "-",
          checked ? fixed(r.errors.blas_ratio, 2) : "-",
          pass,
          note};
}

void write_context_lines(std::ostream& out, const RunContext& c, const char* prefix) {
  out << prefix << "matcompare " << c.matcompare_version << " (" << c.git_commit << ", " << c.build_type << ") on "
      << c.hostname << "\n";
  out << prefix << "CPU: " << c.cpu_model << ", " << c.cpu_cores << " logical cores, OpenMP threads " << c.omp_threads
      << "; " << c.openblas_config << " (" << c.openblas_core << ", " << c.openblas_parallel << ", "
      << c.openblas_threads << " threads); cpu/blis " << c.cpu_blis << "\n";
  if (c.gpu)
    out << prefix << "GPU " << c.gpu->index << ": " << c.gpu->name << " (sm " << c.gpu->compute_capability << ", "
        << c.gpu->multiprocessors << " SMs, SM clock " << c.gpu->sm_clock_observed_mhz << " MHz seen / "
        << c.gpu->sm_clock_max_mhz << " max; driver " << c.gpu->driver_version << ", runtime " << c.gpu->runtime_version
        << ", cuBLAS " << c.gpu->cublas_version << ")\n";
  else
    out << prefix << "GPU: none (" << c.gpu_unavailable_reason << ")\n";
  if (c.gpus.size() > 1 || c.multi_gpu_devices.size() > 1) {
    out << prefix << "GPUs:";
    for (const GpuContext& g : c.gpus)
      out << " " << g.index << " " << g.name << " (" << fixed(g.memory_gib, 1) << " GiB, " << g.pci_bus_id << ");";
    out << " multi-GPU rows on";
    for (int d : c.multi_gpu_devices) out << " " << d;
    out << "\n";
  }
  if (c.gpu) out << prefix << "Multi-GPU: cuBLASXt tile " << c.cublasxt_block_dim << "; " << c.cublasmp << "\n";
  out << prefix << "Inputs: " << describe(c.options.input_values) << ", seed " << c.options.seed << "\n";
}

void write_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i + 1 < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string md_cell(std::string s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

void check_format(Format format, const char* where) {
  if (format != Format::table && format != Format::markdown && format != Format::csv && format != Format::json &&
      format != Format::gbench)
    throw std::invalid_argument(std::string(where) + ": Format " + std::to_string(static_cast<int>(format)) +
                                " is none of table, markdown, csv, json, gbench");
}

}  // namespace

Format parse_format(const std::string& name) {
  if (name == "table") return Format::table;
  if (name == "md" || name == "markdown") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "gbench") return Format::gbench;
  throw std::invalid_argument("unknown format '" + name + "' (use table, md, csv, json or gbench)");
}

void write_results(std::ostream& out, Format format, const RunContext& context,
                   const std::vector<BenchmarkResult>& results) {
  check_format(format, "write_results");
  switch (format) {
    case Format::gbench:
      write_gbench(out, context, results);
      return;
    case Format::json: {
      json j;
      j["context"] = context_json(context);
      j["results"] = json::array();
      for (const auto& r : results) j["results"].push_back(result_json(r));
      // Invalid UTF-8 (from argv or a hostname) must not lose a finished run.
      out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
      return;
    }
    case Format::csv: {
      // Columns in the spirit of the CUTLASS profiler's CSV.
      out << "backend,device,precision,m,n,k,layout,alpha,beta,runtime_ms,total_ms,gflops,vs_vendor,vs_vendor_q1,vs_vendor_q3,"
             "vs_precision_vendor,vs_best_vendor,best_vendor,devices,speedup,efficiency,"
             "max_abs_error,sum_abs_error,rel_error,blas_ratio,disposition,reason,machine,git_commit\n";
      // Every row says where and at which commit it ran, so rows of several runs can share one sheet.
      const std::string cpu_machine = csv_field(context.cpu_model);
      const std::string gpu_machine = csv_field(context.gpu ? context.gpu->name : std::string());
      const std::string commit = csv_field(context.git_commit);
      for (const auto& r : results) {
        const json j = result_json(r);
        // Six significant digits: a median of timed samples has no more, and 5.6600494999999995 helps no sheet.
        auto num = [&](const char* key) {
          const json& v = j[key];
          if (v.is_null()) return std::string();
          if (v.is_number_integer()) return v.dump();
          char text[32];
          std::snprintf(text, sizeof text, "%.6g", v.get<double>());
          return std::string(text);
        };
        std::string disposition = r.status == Status::ok ? "passed" : to_string(r.status);
        out << csv_field(r.backend.name) << ',' << to_string(r.backend.device) << ','
            << to_string(r.backend.precision) << ',' << r.shape.m << ',' << r.shape.n << ',' << r.shape.k << ','
            << to_string(r.shape.layout) << ',' << r.alpha << ',' << r.beta << ',' << num("median_ms") << ','
            << num("total_ms") << ',' << num("gflops")
            << ',' << num("vs_vendor") << ',' << num("vs_vendor_q1") << ',' << num("vs_vendor_q3") << ','
            << num("vs_precision_vendor") << ',' << num("vs_best_vendor") << ','
            << csv_field(j["best_vendor"].is_null() ? std::string() : j["best_vendor"].get<std::string>()) << ','
            << num("devices") << ',' << num("speedup") << ','
            << num("efficiency") << ',' << num("max_abs_error") << ',' << num("sum_abs_error") << ','
            << num("rel_error") << ',' << num("blas_ratio") << ',' << disposition << ',' << csv_field(r.reason) << ','
            << (r.backend.device == DeviceKind::gpu ? gpu_machine : cpu_machine) << ',' << commit << "\n";
      }
      return;
    }
    case Format::markdown: {
      write_context_lines(out, context, "> ");
      out << "\n";
      const auto h = header();
      out << "|";
      for (const auto& c : h) out << " " << c << " |";
      out << "\n|";
      // Numbers right-aligned, names and words left.
      for (const auto& column : h)
        out << (column == "backend" || column == "device" || column == "shape" || column == "best vendor" ||
                        column == "pass" || column == "note"
                    ? "---|"
                    : "---:|");
      out << "\n";
      for (const auto& r : results) {
        out << "|";
        for (const auto& c : cells(r)) out << " " << md_cell(c) << " |";
        out << "\n";
      }
      return;
    }
    case Format::table: {
      write_context_lines(out, context, "");
      std::vector<std::vector<std::string>> rows{header()};
      for (const auto& r : results) rows.push_back(cells(r));
      out << "\n";
      write_text_table(out, rows);
      return;
    }
  }
}

void write_backend_list(std::ostream& out, Format format, const std::vector<const Backend*>& backends) {
  check_format(format, "write_backend_list");
  if (format == Format::gbench)
    throw std::invalid_argument("the gbench format holds measured results; --list writes table, md, csv or json");
  for (std::size_t i = 0; i < backends.size(); ++i)
    if (!backends[i]) throw std::invalid_argument("write_backend_list: backends[" + std::to_string(i) + "] is null");
  if (format == Format::json) {
    json j;
    j["backends"] = json::array();
    for (const Backend* b : backends) {
      const Availability a = b->availability();
      j["backends"].push_back({{"name", b->info().name},
                               {"device", to_string(b->info().device)},
                               {"seed", b->info().seed},
                               {"idea", b->info().idea},
                               {"precision", to_string(b->info().precision)},
                               {"vendor", b->info().vendor},
                               {"available", a.available},
                               {"reason", a.reason}});
    }
    out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return;
  }
  std::vector<std::vector<std::string>> rows{{"backend", "device", "precision", "seed step", "available", "idea"}};
  for (const Backend* b : backends) {
    const Availability a = b->availability();
    rows.push_back({b->info().name, to_string(b->info().device), to_string(b->info().precision), b->info().seed,
                    a.available ? "yes" : "no: " + a.reason, b->info().idea});
  }
  if (format == Format::csv) {
    for (const auto& row : rows) {
      for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << csv_field(row[i]);
      out << "\n";
    }
  } else if (format == Format::markdown) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out << "|";
      for (const auto& c : rows[r]) out << " " << md_cell(c) << " |";
      out << "\n";
      if (r == 0) out << "|---|---|---|---|---|---|\n";
    }
  } else {
    write_text_table(out, rows);
  }
}

}  // namespace matcompare
