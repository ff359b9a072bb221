// gpu/cutlass-tf32 with CUTLASS's ping-pong schedule (MATCOMPARE_CUTLASS_KERNEL=pingpong): each consumer warpgroup
// owns a 128x128 tile of Cᵀ and the two take turns at the tensor cores, one's epilogue overlapping the other's
// mainloop; otherwise as the cooperative kernel (Cᵀ = Bᵀ·Aᵀ, B from registers, 2x1 cluster).
#include "cutlass_gemm.cuh"

namespace matcompare::gpu {

const CutlassKernel& cutlass_pingpong() {
  using namespace cute;
  using Config = cutlass_gemm::CutlassTf32<cutlass_gemm::Operands::transposed_problem,
                                           cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                                           cutlass::epilogue::TmaWarpSpecialized, Shape<_128, _128, _32>,
                                           Shape<_2, _1, _1>>;
  return Config::kernel("pingpong", "KernelTmaWarpSpecializedPingpong", "B^T from registers (wgmma RS), A by TMA");
}

}  // namespace matcompare::gpu
