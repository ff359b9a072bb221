#pragma once
// The one table of block sizes for the BLIS-style CPU GEMM (the project's step beyond the seeds:
// after seed 003's packing and tiling, BLIS's five loops around a register micro-kernel).

namespace matcompare::cpu::blis {

struct BlockSizes {
  // MR x NR: the register block of C the micro-kernel keeps in accumulators. With AVX2 (16 ymm
  // registers of 8 floats) 6 x 16 takes 12 accumulators + 2 rows of B + 1 broadcast of A = 15
  // registers and issues 12 FMAs per 2 loads + 6 broadcasts: 12 independent FMAs cover the
  // 2 FMA ports x 4 cycles of latency, so both FMA units stay busy. (8 x 8 has only 8 chains and
  // 9 loads per 8 FMAs; it measured ~30% slower here.)
  int mr;
  int nr;
  // KC: depth of one rank-KC update. The KC x NR micro-panel of B (384*16*4 = 24 KiB) plus the
  // streaming MR x KC micro-panel of A (9 KiB) fit the 48 KiB L1d, where the B panel is reused
  // by all MC/MR micro-panels of the ir loop. Deeper KC also means fewer C read/write passes.
  int kc;
  // MC: rows of A packed per thread: an MC x KC block (168*384*4 = 252 KiB) that stays in the
  // per-core L2 (2 MiB here; about 1/8 of it, leaving room for B panels streaming through) and
  // is reused across the jr loop. Small enough that m = 2048 gives 13 blocks for the OpenMP ic
  // loop; multiple of MR.
  int mc;
  // NC: columns of B packed per jc step: a KC x NC block (384*4096*4 = 6 MiB) shared by all
  // threads in the L3 (300 MiB here) and reused by every ic block; multiple of NR.
  int nc;
};

// Tuned at 2048^3 on 2 cores (Xeon, AVX2 path): KC 256..512, MC 72..240, NC 1024..4096 were all
// within ~5% of each other; this was the best.
inline constexpr BlockSizes kBlock{6, 16, 384, 168, 4096};

// Aliases for the loops, packing and micro-kernels.
inline constexpr int MR = kBlock.mr;
inline constexpr int NR = kBlock.nr;
inline constexpr int KC = kBlock.kc;
inline constexpr int MC = kBlock.mc;
inline constexpr int NC = kBlock.nc;

static_assert(MC % MR == 0, "MC must be a multiple of MR");
static_assert(NC % NR == 0, "NC must be a multiple of NR");

}  // namespace matcompare::cpu::blis
