#pragma once
// What the suites share: the odd shapes of the acceptance list, a fresh-seed source and a scoped environment variable.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "matcompare/matcompare.hpp"

namespace matcompare_test {

// A suite that cannot run here defines this to return why; the default is "".
std::string skip_reason();

// Built with AddressSanitizer (scripts/sanitize.sh, where GCC defines __SANITIZE_ADDRESS__): every load is checked, at
// 5-10 times the cost, so the largest problems, whose block edges the small shapes and small blocks also cross, are left
// to the main build (tests/mutations/ci_time.md).
#ifdef __SANITIZE_ADDRESS__
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

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

// Sets an environment variable for one scope and puts back what was there (a value or none) on leaving it, also when
// a REQUIRE fails.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    if (const char* before = std::getenv(name)) previous_ = before;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (previous_)
      setenv(name_.c_str(), previous_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

inline std::vector<Scaling> scalings() { return {{0.5f, 2.0f}, {1.0f, 0.0f}, {-1.5f, 0.0f}, {1.0f, -1.0f}}; }

}  // namespace matcompare_test
