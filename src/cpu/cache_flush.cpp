#include "cache_flush.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdint>
#include <cstring>
#include <vector>

#include "worker_team.hpp"

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
  ++value;
  // Every thread writes its own slice, so each core's private caches are overwritten too, not only
  // the last-level cache of the core that would run a single memset.
  const std::int64_t size = std::int64_t(buffer.size());
  run_on_team(omp_get_max_threads(), [&](int me, int threads) {
    const std::int64_t begin = size * me / threads, end = size * (me + 1) / threads;
    std::memset(buffer.data() + begin, value, std::size_t(end - begin));
  });
  // Keeps the compiler from proving the buffer unused.
  asm volatile("" : : "r"(buffer.data()) : "memory");
  // The flush's threads (worker_team.hpp), and OpenBLAS's from a vendor sample before it, park within about a
  // millisecond; the timed run that follows must not share the cores with their spinning.
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

std::string host_cache_policy() {
  return "host caches flushed by writing " + std::to_string(host_flush_bytes() >> 20) +
         " MiB from every thread between samples";
}

}  // namespace matcompare::cpu
