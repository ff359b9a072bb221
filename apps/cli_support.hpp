#pragma once
// The CLI's own parts: shape lists and exit codes.
#include <chrono>
#include <string>
#include <vector>

#include "matcompare/benchmark.hpp"

// Shapes from --size/--m/--n/--k lists ("512,1024", ranges "512:2560:512"). Lists are zipped;
// a single value applies to every shape; a missing dimension takes the --size list, whose
// default is 1024. Throws std::invalid_argument with a one-line message.
std::vector<matcompare::GemmShape> parse_shapes(const std::string& sizes, const std::string& m, const std::string& n,
                                                const std::string& k);

// Every shape in each layout of a comma-separated list ("NN", "NT,TN"), shape by shape. Throws std::invalid_argument
// with a one-line message for an unknown or repeated layout.
std::vector<matcompare::GemmShape> with_layouts(const std::vector<matcompare::GemmShape>& shapes,
                                                const std::string& layouts);

// The CLI's exit codes: every row that ran passed; bad input (one line on stderr, nothing on stdout; an --out file
// that cannot be written, too); a row failed verification or hit an error (the results are still written); the
// results could not be written to standard output (a full disk, a closed stdout, a pipe whose reader went away
// while SIGPIPE is ignored); `compare --fail-on-regression` found a regression. A signal ends the process by that
// signal (interrupt.hpp).
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitRowFailed = 3;
constexpr int kExitOutputFailed = 4;
constexpr int kExitRegression = 5;

// kExitRowFailed when any result failed, else kExitOk: unavailable and estimated rows do not fail a run.
int exit_status(const std::vector<matcompare::BenchmarkResult>& results);
