#include "budget_note.hpp"

#include <algorithm>

#include "../src/core/budget.hpp"
#include "../src/core/number_text.hpp"

namespace {

std::string seconds(double s) { return matcompare::format(s >= 100 ? "%.0f s" : "%.3g s", s); }  // 8000 s, not 8e+03

}  // namespace

std::string budget_overrun_note(const std::vector<matcompare::BenchmarkResult>& results, double budget_s,
                                double wall_s) {
  if (budget_s <= 0 || wall_s <= kBudgetNoteSlack * budget_s) return "";
  double within_shares_s = 0, past_shares_s = 0;
  for (const matcompare::BenchmarkResult& r : results) {
    within_shares_s += std::min(r.spent_s, r.budget_s);
    past_shares_s += std::max(0.0, r.spent_s - r.budget_s);
  }
  const double outside_rows_s = std::max(0.0, wall_s - within_shares_s - past_shares_s);
  return "matcompare: note: the run took " + seconds(wall_s) + " of its " + seconds(budget_s) + " budget: " +
         seconds(within_shares_s) + " in its rows' shares (each at least " + seconds(matcompare::kMinimumRowSeconds) +
         ", or one full run where that takes at most " + seconds(matcompare::kOneRunFloorSeconds) + "), " +
         seconds(past_shares_s) + " past them (planning trials, set-ups, uploads, first runs and verification, which a "
         "row spends however small its share), " + seconds(outside_rows_s) +
         " outside the rows (inputs and their float64 references); a budget cannot shorten these "
         "(docs/method.md, \"Budget\")";
}
