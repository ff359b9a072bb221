#pragma once
// What a file compiled for one instruction set exports: its kernel as a plain function pointer and its tile,
// with no library types, so that nothing compiled for that instruction set is shared with other files.
#include <cstdint>

namespace matcompare::cpu::blis {

struct IsaKernel {
  int mr, nr;
  void (*run)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta);  // null: not built
  // The same on the tile's first NR/2 columns alone (the same packed panels), for an edge panel that narrow; null where
  // the set has none.
  void (*run_half)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, float beta);
};

extern const IsaKernel kAvx512Kernel;  // microkernel_avx512.cpp
extern const IsaKernel kAvx2Kernel;    // microkernel_avx2.cpp
extern const IsaKernel kGenericKernel; // microkernel_generic.cpp

}  // namespace matcompare::cpu::blis
