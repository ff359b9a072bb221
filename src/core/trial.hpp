#pragma once
// The few-row trial: timing the first rows of C says what one full run of a backend costs, before its budget is
// planned and before it is decided whether it is measured in full or estimated.
#include <cstdint>

#include "matcompare/benchmark.hpp"

namespace matcompare {

// What timing a few rows of C says about one run: a fixed cost (packing or transposing B, launches, threads left
// idle by too few rows) plus a cost per row of C.
struct Trial {
  std::int64_t first_rows = 0;  // rows of the smallest trial: the fewest an estimate times
  double first_s = 0;           // and its time
  std::int64_t rows = 0;        // rows of the largest trial; M when it covered the whole problem (then exact)
  double rows_s = 0;            // and its time
  double per_row_s = 0;         // the slope between the two (0 when exact)
  bool superlinear = false;     // the cost per row still rose at the largest trial: time grows as rows squared
  double flush_s = 0;           // one cache flush on the backend's device, when the options flush
  double spent_s = 0;           // the trial's own wall time
  double run_s(std::int64_t m) const {
    const double scale = double(m) / double(rows);
    return superlinear ? rows_s * scale * scale : rows_s + per_row_s * double(m - rows);
  }
};

// Seconds per row of C between two timed row counts. More rows cannot cost less: noise that says so leaves the
// time proportional to the rows.
double cost_per_row(std::int64_t few_rows, double few_s, std::int64_t more_rows, double more_s);

// Times growing sets of the first rows of C until they say what a full run costs (see trial.cpp for the rules),
// and one cache flush when the options flush.
Trial trial_run(const Backend& backend, const Problem& p, const BenchmarkOptions& o);

}  // namespace matcompare
