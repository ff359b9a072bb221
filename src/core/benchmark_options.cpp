#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "matcompare/benchmark.hpp"

namespace matcompare {

namespace {

template <typename Value>
void require(bool ok, const char* option, const char* expected, Value value) {
  if (ok) return;
  std::ostringstream message;
  message << "BenchmarkOptions::" << option << " must be " << expected << ", got " << value;
  throw std::invalid_argument(message.str());
}

}  // namespace

void check_options(const BenchmarkOptions& o) {
  // Each of these would otherwise hang the sampling loop, divide by zero or report NaN as a result.
  require(o.repetitions >= 1, "repetitions", "at least 1", o.repetitions);
  require(std::isfinite(o.min_time_s) && o.min_time_s >= 0, "min_time_s", "finite and >= 0", o.min_time_s);
  require(std::isfinite(o.time_limit_s) && o.time_limit_s > 0, "time_limit_s", "finite and > 0", o.time_limit_s);
  require(std::isfinite(o.budget_s) && o.budget_s >= 0, "budget_s", "finite and >= 0 (0: the default)", o.budget_s);
  require(std::isfinite(o.alpha), "alpha", "finite", o.alpha);
  require(std::isfinite(o.beta), "beta", "finite", o.beta);
}

double run_budget_s(const BenchmarkOptions& options, std::size_t shape_count) {
  return options.budget_s > 0 ? options.budget_s : kDefaultBudgetPerShape * double(shape_count);
}

}  // namespace matcompare
