#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "argument_checks.hpp"
#include "matcompare/benchmark.hpp"

namespace matcompare {

namespace {

template <typename Value>
void require(bool ok, const char* option, const std::string& expected, Value value) {
  if (ok) return;
  std::ostringstream message;
  message << "BenchmarkOptions::" << option << " must be " << expected << ", got " << value;
  throw std::invalid_argument(message.str());
}

std::string at_most(double seconds) { return "at most " + std::to_string(static_cast<long long>(seconds)) + " s"; }

}  // namespace

void check_options(const BenchmarkOptions& o) {
  // Each of these would otherwise hang the sampling loop, divide by zero, overflow a deadline or report NaN as a
  // result.
  require(o.repetitions >= 1, "repetitions", "at least 1", o.repetitions);
  require(std::isfinite(o.min_time_s) && o.min_time_s >= 0 && o.min_time_s <= kMaxMinTimeS, "min_time_s",
          "finite, >= 0 and " + at_most(kMaxMinTimeS), o.min_time_s);
  require(std::isfinite(o.time_limit_s) && o.time_limit_s > 0 && o.time_limit_s <= kMaxTimeLimitS, "time_limit_s",
          "finite, > 0 and " + at_most(kMaxTimeLimitS), o.time_limit_s);
  require(std::isfinite(o.budget_s) && o.budget_s >= 0 && o.budget_s <= kMaxBudgetS, "budget_s",
          "finite, >= 0 (0: the default) and " + at_most(kMaxBudgetS), o.budget_s);
  require(std::isfinite(o.alpha), "alpha", "finite", o.alpha);
  require(std::isfinite(o.beta), "beta", "finite", o.beta);
  require(known(o.input_values), "input_values", "uniform, integers_1_100 or reals_1_100",
          static_cast<int>(o.input_values));
  require(std::isfinite(o.full_reference_max_flops) && o.full_reference_max_flops >= 0, "full_reference_max_flops",
          "finite and >= 0", o.full_reference_max_flops);
}

double run_budget_s(const BenchmarkOptions& options, std::size_t shape_count) {
  return options.budget_s > 0 ? options.budget_s : kDefaultBudgetPerShape * double(shape_count);
}

}  // namespace matcompare
