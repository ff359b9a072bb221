#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include "test_support.hpp"

__attribute__((weak)) std::string matcompare_test::skip_reason() { return ""; }

// Runs the suite; a suite may set a skip reason before any test runs (see test_gpu_backends).
int main(int argc, char** argv) {
  const std::string skip = matcompare_test::skip_reason();
  if (!skip.empty()) {
    std::printf("SKIPPED: %s\n", skip.c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
