#pragma once
// How much host memory a run may plan with. A balloon VM starts with a small MemTotal that grows on demand
// while its real limit is the cgroup's, so neither MemAvailable nor MemTotal alone is the answer.
#include <string>

namespace matcompare {

// The override, in GiB, that wins over what the machine reports.
constexpr const char* kHostMemoryOverrideVariable = "MATCOMPARE_HOST_MEMORY_GIB";

// Bytes from the texts of /proc/meminfo and /sys/fs/cgroup/memory.max and the override's value (nullptr when
// unset): the override when set, else the larger of MemTotal and the cgroup limit ("max" or empty: none).
// Throws std::invalid_argument for an override that is not a positive number, std::runtime_error when
// MemTotal cannot be read and no limit is known.
double host_memory_bytes(const std::string& meminfo, const std::string& cgroup_memory_max, const char* override_gib);

// The same from this machine's files and environment.
double host_memory_bytes();

}  // namespace matcompare
