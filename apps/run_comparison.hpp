#pragma once
// `matcompare compare BASE.json NEW.json`: each row and shape of two saved runs side by side, the change in its
// time, and whether that change is beyond the runs' own noise.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "saved_run.hpp"

// How a change is told from noise, per row:
//  - pairs: both runs timed the row in pairs with its device's vendor (every row but the vendor's own). The row's
//    × vendor is the median of per-pair ratios; the change is beyond the noise when the two runs' interquartile
//    ranges of those ratios do not overlap. Drift of the machine between the runs hits the row and its vendor
//    alike and cancels.
//  - range: otherwise (the vendor rows, and rows of runs without pairs): when the two runs' ranges of sample times
//    [fastest, slowest] do not overlap. Needs at least two samples in each run.
//  - none: one side has no samples to judge by (an estimate, a single sample): never flagged.
// Either way a change smaller than kMinFlaggedChange is never flagged: runs of unchanged code in two sessions on GPU
// machines of one kind differ by that much (bench/NOTES.md, "Comparing two runs").
constexpr double kMinFlaggedChange = 0.03;
enum class NoiseBasis { pairs, range, none };

enum class Verdict { same, faster, slower, now_fails, now_passes, only_in_base, only_in_new, not_measured };
const char* to_string(Verdict verdict);

struct RowComparison {
  std::string backend, shape;             // shape as MxNxK, and the layout after it where not NN
  std::optional<SavedRow> base, next;     // next: the row of NEW
  NoiseBasis basis = NoiseBasis::none;
  double time_change = 0;                 // the new run's median time over the base run's, minus one: +0.05 is 5% slower
  // The change the verdict judges: with the pairs basis, the × vendor's as a time would read it (base × vendor / new
  // × vendor - 1), else time_change.
  double change = 0;
  Verdict verdict = Verdict::same;
  bool regression = false;                // slower beyond the noise by more than the threshold, or newly failing
};

struct Comparison {
  std::vector<RowComparison> rows;
  bool same_machine = true;
  int faster = 0, slower = 0, regressions = 0;
};

// threshold: the least slowdown (0.05 = 5%) that counts as a regression; a row that passed verification in BASE
// and fails in NEW always does. Negative: no threshold was asked for (every slower row counts, and the written
// summary leaves regressions out).
Comparison compare_runs(const SavedRun& base, const SavedRun& next, double threshold);

void write_comparison(std::ostream& out, const SavedRun& base, const SavedRun& next, const Comparison& comparison,
                      double threshold);
