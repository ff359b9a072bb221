// Fast path: gpu/tensor-core-3xtf32, beyond the seeds (Hopper, sm_90a): FP32 accuracy from TF32 tensor cores.
// Extends: gpu/tensor-core-tf32-ws (tensor_core_tf32_ws.cu), whose engine it runs in three passes; below K = 8 it
// hands the product to gpu/simt-tuned (simt/).
// Adds: each input x is split into big = tf32(x) and small = tf32(x - big), and C = big(A)big(B) + big(A)small(B)
// + small(A)big(B), dropping only small(A)small(B), about 2^-22 of each product. The big(A)big(B) pass sums each
// k tile apart and adds it in FP32: left in one chain of tensor-core additions over all of K, its error grew as K.
// Both operands are split once into device scratch, K-major (k_major_copy.cuh where A is stored transposed or B is
// not), and the engine's wgmmas read both from shared memory: splitting B in registers as the one-pass kernel loads
// its fragments left too few registers for ptxas to pipeline the wgmmas (bench/NOTES.md, "Both operands from shared
// memory"). Three TF32 passes cost three times the tensor work, which still leaves them far faster than FP32 SIMT.
// Below K = 8 (one wgmma step) the dropped term and the bits the
// two parts miss are not covered by FP32's error bound, which is tightest there, and such a product is bound by
// memory, not arithmetic: it goes to the FP32 SIMT step instead. So does a product of a few rows, bound by memory
// too: the few-rows kernels (simt/few_rows.cu), FP32 throughout; and any other whose operands' bytes, moved five
// times over by the split and the passes, would outlast FP32 SIMT's arithmetic (three_pass_choice.hpp).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "../runtime/device_gemm.cuh"
#include "../simt/few_rows.hpp"
#include "../simt/simt_tuning.hpp"
#include "k_major_copy.cuh"
#include "tensor_core.hpp"
#include "tf32_passes.hpp"
#include "three_pass_choice.hpp"

namespace matcompare::gpu {
namespace {

// Below this K (one wgmma step) the product goes to gpu/simt-tuned (see above).
constexpr int kMinTensorDepth = 8;

// out (2 * rows x k_padded, dense): small parts of the source (src_rows x k_padded, rows ld apart, K along them) in
// rows [0, rows), big parts in rows [rows, 2 rows); rows from src_rows on are zero, so the tiles that read them add
// nothing. kPaired: source row r lands at row paired_row(r) of each part.
template <bool kPaired>
__global__ void split_k_major(const float* __restrict__ src, int ld, int src_rows, int rows, int k_padded,
                           float* __restrict__ out) {
  const int vectors_per_row = k_padded / 4;
  const std::size_t total = std::size_t(rows) * vectors_per_row;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < total;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const int r = int(i / vectors_per_row), c = int(i % vectors_per_row) * 4;
    const float4 x =
        r < src_rows ? *reinterpret_cast<const float4*>(src + std::size_t(r) * ld + c) : make_float4(0, 0, 0, 0);
    const float4 big = make_float4(round_to_tf32(x.x), round_to_tf32(x.y), round_to_tf32(x.z), round_to_tf32(x.w));
    const float4 small = make_float4(round_to_tf32(x.x - big.x), round_to_tf32(x.y - big.y),
                                     round_to_tf32(x.z - big.z), round_to_tf32(x.w - big.w));
    const std::size_t row = kPaired ? paired_row(r) : r;
    *reinterpret_cast<float4*>(out + row * k_padded + c) = small;
    *reinterpret_cast<float4*>(out + (std::size_t(rows) + row) * k_padded + c) = big;
  }
}

template <bool kPaired>
void launch_split_k_major(const DeviceGemm& g, const float* src, int ld, int src_rows, int rows, float* out) {
  split_k_major<kPaired><<<8 * multiprocessor_count(), 256, 0, g.stream>>>(src, ld, src_rows, rows, g.k_padded,
                                                                            out);
  MC_CHECK_LAUNCH();
}

RooflineRates rates_here() {
  const Peak& peak = selected_device_peak();
  return {peak.bandwidth_gbs * 1e9, peak.fp32_gflops * 1e9, peak.tf32_gflops * 1e9};
}

// Whether the shape goes to FP32 SIMT rather than the three passes (above). A tile forced with MATCOMPARE_TF32_TILE
// runs the passes whatever the estimate: the variable asks for the engine.
bool simt_takes(const GemmShape& s) {
  if (s.k < kMinTensorDepth) return true;
  return tf32_tile_named(std::getenv(kTf32TileVariable)) == nullptr && !three_passes_pay(s, rates_here());
}

}  // namespace

