#pragma once
// The gbench format: Google Benchmark's JSON (json_schema_version 1), so its tools (tools/compare.py) read our runs.
#include <ostream>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"

namespace matcompare {

// One benchmark per result, named "BACKEND/MxNxK" (with "/TN" for a layout other than NN, and "/alpha:A/beta:B"
// unless α = 1 and β = 0), its real_time
// the compute-only median in microseconds. Google Benchmark's cpu_time is the host CPU time of the thread; we time
// devices, so cpu_time repeats real_time (its tools need both). Unavailable and failed rows are error_occurred with
// their reason, as Google Benchmark writes a benchmark that reported an error. Our own figures ride along as
// counters: GFLOPS, x_vendor, x_best_vendor, rel_error.
void write_gbench(std::ostream& out, const RunContext& context, const std::vector<BenchmarkResult>& results);

}  // namespace matcompare
