#pragma once
// The finished shapes of a run kept beside its --out file while it goes on, as FILE.partial in the run's format and
// with --out's permissions: a run stopped before its end (a signal, a time limit, an error) leaves them behind and its
// last line says where; a run that ends normally deletes the file once --out is written. Each shape's results rewrite
// the whole file (a temporary file renamed over it), so it is never half written. Whatever is at FILE.partial before
// the run (an earlier stopped run's results, a link, a folder) is left alone: a note says so and nothing is kept.
#include <string>
#include <vector>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"
#include "matcompare/reporters.hpp"

class PartialResults {
 public:
  struct Run {
    matcompare::RunContext context;  // collected before the run: the final --out file's too
    matcompare::Format format = matcompare::Format::table;
    matcompare::TableOptions table;
    std::string sort_key;
    int mode = -1;  // the permission bits of the --out file it replaces (OutputFile::replaced_mode), or -1
  };
  // An empty path keeps nothing (--out is standard output, or a file written in place).
  PartialResults(std::string path, Run run);
  ~PartialResults();
  PartialResults(const PartialResults&) = delete;
  PartialResults& operator=(const PartialResults&) = delete;

  // Adds a finished shape's results and rewrites the file. A write that fails is said once on stderr, as a note, and
  // the run goes on without the file: it is a safeguard, not the result.
  void add(const std::vector<matcompare::BenchmarkResult>& shape_results);
  // The run ended normally and --out holds everything: the file goes.
  void remove();
  // The end of the line of a run that stops with an error: empty, or where the finished shapes' results are.
  std::string where_kept() const;

 private:
  std::string path_, note_;  // note_: the end of a signal's line, newline included
  Run run_;
  std::vector<matcompare::BenchmarkResult> results_;
  bool written_ = false, failed_ = false;
};
