#pragma once
// Output formats of a run: each reporter prints the same results and context.
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"
#include "matcompare/registry.hpp"

namespace matcompare {

// gbench: Google Benchmark's JSON, for its tools (src/core/reporter_gbench.hpp says what maps to what).
enum class Format { table, markdown, csv, json, gbench };

// Accepts table, md (or markdown), csv, json, gbench; throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

// What the table and Markdown formats show. Columns by name (table_columns() lists them); width: the terminal
// table's context, footnotes and legend wrap at it (the columns themselves are as wide as their widest cell, two
// spaces apart; the default columns one apart where two would pass it).
struct TableOptions {
  std::vector<std::string> columns;  // empty: default_table_columns()
  int width = 120;
};

// Every column the table can show, in the order it shows them.
std::vector<std::string> table_columns();
// The columns shown by default: they fit 120 characters for every backend name and a square shape.
std::vector<std::string> default_table_columns();
// "wide": every column; else a comma-separated list of names, shown in table order. Throws std::invalid_argument
// naming an unknown or repeated column and listing the known ones.
std::vector<std::string> parse_table_columns(const std::string& text);

// The keys sort_results takes: registry (as run), backend, time, rate, vendor, best, error.
std::vector<std::string> sort_keys();
// Gathers the results of each shape where its first one stands and orders them by `key`: time and error ascending, rates and
// ratios descending, rows without the figure last; ties keep their order. Throws std::invalid_argument naming an
// unknown key and listing the known ones.
void sort_results(std::vector<BenchmarkResult>& results, const std::string& key);

// Throws std::invalid_argument, before writing anything, for a format that is none of Format's or a column that is
// none of table_columns(); a result whose status, device or precision is none of its enum's throws too (to_string).
void write_results(std::ostream& out, Format format, const RunContext& context,
                   const std::vector<BenchmarkResult>& results, const TableOptions& table = {});

// A run that write_results saved as JSON, read back: matcompare show prints one in any format.
struct SavedResults {
  RunContext context;
  std::vector<BenchmarkResult> results;
};
// Throws std::invalid_argument naming the first field that is missing, of the wrong type or out of range
// ("results[3].median_ms must be a number or null"), or saying the text is not such a run. Fields added after a run
// was saved (a result's layout, the context's peaks) may be absent.
SavedResults read_results_json(std::istream& in);

// Throws std::invalid_argument, before writing anything, for a format that is none of Format's, for gbench (it
// holds results), or a null backend.
void write_backend_list(std::ostream& out, Format format, const std::vector<const Backend*>& backends);

}  // namespace matcompare
