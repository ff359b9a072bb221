#pragma once
// The block sizes of the BLIS-style CPU GEMM (the project's step beyond the seeds: after seed 003's packing and
// tiling, BLIS's five loops around a register micro-kernel), derived from the caches this machine reports.
#include <cstdint>
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
};

// The one table, every size from a cache:
//
// | size | rule                                                      | why                                       |
// |------|-----------------------------------------------------------|-------------------------------------------|
// | KC   | KC x NR x 4 B <= 2 x L1d for a tile of 12 rows or more,  | a 12-row tile reuses each B element 12    |
// |      | <= 1/2 of L1d for a shorter one; multiple of 16; 128..768 | times, so its B micro-panel may stream    |
// |      |                                                           | from L2, and a deeper k block passes over |
// |      |                                                           | C fewer times (measured: AVX-512 12x32 on |
// |      |                                                           | Zen 4 and the Xeon host, KC 512-768 ahead |
// |      |                                                           | of 256-384); a 6-row tile keeps B in L1   |
// |      |                                                           | (AVX2 6x16 on Zen 3 best at half of L1d)  |
// | MC   | MC x KC x 4 B <= 1/2 of L2; multiple of MR; MR..512       | the packed A block stays in L2 across jr  |
// | NC   | KC x NC x 4 B <= 1/2 of L3 and <= 4 x L2 x the threads;   | the packed B block, shared by the threads,|
// |      | multiple of NR; NR..4096                                  | stays in L3 across the ic blocks; the L3  |
// |      |                                                           | of a lent machine is the socket's, shared |
// |      |                                                           | with its other tenants, so a few L2s a    |
// |      |                                                           | thread is what stays (one Xeon thread at  |
// |      |                                                           | 4096: a 12 MiB block 0.92x OpenBLAS, 6 or |
// |      |                                                           | 3 MiB 0.99-1.01x)                         |
//
// The fractions leave room for what streams past the block that stays (C tiles, the other operand). The loops
// cut N into equal column blocks of at most NC.
BlockSizes block_sizes(const MicroKernel& kernel, const CacheSizes& caches, int threads);

// What cpu/blis uses with `threads` threads: block_sizes() for this CPU's caches, unless
// MATCOMPARE_BLIS_BLOCKS="KC,MC,NC" overrides them for a tuning sweep (each rounded to its multiple); throws on a
// malformed value.
BlockSizes blocks_in_use(const MicroKernel& kernel, int threads);

// "avx512 12x32, KC 256 MC 504 NC 4096 (L1d 48 KiB, L2 2048 KiB, L3 105 MiB)": for the run's context.
std::string describe(const MicroKernel& kernel, const BlockSizes& sizes, const CacheSizes& caches);

}  // namespace matcompare::cpu::blis
