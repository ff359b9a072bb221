#pragma once
// What the suites share: the odd shapes of the acceptance list and a fresh-seed source.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "matcompare/matcompare.hpp"

namespace matcompare_test {

// A suite that cannot run here defines this to return why; the default is "".
std::string skip_reason();

inline std::vector<matcompare::GemmShape> odd_shapes() {
  return {{1, 1, 1}, {17, 33, 65}, {127, 253, 61}, {300, 1, 7}, {1, 300, 5}, {67, 45, 33}, {5, 7, 513}};
}

inline std::uint64_t fresh_seed() {
  static std::random_device device;
  return (std::uint64_t(device()) << 32) ^ device();
}

struct Scaling {
  float alpha, beta;
};

inline std::vector<Scaling> scalings() { return {{0.5f, 2.0f}, {1.0f, 0.0f}, {-1.5f, 0.0f}, {1.0f, -1.0f}}; }

}  // namespace matcompare_test
