#pragma once
// What a file compiled for one instruction set exports for cpu/blis's few-rows path (few_rows.cpp): its two loops as
// plain function pointers, with no library types, so that nothing compiled for that instruction set is shared with
// other files (as microkernel_isa.hpp does for the micro-kernels).
#include <cstdint>

namespace matcompare::cpu::blis {

// acc (m rows, acc_ld floats apart) gets op(A)'s m rows (a_rows: m x k, contiguous) times `width` columns of op(B):
//   untransposed: B stored K x N, `b` at the first column (rows ldb apart); acc += the product.
//   transposed:   B stored N x K, `b` at the first column's row (ldb apart); acc = the product.
// m is 1 to kFewRows (blis.hpp).
using FewRowsFn = void (*)(std::int64_t m, std::int64_t k, const float* a_rows, const float* b, std::int64_t ldb,
                           std::int64_t width, float* acc, std::int64_t acc_ld);

struct FewRowsKernels {
  FewRowsFn untransposed, transposed;  // null: not built for this architecture
};

extern const FewRowsKernels kAvx512FewRows;   // few_rows_avx512.cpp
extern const FewRowsKernels kAvx2FewRows;     // few_rows_avx2.cpp
extern const FewRowsKernels kGenericFewRows;  // few_rows_generic.cpp

}  // namespace matcompare::cpu::blis
