#pragma once
// Output formats of a run: each reporter prints the same results and context.
#include <ostream>
#include <string>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"
#include "matcompare/registry.hpp"

namespace matcompare {

enum class Format { table, markdown, csv, json };

// Accepts table, md (or markdown), csv, json; throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

void write_results(std::ostream& out, Format format, const RunContext& context,
                   const std::vector<BenchmarkResult>& results);

void write_backend_list(std::ostream& out, Format format, const std::vector<const Backend*>& backends);

}  // namespace matcompare
