#pragma once
// The BLIS-style CPU GEMM with a given micro-kernel: what cpu/blis runs with the one this CPU prefers, and what
// the tests run with every one this CPU can.
#include "../cpu_backend.hpp"
#include "microkernel.hpp"

namespace matcompare::cpu::blis {

void gemm_with(const HostGemm& g, const MicroKernel& kernel);

// The kernel and block sizes cpu/blis uses on this machine, in words (for the run's context).
std::string configuration();

}  // namespace matcompare::cpu::blis
