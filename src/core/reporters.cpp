#include "matcompare/reporters.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

#include "json_fields.hpp"
#include "reporter_gbench.hpp"
#include "reporter_table.hpp"

namespace matcompare {
namespace {

using json = nlohmann::ordered_json;

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
                   const std::vector<BenchmarkResult>& results, const TableOptions& table) {
  check_format(format, "write_results");
  std::set<std::string> shown;
  for (const std::string& name : table.columns) {
    // One name each: "wide" and lists are parse_table_columns's to expand.
    if (name == "wide" || name.find(',') != std::string::npos)
      throw std::invalid_argument("TableOptions::columns holds '" + name + "', not one column's name");
    parse_table_columns(name);  // an unknown name throws, naming the known ones
    if (!shown.insert(name).second) throw std::invalid_argument("TableOptions::columns names '" + name + "' twice");
  }
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
    case Format::markdown:
      write_markdown(out, context, results, table);
      return;
    case Format::table:
      write_table(out, context, results, table);
      return;
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
