#include "run_comparison.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace {

constexpr std::size_t kTableColumns = 120;  // a terminal's width the table keeps to where it can

using Key = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::string, double, double>;

Key key_of(const SavedRow& r) { return {r.backend, r.m, r.n, r.k, r.layout, r.alpha, r.beta}; }

std::string shape_of(const SavedRow& r) {
  const std::string mnk = std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k);
  return r.layout == "NN" ? mnk : mnk + " " + r.layout;
}

bool has_figure(const SavedRow& r) { return r.status == "ok" || r.status == "estimated"; }
bool has_pairs(const SavedRow& r) { return r.status == "ok" && r.vs_vendor_pairs > 0 && r.vs_vendor_q1 > 0; }
bool has_range(const SavedRow& r) { return r.status == "ok" && r.samples >= 2 && r.min_ms > 0; }

void judge(RowComparison& c, double threshold) {
  const SavedRow& b = *c.base;
  const SavedRow& n = *c.next;
  const bool failed_before = b.status == "failed" || (b.verified && !b.passed);
  const bool fails_now = n.status == "failed" || (n.verified && !n.passed);
  if (fails_now && !failed_before) {
    c.verdict = Verdict::now_fails;
    c.regression = true;
    return;
  }
  if (failed_before && !fails_now && has_figure(n)) {
    c.verdict = Verdict::now_passes;
    return;
  }
  if (!has_figure(b) || !has_figure(n)) {
    c.verdict = Verdict::not_measured;
    return;
  }
  bool apart = false;  // the two runs' spreads do not overlap
  c.time_change = n.median_ms / b.median_ms - 1;
  c.change = c.time_change;
  if (has_pairs(b) && has_pairs(n)) {
    c.basis = NoiseBasis::pairs;
    c.change = b.vs_vendor / n.vs_vendor - 1;
    apart = n.vs_vendor_q3 < b.vs_vendor_q1 || n.vs_vendor_q1 > b.vs_vendor_q3;
  } else if (has_range(b) && has_range(n)) {
    c.basis = NoiseBasis::range;
    apart = n.min_ms > b.max_ms || n.max_ms < b.min_ms;
  }
  const bool slower = apart && c.change > kMinFlaggedChange;
  const bool faster = apart && c.change < -kMinFlaggedChange;
  c.verdict = slower ? Verdict::slower : faster ? Verdict::faster : Verdict::same;
  c.regression = slower && c.change > std::max(threshold, 0.0);
}

std::string percent(double change) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", 100 * change);
  return text;
}

std::string figure(double x, const char* format) {
  if (!(x > 0)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, x);
  return text;
}

// A run's spread on the basis the verdict used, in % of its median: half the pairs' interquartile range of x vendor,
// or half its [fastest, slowest] sample times.
std::string spread(const SavedRow& r, NoiseBasis basis) {
  const double half = basis == NoiseBasis::pairs   ? (r.vs_vendor_q3 - r.vs_vendor_q1) / 2 / r.vs_vendor
                      : basis == NoiseBasis::range ? (r.max_ms - r.min_ms) / 2 / r.median_ms
                                                   : 0;
  char text[32];
  std::snprintf(text, sizeof text, 100 * half < 9.95 ? "%.1f" : "%.0f", 100 * half);
  return text;
}

std::string spreads_of(const RowComparison& c) {
  if (c.basis == NoiseBasis::none) return "-";
  return "±" + spread(*c.base, c.basis) + "/" + spread(*c.next, c.basis) + "%";
}

