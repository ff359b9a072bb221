#pragma once
// The CPU's ceilings, measured: no property of a core says how many FMA units it has or how fast memory is.
#include "matcompare/context.hpp"

namespace matcompare::cpu {

// On `threads` threads: the FP32 FMA ceiling (independent FMA chains in registers, widest instruction set the CPU
// has) and the read bandwidth of a buffer several times the last-level cache, each the best of a few tries. Takes
// a fraction of a second; what it measured and how is in the result's basis.
Peak measure_cpu_peak(int threads);

}  // namespace matcompare::cpu
