#include "partial_results.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <sstream>
#include <utility>

#include "interrupt.hpp"
#include "output_file.hpp"

PartialResults::PartialResults(std::string path, Run run) : path_(std::move(path)), run_(std::move(run)) {
  if (path_.empty()) return;
  struct stat existing {};
  if (lstat(path_.c_str(), &existing) == 0) {
    std::cerr << "matcompare: note: '" << path_
              << "' exists (an earlier stopped run's results?): it is left as it is, and this run keeps no results of "
                 "its finished shapes beside --out"
              << std::endl;
    path_.clear();
    return;
  }
  note_ = "; the results of the finished shapes are in " + path_ + "\n";
}

PartialResults::~PartialResults() { partial_results_kept(nullptr); }

void PartialResults::add(const std::vector<matcompare::BenchmarkResult>& shape_results) {
  if (path_.empty() || failed_) return;
  results_.insert(results_.end(), shape_results.begin(), shape_results.end());
  try {
    std::vector<matcompare::BenchmarkResult> sorted = results_;
    matcompare::sort_results(sorted, run_.sort_key);
    std::ostringstream text;
    matcompare::write_results(text, run_.format, run_.context, sorted, run_.table);
    OutputFile file(path_, PendingFile::partial, run_.mode);
    file.commit(text.str());
    written_ = true;
    partial_results_kept(note_.c_str());
  } catch (const std::exception& e) {
    failed_ = true;
    std::cerr << "matcompare: note: the finished shapes' results are not kept beside --out (" << e.what() << ")"
              << std::endl;
  }
}

void PartialResults::remove() {
  partial_results_kept(nullptr);
  if (written_) unlink(path_.c_str());
  written_ = false;
}

std::string PartialResults::where_kept() const {
  return written_ ? note_.substr(0, note_.size() - 1) : "";  // the signal's line without its newline
}
