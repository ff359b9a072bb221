#pragma once
// The BLIS-style CPU GEMM with a given micro-kernel: what cpu/blis runs with the one this CPU prefers, and what
// the tests run with every one this CPU can.
#include <cstdint>

#include "../cpu_backend.hpp"
#include "microkernel.hpp"

namespace matcompare::cpu::blis {

void gemm_with(const HostGemm& g, const MicroKernel& kernel);

// A C of at most kFewRows rows, without packing: B streams once (few_rows.cpp), in the loops of the kernel's
// instruction set. cpu/blis takes this path below the threshold, measured in bench/NOTES.md ("Few rows").
constexpr std::int64_t kFewRows = 4;
void gemm_few_rows(const HostGemm& g, const MicroKernel& kernel);

// How the team cuts one k block's work (panels micro-panels of A rows x b_panels micro-panels of B columns): row
// blocks of unit_panels and column blocks of unit_b_panels; unit u is row block u % row_blocks of column block
// u / row_blocks.
struct UnitGrid {
  std::int64_t unit_panels = 1, row_blocks = 1, unit_b_panels = 1, col_blocks = 1;
  std::int64_t count() const { return row_blocks * col_blocks; }
};
UnitGrid unit_grid(std::int64_t panels, std::int64_t b_panels, int team, std::int64_t max_unit_panels);

// The kernel and block sizes cpu/blis uses on this machine, in words (for the run's context).
std::string configuration();

}  // namespace matcompare::cpu::blis