KernelChoice choose_tensor_core_3xtf32(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  if (few_rows_takes(shape, kFewRowsFp32Rows)) return {few_rows_choose(g) + " (FP32)"};
  if (g.k < kMinTensorDepth) return {"gpu/simt-tuned " + choose_simt_tuned(g).kernel};
  if (simt_takes(shape)) {
    const ThreePassEstimate e = estimate_three_passes(shape, rates_here());
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.1f", e.three_passes_s / e.simt_s);
    return {"gpu/simt-tuned " + choose_simt_tuned(g).kernel + " (three passes estimated " + ratio + "x as long)"};
  }
  return {tf32_engine_name("3xTF32", shape, tf32_plan_here(shape))};
}

void launch_tensor_core_3xtf32(const DeviceGemm& g) {
  const GemmShape shape = shape_of(g);
  if (few_rows_takes(shape, kFewRowsFp32Rows))
    return launch_few_rows(g, few_rows_plan_here(shape), static_cast<float*>(g.scratch), g.scratch_bytes);
  if (simt_takes(shape)) return launch_simt_tuned(g);
  const int a_rows = split_rows(g.m), b_rows = split_rows(g.n);
  float* a_split = static_cast<float*>(g.scratch);
  float* b_split = a_split + 2 * std::size_t(a_rows) * g.k_padded;
  const std::size_t split_floats = 2 * (std::size_t(a_rows) + b_rows) * g.k_padded;
  const std::size_t before_planes = split_floats * sizeof(float) + kWaveCountBytes;
  if (g.k_padded % 4 != 0 || before_planes > g.scratch_bytes)
    throw std::logic_error("gpu/tensor-core-3xtf32: its scratch was sized for K padded to 4, with the wave count");
  if (g.a_transposed)
    launch_k_major_copy<2, false>(g, g.a, g.lda, g.m, a_rows, a_split);
  else
    launch_split_k_major<false>(g, g.a, g.lda, g.m, a_rows, a_split);
  if (g.b_transposed)
    launch_split_k_major<true>(g, g.b, g.ldb, g.n, b_rows, b_split);
  else
    launch_k_major_copy<2, true>(g, g.b, g.ldb, g.n, b_rows, b_split);
  const Tf32Plan plan = tf32_plan_here(shape);
  unsigned* wave_count = reinterpret_cast<unsigned*>(a_split + split_floats);
  launch_3xtf32_passes(g, "gpu/tensor-core-3xtf32", {a_split, 2 * a_rows, g.k_padded, a_rows},
                       {b_split, 2 * b_rows, g.k_padded, b_rows}, plan,
                       tf32_waves_in_step(shape, plan) ? wave_count : nullptr,
                       a_split + split_floats + kWaveCountBytes / sizeof(float), g.scratch_bytes - before_planes);
}

std::size_t split_scratch_bytes(const GemmShape& s) {
  if (few_rows_takes(s, kFewRowsFp32Rows)) return few_rows_scratch_bytes(s, kFewRowsFp32Rows);
  if (simt_takes(s)) return simt_tuned_scratch_bytes(s);
  return split_part_bytes(s.m, s) + split_part_bytes(s.n, s) + kWaveCountBytes +
         tf32_partial_bytes(s, tf32_plan_here(s));
}

}  // namespace matcompare::gpu
