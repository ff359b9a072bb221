#pragma once
// The block sizes of the BLIS-style CPU GEMM (the project's step beyond the seeds: after seed 003's packing and
// tiling, BLIS's five loops around a register micro-kernel), derived from the caches this machine reports.
#include <cstdint>
#include <optional>
#include <string>

#include "microkernel.hpp"

namespace matcompare::cpu::blis {

struct CacheSizes {
  std::int64_t l1d, l2, l3;  // bytes: L1 data and L2 of one core, L3 shared by the cores
};

// From sysconf (CPUID), else /sys/devices/system/cpu/cpu0/cache, else 32 KiB / 512 KiB / 8 MiB.
CacheSizes this_cpu_caches();

struct BlockSizes {
  int mr, nr;  // the micro-kernel's register tile
  int kc, mc, nc;
  int nb;  // the macro-kernel's sub-block of B columns (loops.cpp)
};

// The one table, every size from a cache:
//
// | size | rule                                                      | why                                       |
// |------|-----------------------------------------------------------|-------------------------------------------|
// | KC   | KC x NR x 4 B <= 2 x L1d for a tile of 12 rows or more,   | a deep k block passes over C fewer times; |
// |      | <= 1/2 of L1d for a shorter one; multiple of 16; 128..768 | a 12-row tile reuses each B element 12    |
// |      | (NOTES: "A deeper k block for the 12-row tile" for        | times, so B's micro-panel may stream from |
// |      | 12x32, "Micro-kernels chosen at run time" for 6x16)       | L2 where a 6-row tile keeps it in L1      |
// |      | One thread: also KC x (MR + NR) x 4 B <= 15/16 of L1d,    | A's micro-panel and the B micro-panel     |
// |      | unless that is below 256                                  | passing it share L1d, so A's loads hit    |
// |      |                                                           | L1; where L1d is too small for 256, the   |
// |      |                                                           | deeper block wins. Many threads keep the  |
// |      |                                                           | deep block: each k block costs the team   |
// |      |                                                           | two barriers (NOTES: "Which micro-panel   |
// |      |                                                           | stays in L1")                             |
// | NB   | KC x NB x 4 B <= 1/4 of L2; multiple of NR; NR..4096      | the B sub-block stays in L2 while A's     |
// |      |                                                           | micro-panels pass over it                 |
// | MC   | (MC x KC + KC x NB + MC x NB) x 4 B <= 3/4 of L2;         | one pass over a sub-block touches the A   |
// |      | multiple of MR; MR..512                                   | block, the sub-block and their C tiles;   |
// |      |                                                           | they leave L2 room for the rest (NOTES:   |
// |      |                                                           | "Which micro-panel stays in L1")          |
// | NC   | KC x NC x 4 B <= 1/2 of L3 and <= 4 x L2 x the threads;   | the packed B block, shared by the threads,|
// |      | multiple of NR; NR..4096                                  | stays in L3 across the ic blocks; the L3  |
// |      |                                                           | of a lent machine is the socket's, shared |
// |      |                                                           | with its other tenants, so a few L2s a    |
// |      |                                                           | thread is what stays (NOTES: "NC for one  |
// |      |                                                           | thread on the Xeon host")                 |
//
// The fractions leave room for what streams past the blocks that stay (C tiles, the other operand). The loops
// cut N into equal column blocks of at most NC, and K into equal blocks of at most KC.
BlockSizes block_sizes(const MicroKernel& kernel, const CacheSizes& caches, int threads);

// MATCOMPARE_BLIS_BLOCKS="KC,MC,NC" or "KC,MC,NC,NB" as given (nb 0 without NB), or nullopt when unset or empty.
// Throws std::invalid_argument, naming the variable, its value and the accepted form, for a malformed value.
constexpr const char* kBlisBlocksVariable = "MATCOMPARE_BLIS_BLOCKS";
struct BlockOverride {
  long kc, mc, nc, nb;
};
std::optional<BlockOverride> blocks_override();

// What cpu/blis uses with `threads` threads: block_sizes() for this CPU's caches, unless
// MATCOMPARE_BLIS_BLOCKS="KC,MC,NC" or "KC,MC,NC,NB" overrides them for a tuning sweep (each rounded to its
// multiple; without NB, NB follows the table from that KC); throws on a malformed value.
BlockSizes blocks_in_use(const MicroKernel& kernel, int threads);

// "avx512 12x32, KC 256 MC 336 NC 4096 NB 512 (L1d 48 KiB, L2 2048 KiB, L3 300 MiB)": for the run's context.
std::string describe(const MicroKernel& kernel, const BlockSizes& sizes, const CacheSizes& caches);

}  // namespace matcompare::cpu::blis
