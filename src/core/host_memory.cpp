#include "host_memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace matcompare {
namespace {

std::string file_text(const char* path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

double host_memory_bytes(const std::string& meminfo, const std::string& cgroup_memory_max, const char* override_gib) {
  if (override_gib) {
    char* end = nullptr;
    const double gib = std::strtod(override_gib, &end);
    if (end == override_gib || *end != '\0' || !std::isfinite(gib) || gib <= 0)
      throw std::invalid_argument(std::string(kHostMemoryOverrideVariable) + "='" + override_gib +
                                  "' is not a positive number of GiB");
    return gib * double(1ull << 30);
  }
  double total = 0;
  std::istringstream lines(meminfo);
  std::string key, unit;
  double kib = 0;
  while (lines >> key >> kib >> unit)
    if (key == "MemTotal:") total = kib * 1024.0;
  double limit = 0;
  std::istringstream cgroup(cgroup_memory_max);
  std::string word;
  if (cgroup >> word && word != "max") {
    char* end = nullptr;
    const double bytes = std::strtod(word.c_str(), &end);
    if (end != word.c_str() && *end == '\0' && bytes > 0) limit = bytes;
  }
  const double usable = std::max(total, limit);
  if (usable <= 0)
    throw std::runtime_error(std::string("cannot tell how much host memory there is (no MemTotal in /proc/meminfo); "
                                         "set ") + kHostMemoryOverrideVariable);
  return usable;
}

double host_memory_bytes() {
  return host_memory_bytes(file_text("/proc/meminfo"), file_text("/sys/fs/cgroup/memory.max"),
                           std::getenv(kHostMemoryOverrideVariable));
}

}  // namespace matcompare
