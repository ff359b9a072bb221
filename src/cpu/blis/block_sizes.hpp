#pragma once
// The one table of block sizes for the BLIS-style CPU GEMM (the project's step beyond the seeds:
// after seed 003's packing and tiling, BLIS's five loops around a register micro-kernel).

namespace matcompare::cpu::blis {

struct BlockSizes {
  // MR x NR: the register block of C the micro-kernel keeps in accumulators. With AVX2 (16 ymm
  // registers of 8 floats) 6 x 16 takes 12 accumulators + 2 loaded rows of B + 1 broadcast of A
  // = 15 registers, and issues 12 FMAs per 6 broadcasts + 2 loads: enough independent FMAs
  // (12 >= 2 FMA ports x 4 cycles latency) to keep both FMA units busy every cycle.
  int mr;
  int nr;
  // KC: depth of one rank-KC update. A KC x NR micro-panel of B (256*16*4 = 16 KiB) plus the
  // streaming MR x KC micro-panel of A (6 KiB) stay in a 32-48 KiB L1d while the ir loop reuses
  // that B panel MC/MR times.
  int kc;
  // MC: rows of A packed per thread, an MC x KC block (120*256*4 = 120 KiB) that lives in the L2
  // (here 2 MiB per core; kept well below it so B streams through too) and is reused across the
  // jr loop. Also small enough that m is cut into many blocks for the OpenMP ic loop.
  int mc;
  // NC: columns of B packed per jc step, a KC x NC block (256*4096*4 = 4 MiB) shared by all
  // threads in the L3 and reused by every ic block.
  int nc;
};

inline constexpr BlockSizes kBlock{6, 16, 256, 120, 4096};

// Aliases for the loops, packing and micro-kernels.
inline constexpr int MR = kBlock.mr;
inline constexpr int NR = kBlock.nr;
inline constexpr int KC = kBlock.kc;
inline constexpr int MC = kBlock.mc;
inline constexpr int NC = kBlock.nc;

static_assert(MC % MR == 0, "MC must be a multiple of MR");
static_assert(NC % NR == 0, "NC must be a multiple of NR");

}  // namespace matcompare::cpu::blis
