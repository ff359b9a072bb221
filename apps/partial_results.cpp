#include "partial_results.hpp"

#include <unistd.h>

#include <iostream>
#include <sstream>
#include <utility>

#include "interrupt.hpp"
#include "output_file.hpp"

PartialResults::PartialResults(std::string path, Run run) : path_(std::move(path)), run_(std::move(run)) {
  if (!path_.empty()) note_ = "; the results of the finished shapes are in " + path_ + "\n";
}

PartialResults::~PartialResults() { partial_results_kept(nullptr); }

void PartialResults::add(const std::vector<matcompare::BenchmarkResult>& shape_results) {
  if (path_.empty() || failed_) return;
  results_.insert(results_.end(), shape_results.begin(), shape_results.end());
  try {
    if (!written_) {
      context_ = matcompare::collect_context(run_.command_line, run_.options);
      context_.suite = run_.suite;
    }
    std::vector<matcompare::BenchmarkResult> sorted = results_;
    matcompare::sort_results(sorted, run_.sort_key);
    std::ostringstream text;
    matcompare::write_results(text, run_.format, context_, sorted, run_.table);
    OutputFile file(path_, PendingFile::partial);
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
  return written_ ? "; the results of the finished shapes are in " + path_ : "";
}
