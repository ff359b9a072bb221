// Beyond the seeds (after 001 v10): Hopper's warpgroup MMA instead of WMMA. Two warpgroups each issue
// wgmma m64n256k8 TF32 on a 256x128 block tile; A comes by TMA through a 4-stage ring, B through registers.
// The warpgroups synchronize only through the ring's barriers, so one's pauses overlap the other's
// tensor-core work. Needs sm_90a.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "device_gemm.cuh"
#include "kernels.hpp"

namespace matcompare::gpu {
namespace {

// TF32 wgmma reads only K-major operands from shared memory, and our B is N-major. So the wgmma computes
// the transposed tile, C^T = B^T A^T: its N x K operand is our A tile, K-major as stored, landed by TMA in
// the 128-byte swizzle its descriptor names; its M x K operand is our B tile, read from shared memory into
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

// The kernel has a body only in an sm_90a image; a plain sm_90 build runs on a Hopper GPU too, so the
// launcher asks the loaded image which one it got.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ int image_has_wgmma = 1;
#else
__device__ int image_has_wgmma = 0;
#endif

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ void init_barrier(std::uint32_t bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// The producer's arrival for a stage, announcing the bytes its TMA will land.
__device__ __forceinline__ void expect_bytes(std::uint32_t bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void arrive_barrier(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void wait_barrier(std::uint32_t bar, int parity) {
  asm volatile(
      "{\n.reg .pred done;\n"
      "wait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

// Rows [row, row + kBM) x columns [col, col + kBK) of A; out-of-range rows and columns arrive as zeros.
__device__ __forceinline__ void load_a_tile(const CUtensorMap* map, std::uint32_t dst, std::uint32_t bar, int col,
                                            int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(col), "r"(row), "r"(bar)
      : "memory");
}

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

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

__device__ __forceinline__ std::uint32_t to_tf32(float x) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

// K-major operand, 128-byte swizzle: rows of 128 bytes, 8-row groups 1024 bytes apart (stride offset);
// the leading offset is unused for this layout and set to 1 as is customary.
__device__ __forceinline__ std::uint64_t smem_descriptor(std::uint32_t addr) {
  return std::uint64_t((addr & 0x3FFFF) >> 4) | (std::uint64_t(1) << 16) | (std::uint64_t(1024 >> 4) << 32) |
         (std::uint64_t(1) << 62);
}

// d (64 x 256, this warpgroup's C^T tile) += a (64 x 8, registers) * b (8 x 256, descriptor).
__device__ __forceinline__ void wgmma_m64n256k8(float (&d)[kAccs], const std::uint32_t (&a)[4], std::uint64_t b) {
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
      "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
      "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
      "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
      "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
      "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127},"
      "{%128,%129,%130,%131}, %132, 1, 1, 1;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),
        "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]),
        "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]),
        "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
}

// After the last wgmma.wait: without it the compiler could move reads of the accumulators above the
// wait, since it only sees the wgmma as having produced them.
__device__ __forceinline__ void settle_accumulators(float (&d)[kAccs]) {
#pragma unroll
  for (int i = 0; i < kAccs; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#endif

__global__ __launch_bounds__(kThreads, 1) void tensor_core_tf32(const __grid_constant__ CUtensorMap a_map,
                                                                const float* __restrict__ b, int ldb,
                                                                float* __restrict__ c, int ldc, float alpha,
                                                                float beta, int m, int n, int k_padded) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
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
    load_a_tile(&a_map, smem_addr + (tile % kStages) * kATileBytes, bar, tile * kBK, block_row);
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
    for (int s = 0; s < kBK / 8; ++s) wgmma_m64n256k8(acc, frag[s], smem_descriptor(a_tile + s * 32));
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

  // Accumulator 4j+v of thread (g, t) holds C^T row g (v = 0, 1) or g+8 (v = 2, 3) and column 8j + 2t + v%2,
  // i.e. C row 8j + 2t + v%2 and column col + v/2. n_padded is a multiple of 4 and col even, so a pair
  // whose first column is < n lies inside the allocation.
  const int col = wg_col + frag_col;
  if (col < n) {
#pragma unroll
    for (int j = 0; j < kAccs / 4; ++j) {
#pragma unroll
      for (int v = 0; v < 2; ++v) {
        const int row = block_row + 8 * j + 2 * t4 + v;
        if (row >= m) continue;
        float* out = c + std::size_t(row) * ldc + col;
        float2 res = make_float2(alpha * acc[4 * j + v], alpha * acc[4 * j + v + 2]);
        if (beta != 0.0f) {
          const float2 old = *reinterpret_cast<const float2*>(out);
          res.x += beta * old.x;
          res.y += beta * old.y;
        }
        *reinterpret_cast<float2*>(out) = res;
      }
    }
  }
#endif
}

}  // namespace

void launch_tensor_core_tf32(const DeviceGemm& g) {
  int device = 0, major = 0, minor = 0;
  MC_CUDA_CHECK(cudaGetDevice(&device));
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  MC_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major != 9 || minor != 0)
    throw std::runtime_error("gpu/tensor-core-tf32 needs a Hopper GPU (wgmma, sm_90a); this device is sm_" +
                             std::to_string(major) + std::to_string(minor));
  static int checked_device = -1;  // the image check costs a synchronous copy: once per device
  if (checked_device != device) {
    int has_wgmma = 0;
    MC_CUDA_CHECK(cudaMemcpyFromSymbol(&has_wgmma, image_has_wgmma, sizeof(int)));
    if (!has_wgmma)
      throw std::runtime_error("gpu/tensor-core-tf32 was built without an sm_90a image (wgmma); build with "
                               "CMAKE_CUDA_ARCHITECTURES=90a");
    checked_device = device;
  }
  // The tensor map of A: k_padded x m floats, rows lda apart, read in kBK x kBM boxes that land in the
  // 128-byte swizzle. The driver entry point is looked up once (no link against libcuda).
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    MC_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("gpu/tensor-core-tf32: the driver has no cuTensorMapEncodeTiled");
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  CUtensorMap a_map;
  const cuuint64_t dims[2] = {cuuint64_t(g.k_padded), cuuint64_t(g.m)};
  const cuuint64_t strides[1] = {cuuint64_t(g.lda) * sizeof(float)};
  const cuuint32_t box[2] = {kBK, kBM};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult encoded = encode(&a_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(g.a), dims, strides,
                                  box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (encoded != CUDA_SUCCESS)
    throw std::runtime_error("gpu/tensor-core-tf32: cuTensorMapEncodeTiled failed with CUresult " +
                             std::to_string(int(encoded)));

  MC_CUDA_CHECK(
      cudaFuncSetAttribute(tensor_core_tf32, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)));
  const dim3 grid(ceil_div(g.n, kBN), ceil_div(g.m, kBM));
  tensor_core_tf32<<<grid, kThreads, kSmemBytes, g.stream>>>(a_map, g.b, g.ldb, g.c, g.ldc, g.alpha, g.beta, g.m, g.n,
                                                             g.k_padded);
  MC_CHECK_LAUNCH();
}

}  // namespace matcompare::gpu
