#pragma once
// The MR x NR register micro-kernel of the BLIS-style CPU GEMM (the project's step beyond the
// seeds, after seed 003's tiling): an AVX2+FMA version chosen at run time, and a portable one.
#include <cstdint>

namespace matcompare::cpu::blis {

// C[0..MR)[0..NR) (row stride ldc) = sum over p < kc of a[p*MR + i] * b[p*NR + j]  (+ beta * C).
// `a` and `b` are packed micro-panels (packing.hpp); alpha is already in `a`. When beta == 0 the
// kernel never reads C. It always writes a full MR x NR tile: for edge tiles the caller passes a
// local MR x NR buffer and copies the valid part (loops.cpp).
using MicroKernel = void (*)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                             float beta);

// Portable fallback with the same packed layout (plain loops the compiler can auto-vectorize).
void microkernel_generic(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                         float beta);

// The kernel for this CPU: the AVX2+FMA one when __builtin_cpu_supports says both are there.
MicroKernel select_microkernel();
const char* microkernel_name();

}  // namespace matcompare::cpu::blis