// Columns on a terminal: UTF-8 continuation bytes (the ± of the spreads) take none.
std::size_t display_width(const std::string& text) {
  return std::size_t(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string describe(const SavedRun& run) {
  std::string text = run.path + " (" + (run.git_commit.empty() ? "no commit" : run.git_commit);
  if (!run.machine.empty()) text += ", " + run.machine;
  if (!run.hostname.empty()) text += " on " + run.hostname;
  if (!run.timestamp_utc.empty()) text += ", " + run.timestamp_utc;
  return text + ")";
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::same: return "within noise";
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::now_fails: return "NOW FAILS";
    case Verdict::now_passes: return "now passes";
    case Verdict::only_in_base: return "only in base";
    case Verdict::only_in_new: return "only in new";
    case Verdict::not_measured: break;
  }
  return "not measured";
}

Comparison compare_runs(const SavedRun& base, const SavedRun& next, double threshold) {
  Comparison result;
  result.same_machine = base.machine == next.machine;
  std::map<Key, const SavedRow*> in_next;
  for (const SavedRow& r : next.rows) in_next.emplace(key_of(r), &r);
  std::map<Key, bool> matched;
  for (const SavedRow& b : base.rows) {
    if (matched.count(key_of(b))) continue;  // a backend and shape measured twice in one file: the first counts
    RowComparison c;
    c.backend = b.backend;
    c.shape = shape_of(b);
    c.base = b;
    const auto it = in_next.find(key_of(b));
    matched[key_of(b)] = true;
    if (it == in_next.end()) {
      c.verdict = Verdict::only_in_base;
    } else {
      c.next = *it->second;
      judge(c, threshold);
    }
    result.rows.push_back(std::move(c));
  }
  for (const SavedRow& n : next.rows) {
    if (matched.count(key_of(n))) continue;
    matched[key_of(n)] = true;
    RowComparison c;
    c.backend = n.backend;
    c.shape = shape_of(n);
    c.next = n;
    c.verdict = Verdict::only_in_new;
    result.rows.push_back(std::move(c));
  }
  for (const RowComparison& c : result.rows) {
    result.faster += c.verdict == Verdict::faster;
    result.slower += c.verdict == Verdict::slower;
    result.regressions += c.regression;
  }
  return result;
}

void write_comparison(std::ostream& out, const SavedRun& base, const SavedRun& next, const Comparison& comparison,
                      double threshold) {
  out << "base: " << describe(base) << "\n";
  out << "new:  " << describe(next) << "\n";
  if (!comparison.same_machine)
    out << "note: the runs come from different machines (" << base.machine << "; " << next.machine
        << "): a change may be the machine's\n";
  std::vector<std::vector<std::string>> rows{
      {"backend", "shape", "base ms", "new ms", "time", "xv base", "xv new", "judged", "spread", "verdict"}};
  for (const RowComparison& c : comparison.rows) {
    const bool both = c.base && c.next && has_figure(*c.base) && has_figure(*c.next);
    rows.push_back({c.backend, c.shape, c.base ? figure(c.base->median_ms, "%.3g") : "-",
                    c.next ? figure(c.next->median_ms, "%.3g") : "-", both ? percent(c.time_change) : "-",
                    c.base ? figure(c.base->vs_vendor, "%.3g") : "-", c.next ? figure(c.next->vs_vendor, "%.3g") : "-",
                    both ? percent(c.change) : "-", spreads_of(c),
                    std::string(to_string(c.verdict)) + (c.regression ? " (regression)" : "")});
  }
  // Numbers right-aligned, words left; the columns two spaces apart, or one where two would pass 120 columns.
  const std::vector<bool> right{false, false, true, true, true, true, true, true, false, false};
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
  std::size_t total = 2 * (width.size() - 1);
  for (std::size_t w : width) total += w;
  const std::string gap(total > kTableColumns ? 1 : 2, ' ');
  out << "\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - display_width(row[i]), ' ');
      line += (i ? gap : "") + (right[i] ? pad + row[i] : row[i] + pad);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  char summary[160];
  std::snprintf(summary, sizeof summary, "\n%zu rows: %d faster, %d slower beyond the noise", comparison.rows.size(),
                comparison.faster, comparison.slower);
  out << summary;
  if (threshold >= 0) {
    std::snprintf(summary, sizeof summary, "; %d regressions (slower by over %g%%, or failing where they passed)",
                  comparison.regressions, 100 * threshold);
    out << summary;
  }
  out << "\ntime: new median / base median - 1. xv base, xv new: x vendor in each run. judged: the change the verdict\n"
         "weighs, the x vendor's (base / new - 1) where both runs timed the row in pairs with its vendor, else the time's.\n"
         "Beyond the noise: the runs' interquartile ranges of the per-pair x vendor ratios (where the x vendor's change\n"
         "is judged) or their sample times [fastest, slowest] (else) do not overlap, and the change is over "
      << int(100 * kMinFlaggedChange)
      << "%.\nspread: half of each of those ranges, base/new, in % of its median.\n";
}
