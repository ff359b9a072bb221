// cpu/blis's few-rows loops (few_rows_simd.hpp) for AVX2 and FMA: 8 floats a vector, and 16 registers, which hold the
// transposed loop's 4 x 2 sums, two columns of B and a row of A. This file alone is compiled with -mavx2 -mfma.
#include "few_rows_isa.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include "few_rows_simd.hpp"
#include "isa_avx2.hpp"

namespace matcompare::cpu::blis {

const FewRowsKernels kAvx2FewRows = few_rows::kKernels<Avx2, 2>;

}  // namespace matcompare::cpu::blis

#else

namespace matcompare::cpu::blis {
const FewRowsKernels kAvx2FewRows = {nullptr, nullptr};
}  // namespace matcompare::cpu::blis

#endif
