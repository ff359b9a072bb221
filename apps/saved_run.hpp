#pragma once
// A run saved by `matcompare --format json`, read back for `matcompare compare` through the library's reader
// (read_results_json, which show uses too). Only what a comparison needs is kept; a damaged or foreign file is one
// clear error naming the file and the field, never a wrong figure.
#include <cstdint>
#include <string>
#include <vector>

#include "matcompare/reporters.hpp"

struct SavedRow {
  std::string backend, precision, status;
  std::int64_t m = 0, n = 0, k = 0;
  std::string layout = "NN";  // runs written before layouts existed have none: they were NN
  double alpha = 1, beta = 0;
  // Compute-only time of the row's samples; 0 where the file has none (unavailable, failed, estimated rows keep
  // median_ms only).
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int samples = 0;
  double gflops = 0;
  // The row's paired ratio to its device's vendor and the quartiles of the per-pair ratios; 0 where unknown.
  double vs_vendor = 0, vs_vendor_q1 = 0, vs_vendor_q3 = 0;
  int vs_vendor_pairs = 0;
  bool verified = false, passed = false;
};

struct SavedRun {
  std::string path;
  std::string git_commit, hostname, machine, timestamp_utc;  // machine: the GPU's name, else the CPU model
  std::vector<SavedRow> rows;
};

// The whole run, for matcompare show. Throws std::invalid_argument naming the file and the first field that is
// missing or of the wrong type, or saying the file cannot be read or is not such a run.
matcompare::SavedResults read_run_file(const std::string& path);

// Throws std::invalid_argument naming the file and the first field that is missing or of the wrong type:
// "base.json: results[3].median_ms must be a number or null".
SavedRun load_saved_run(const std::string& path);
