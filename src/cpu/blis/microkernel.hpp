#pragma once
// The MR x NR register micro-kernels of the BLIS-style CPU GEMM (the project's step beyond the seeds, after
// seed 003's tiling): AVX-512, AVX2+FMA and a portable one, each in its own file, the first two compiled for
// their instruction set alone (src/CMakeLists.txt), so that one binary picks the best this CPU reports at run
// time (CPUID), not what -march said at build time.
#include <cstdint>
#include <string>
#include <vector>

#include "few_rows_isa.hpp"

namespace matcompare::cpu::blis {

// C[0..MR)[0..NR) (row stride ldc) = sum over p < kc of a[p*MR + i] * b[p*NR + j]  (+ beta * C).
// `a` and `b` are packed micro-panels (packing.hpp); alpha is already in `a`. When beta == 0 the
// kernel never reads C. It always writes a full MR x NR tile (run_half: its first NR/2 columns): for edge
// tiles the caller passes a local MR x NR buffer and copies the valid part (loops.cpp).
using MicroKernelFn = void (*)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                               float beta);

struct MicroKernel {
  std::string name;         // "avx512", "avx2+fma", "generic"
  int mr, nr;               // its register tile
  MicroKernelFn run;
  MicroKernelFn run_half;   // the tile's first NR/2 columns alone, for a narrow edge panel; null where there is none
  FewRowsKernels few_rows;  // the few-rows path's loops for the same instruction set (few_rows_isa.hpp)
  std::string unsupported;  // why this CPU cannot run it; empty when it can
};

// Every micro-kernel of this build, preferred first, each with whether this CPU can run it (CPUID).
const std::vector<MicroKernel>& microkernels();

// The supported micro-kernel MATCOMPARE_MICROKERNEL names, or nullptr when it is unset or empty. Throws
// std::runtime_error, naming the variable, its value and the kernels this CPU can run, for any other value.
constexpr const char* kMicroKernelVariable = "MATCOMPARE_MICROKERNEL";
const MicroKernel* forced_microkernel();

// The first supported one of microkernels(), unless MATCOMPARE_MICROKERNEL names another supported one.
const MicroKernel& select_microkernel();

// The largest register tile of any kernel: the size of an edge tile buffer.
inline constexpr int kMaxTileFloats = 16 * 32;

}  // namespace matcompare::cpu::blis
