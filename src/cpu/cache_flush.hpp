#pragma once
#include <cstddef>
#include <string>

namespace matcompare::cpu {

// Bytes written between timed samples so that no input stays in the CPU caches:
// twice the last-level cache, at least 64 MiB.
std::size_t host_flush_bytes();
void flush_host_cache();
std::string host_cache_policy();

}  // namespace matcompare::cpu
