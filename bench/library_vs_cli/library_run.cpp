// The library's side of bench/library_vs_cli/compare.sh: run_benchmarks on one square size as a program that links
// matcompare would, setting no environment variable, and the run as JSON on stdout.
#include <matcompare/matcompare.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: library_run SIZE FILTER BUDGET_S\n";
    return 2;
  }
  using namespace matcompare;
  const std::int64_t n = std::atoll(argv[1]);
  BenchmarkOptions options;
  options.budget_s = std::atof(argv[3]);
  const auto results = run_benchmarks(select_backends(argv[2]), {{n, n, n}}, options);
  write_results(std::cout, Format::json, collect_context("library_run", options), results);
  return 0;
}
