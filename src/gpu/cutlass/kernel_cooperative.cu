// gpu/cutlass-tf32's default kernel: CUTLASS's cooperative warp-specialized schedule (two consumer warpgroups
// share one 128x256 tile of Cᵀ, a producer warp issues the TMA copies) on Cᵀ = Bᵀ·Aᵀ, B sourced from registers
// (cutlass_gemm.cuh says why), a 2x1 cluster multicasting the tile of A that its two blocks share.
#include "cutlass_gemm.cuh"

namespace matcompare::gpu {

const CutlassKernel& cutlass_cooperative() {
  using namespace cute;
  using Config = cutlass_gemm::CutlassTf32<cutlass_gemm::Operands::transposed_problem,
                                           cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                                           cutlass::epilogue::TmaWarpSpecializedCooperative, Shape<_128, _256, _32>,
                                           Shape<_2, _1, _1>>;
  return Config::kernel("cooperative", "KernelTmaWarpSpecializedCooperative",
                        "B^T from registers (wgmma RS), A by TMA");
}

}  // namespace matcompare::gpu
