// Fast path: gpu/tensor-core-tf32, beyond the seeds (Hopper, sm_90a).
// Extends: gpu/wmma-tf32 (ladder/wmma_tf32.cu, 001 v10).
// Adds: Hopper's warpgroup MMA instead of WMMA. Two warpgroups each issue wgmma m64n256k8 TF32 on a 256x128 block
// tile; A comes by TMA through a 4-stage ring, B through registers. The warpgroups synchronize only through the
// ring's barriers, so one's pauses overlap the other's tensor-core work. Needs sm_90a.
#include <cstdint>

#include "../runtime/device_gemm.cuh"
#include "hopper.cuh"
#include "tensor_core.hpp"

namespace matcompare::gpu {
namespace {

// TF32 wgmma reads only K-major operands from shared memory, and our B is N-major. So the wgmma computes
// the transposed tile, C^T = B^T A^T: its N x K operand is our A tile, K-major as stored, landed by TMA in
// the 128-byte swizzle its descriptor names and rounded to TF32 by the copy; its M x K operand is our B tile, read from shared memory into
// registers, where major-ness does not exist, and rounded to TF32 on the way. The accumulators then hold
// C^T; the epilogue stores them transposed.
constexpr int kThreads = 256;                 // 2 warpgroups
constexpr int kBM = 256, kBN = 128, kBK = 32;  // rows of C (wgmma N), columns of C (2 x wgmma M), depth
constexpr int kStages = 4;
constexpr int kWgCols = kBN / 2;              // C columns per warpgroup: the wgmma M of 64
constexpr int kAccs = kBM / 2;                // accumulators per thread: 64 x 256 over 128 threads
constexpr int kRowBytes = kBK * 4;            // 128: one A row is one swizzle row
constexpr int kATileBytes = kBM * kRowBytes;  // 32 KiB
// Each warpgroup copies and reads only its own 64 columns of the B tile, rows padded by 8 floats: a
// warp's 8-byte fragment loads (4 k rows x 8 column pairs) then fall in 32 different banks per half-warp.
constexpr int kLdB = kWgCols + 8;
constexpr int kBHalfBytes = kBK * kLdB * 4;   // 9 KiB
constexpr int kAlign = 1024;                  // the 128-byte swizzle repeats every 8 rows
constexpr int kBOffset = kStages * kATileBytes;
constexpr int kBarrierOffset = kBOffset + kStages * 2 * kBHalfBytes;  // then full[kStages], empty[kStages]
constexpr std::size_t kSmemBytes = std::size_t(kBarrierOffset) + 2 * kStages * 8 + kAlign;  // 205888
constexpr int kBCopies = kBK * kWgCols / 4 / 128;  // 16-byte copies per thread per tile: 4
constexpr int kBRowsPerPass = 128 / (kWgCols / 4);
static_assert(kATileBytes % kAlign == 0, "A tiles start on a swizzle period");
static_assert(kRowBytes == 128, "one A tile row is one 128-byte swizzle row (the TMA swizzle's limit)");
static_assert(kBM <= 256, "TMA boxes have at most 256 rows");
static_assert(kBCopies * kBRowsPerPass == kBK, "copies cover a warpgroup's B columns");
static_assert(kStages >= 3, "the ring refills the stage of the tile before the current one");
static_assert(kWgCols == 64 && kAccs * 128 == kWgCols * kBM, "a warpgroup holds one 64 x kBM wgmma tile of C^T");

#if MC_HOPPER_DEVICE_CODE

// 16 bytes global -> shared; when !in_range nothing is read (src only has to be a valid address) and the
// 16 bytes are zero-filled.
__device__ __forceinline__ void copy16_async(std::uint32_t dst, const float* src, bool in_range) {
  const int src_bytes = in_range ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int kPending>
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// A barrier of one warpgroup's 128 threads (ids 1 and 2; 0 is __syncthreads).
__device__ __forceinline__ void sync_warpgroup(int warpgroup) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(1 + warpgroup) : "memory");
}

#endif

__global__ __launch_bounds__(kThreads, 1) void tensor_core_tf32(const __grid_constant__ CUtensorMap a_map,
                                                                const float* __restrict__ b, int ldb,
                                                                float* __restrict__ c, int ldc, float alpha,
                                                                float beta, int m, int n, int k_padded) {
#if MC_HOPPER_DEVICE_CODE
  extern __shared__ unsigned char smem_raw[];
  // The swizzle is applied to absolute shared addresses, so each A tile must start on a 1024-byte boundary;
  // the dynamic window's start is only 16-byte aligned for sure.
  const std::uint32_t raw_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem_raw));
  const std::uint32_t smem_addr = (raw_addr + kAlign - 1) & ~std::uint32_t(kAlign - 1);
  const unsigned char* smem = smem_raw + (smem_addr - raw_addr);
  const std::uint32_t full = smem_addr + kBarrierOffset, empty = full + kStages * 8;

  const int tid = threadIdx.x;
  const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;
  const int warpgroup = tid / 128, q = tid % 128;
  const int wg_col = block_col + warpgroup * kWgCols;
  const std::uint32_t b_half = kBOffset + warpgroup * kBHalfBytes;

  // Copy l of a thread: row b_r + l*kBRowsPerPass of its warpgroup's B columns, at column b_c. k_padded and
  // n_padded are multiples of 4, so a chunk that starts in range lies wholly in range; the rest is zero-filled.
  const int b_r = q / (kWgCols / 4), b_c = q % (kWgCols / 4) * 4;
  const bool b_col_in = wg_col + b_c < n;
  auto copy_b = [&](int tile) {
    const int k0 = tile * kBK;
    const std::uint32_t dst = smem_addr + b_half + (tile % kStages) * 2 * kBHalfBytes + (b_r * kLdB + b_c) * 4;
#pragma unroll
    for (int l = 0; l < kBCopies; ++l) {
      const int row = k0 + b_r + l * kBRowsPerPass;
      const bool in = b_col_in && row < k_padded;
      copy16_async(dst + l * kBRowsPerPass * kLdB * 4, in ? b + std::size_t(row) * ldb + wg_col + b_c : b, in);
    }
  };
  // Thread 0 is also the producer of A: it refills a stage once both warpgroups have released it.
  auto load_a = [&](int tile) {
    const std::uint32_t bar = full + (tile % kStages) * 8;
    expect_bytes(bar, kATileBytes);
    load_tile_2d(&a_map, smem_addr + (tile % kStages) * kATileBytes, bar, tile * kBK, block_row);
  };

  // Fragment of the register operand (PTX "wgmma .tf32 register fragment A"): thread (g, t) of a warp holds
  // rows g, g+8 at k = t, t+4. M order within a warp is free (it only permutes rows of C^T), so rows g and g+8
  // are taken as C columns 2g and 2g+1: each pair is one 8-byte load, and later one 8-byte store of C.
  const int lane = tid % 32, g = lane / 4, t4 = lane % 4;
  const int frag_col = tid / 32 % 4 * 16 + 2 * g;  // within the warpgroup's columns
  float acc[kAccs];
