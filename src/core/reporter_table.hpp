#pragma once
// The two formats a person reads: the terminal table and Markdown. Both print the run's context, one row per
// measured result in the chosen columns, notes as numbered footnotes, the rows that did not run grouped by reason,
// and what each shown column means.
#include <ostream>
#include <vector>

#include "matcompare/reporters.hpp"

namespace matcompare {

// The terminal table wraps every line of context and footnotes at options.width and right-aligns numbers.
void write_table(std::ostream& out, const RunContext& context, const std::vector<BenchmarkResult>& results,
                 const TableOptions& options);
void write_markdown(std::ostream& out, const RunContext& context, const std::vector<BenchmarkResult>& results,
                    const TableOptions& options);

}  // namespace matcompare
