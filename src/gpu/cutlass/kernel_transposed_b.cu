// gpu/cutlass-tf32 the other way (MATCOMPARE_CUTLASS_KERNEL=cooperative-transposed-b): B transposed into K-major
// scratch by a kernel of ours, on the same stream inside the timed compute, then CUTLASS's cooperative kernel with
// both operands K-major, read by wgmma from shared memory (128x256 tiles of C, 2x1 cluster). What the transpose
// costs is its difference from the default kernel, which needs none.
#include "cutlass_gemm.cuh"

namespace matcompare::gpu {

const CutlassKernel& cutlass_cooperative_transposed_b() {
  using namespace cute;
  using Config = cutlass_gemm::CutlassTf32<cutlass_gemm::Operands::transposed_b,
                                           cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                                           cutlass::epilogue::TmaWarpSpecializedCooperative, Shape<_128, _256, _32>,
                                           Shape<_2, _1, _1>>;
  return Config::kernel("cooperative-transposed-b", "KernelTmaWarpSpecializedCooperative",
                        "B transposed into K-major scratch first (timed), both operands by TMA (wgmma SS)");
}

}  // namespace matcompare::gpu
