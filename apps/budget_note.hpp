#pragma once
// What the CLI says after a run that took well past its budget: where the time went that the budget could not cut.
// The budget divides what is left after each shape's fixed costs among the rows' samples; when the fixed costs
// alone outgrow it (DeepBench training's large products on the H200: about 300 s of them, bench/NOTES.md,
// "DeepBench training and the host's CPU suite at 48cc684"), the run can only overrun it, and says by how much and why.
#include <string>
#include <vector>

#include "matcompare/benchmark.hpp"

// Runs within this multiple of their budget pass without a word: a last sample past its deadline is part of the rule.
constexpr double kBudgetNoteSlack = 1.1;

// "" when `wall_s` is within kBudgetNoteSlack x `budget_s`; else one line: the run's time against its budget, the
// seconds its rows spent within their shares and past them (each row's planning trial, set-up, uploads, first run and
// verification, however small its share), and the seconds outside the rows (drawing inputs and their float64
// reference).
std::string budget_overrun_note(const std::vector<matcompare::BenchmarkResult>& results, double budget_s,
                                double wall_s);
