#pragma once
// Output formats of a run: each reporter prints the same results and context.
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

// Throws std::invalid_argument, before writing anything, for a format that is none of Format's; a result whose
// status, device or precision is none of its enum's throws too (to_string).
void write_results(std::ostream& out, Format format, const RunContext& context,
                   const std::vector<BenchmarkResult>& results);

// Throws std::invalid_argument, before writing anything, for a format that is none of Format's, for gbench (it
// holds results), or a null backend.
void write_backend_list(std::ostream& out, Format format, const std::vector<const Backend*>& backends);

}  // namespace matcompare
