#include "cache_flush.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace matcompare::cpu {

std::size_t host_flush_bytes() {
  long llc = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return std::max<std::size_t>(64u << 20, 2 * std::size_t(std::max(llc, 0L)));
}

void flush_host_cache() {
  static std::vector<char> buffer(host_flush_bytes());
  static char value = 0;
  std::memset(buffer.data(), ++value, buffer.size());
  // Keeps the compiler from proving the buffer unused.
  asm volatile("" : : "r"(buffer.data()) : "memory");
}

std::string host_cache_policy() {
  return "host caches flushed by writing " + std::to_string(host_flush_bytes() >> 20) +
         " MiB between samples";
}

}  // namespace matcompare::cpu