#pragma unroll
  for (int i = 0; i < kAccs; ++i) acc[i] = 0.0f;
  std::uint32_t frag[kBK / 8][4];
  auto load_fragments = [&](int tile) {
    const float* bs = reinterpret_cast<const float*>(smem + b_half + (tile % kStages) * 2 * kBHalfBytes);
#pragma unroll
    for (int s = 0; s < kBK / 8; ++s) {
      const float2 lo = *reinterpret_cast<const float2*>(bs + (8 * s + t4) * kLdB + frag_col);
      const float2 hi = *reinterpret_cast<const float2*>(bs + (8 * s + t4 + 4) * kLdB + frag_col);
      frag[s][0] = to_tf32(lo.x);
      frag[s][1] = to_tf32(lo.y);
      frag[s][2] = to_tf32(hi.x);
      frag[s][3] = to_tf32(hi.y);
    }
  };

  const int num_tiles = (k_padded + kBK - 1) / kBK;
  if (tid == 0) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) {
      init_barrier(full + s * 8, 1);
      init_barrier(empty + s * 8, 2);  // one arrival per warpgroup
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();  // the barriers exist before anyone waits on them or a TMA completes on them
  if (tid == 0)
    for (int s = 0; s < kStages - 1 && s < num_tiles; ++s) load_a(s);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_tiles) copy_b(s);
    commit_copies();  // empty groups too, so the wait counts below hold for any num_tiles
  }
  wait_copies<kStages - 2>();
  sync_warpgroup(warpgroup);
  load_fragments(0);

  for (int t = 0; t < num_tiles; ++t) {
    const std::uint32_t a_tile = smem_addr + (t % kStages) * kATileBytes;
    wait_barrier(full + (t % kStages) * 8, (t / kStages) % 2);  // A tile t has landed
    wgmma_fence();
    // Each k step of 8 starts 32 bytes further into the (swizzled) 128-byte rows; the hardware applies the
    // swizzle to the resulting addresses, which is why the tiles sit on 1024-byte boundaries.
#pragma unroll
    for (int s = 0; s < kBK / 8; ++s) wgmma_tf32_k8(acc, frag[s], smem_descriptor(a_tile + s * 32));
    wgmma_commit();
    // While the tensor cores work on tile t: publish this warpgroup's B tile t+1 (this thread's copies have
    // landed) and refill its B stage of tile t-1, whose fragments it loaded an iteration ago.
    wait_copies<kStages - 3>();
    sync_warpgroup(warpgroup);
    if (t + kStages - 1 < num_tiles) copy_b(t + kStages - 1);
    commit_copies();
    // The next fragments are written only once no wgmma is in flight: ptxas serializes every wgmma when
    // registers it reads are redefined while an earlier one may still run.
    wgmma_wait<0>();
    if (q == 0) arrive_barrier(empty + (t % kStages) * 8);
    if (tid == 0 && t + kStages - 1 < num_tiles) {
      // Its stage last held tile t-1 (none for t = 0): both warpgroups must be done with it.
      if (t >= 1) wait_barrier(empty + ((t - 1) % kStages) * 8, ((t - 1) / kStages) % 2);
      load_a(t + kStages - 1);
    }
    if (t + 1 < num_tiles) load_fragments(t + 1);
  }
  // Every TMA issued was waited for by both warpgroups, so none is in flight when the block ends.
  settle_accumulators(acc);

  store_transposed_tile(acc, c, ldc, m, n, alpha, beta, block_row, wg_col + frag_col, t4);
#endif
}

}  // namespace

void launch_tensor_core_tf32(const DeviceGemm& g) {
  require_wgmma("gpu/tensor-core-tf32");
  // A as k_padded x m floats, rows lda apart, read in kBK x kBM boxes, rounded to TF32 on the way in.
  const CUtensorMap a_map = tensor_map_128b_swizzle("gpu/tensor-core-tf32", g.a, g.m, g.k_padded, g.lda, kBM, kBK,
                                                    TmaValues::rounded_to_tf32);
  MC_CUDA_CHECK(
      cudaFuncSetAttribute(tensor_core_tf32, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)));
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  tensor_core_tf32<<<grid, kThreads, kSmemBytes, g.stream>>>(a_map, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                             g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
