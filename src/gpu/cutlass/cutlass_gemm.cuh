#pragma once
// gpu/cutlass-tf32's kernels: CUTLASS 3.x's Sm90 TF32 GEMM put together by its collective builders (FP32 data, TF32
// tensor-core math, FP32 accumulation), warp-specialized and persistent, with the TMA epilogue D = α·acc + β·C.
// Each kernel_*.cu instantiates one configuration; this header is included by those files alone, which are built
// apart (cmake/Cutlass.cmake) for sm_90a with -DNDEBUG.
//
// The layout. TF32 wgmma reads both operands K-major from shared memory, and our matrices are row-major: A (M×K)
// is K-major, B (K×N) is N-major. CUTLASS takes an MN-major 32-bit operand all the same, by sourcing it from
// registers (wgmma RS): in cutlass/gemm/collective/builders/sm90_common.inl, is_use_rmem_A() is true for
// non-16-bit types unless both operands are K-major, which selects the builder's GMMA_TMA_WS_RS specialization
// (sm90_gmma_builder.inl) and the mainloop sm90_mma_tma_gmma_rs_warpspecialized.hpp; the MN-major operand must be
// CUTLASS's A. So the row computes Cᵀ = Bᵀ·Aᵀ in column-major terms, as cuBLAS does: CUTLASS's (M, N, K) is our
// (N, M, K), its A is our B (column-major, MN-major, through registers), its B our A (K-major, read by wgmma from
// shared memory) and its C our C (column-major Cᵀ), written by the TMA epilogue. CUTLASS's other answer to A
// K-major with B MN-major, swapping them itself (is_swapAB), needs the EpilogueTransposed schedule, whose
// epilogue stores one element at a time without TMA. Operands::transposed_b is the comparison: B transposed into
// K-major scratch by a kernel of ours inside the timed compute, then the all-K-major (shared-memory) path.
//
// Other layouts: an operand stored otherwise than a kernel reads it is first copied, transposed, into scratch by the
// same kernel of ours, inside the timed compute (A stored transposed is MN-major, which both paths take K-major;
// B stored transposed is K-major, which the register path takes MN-major). The row picks, per layout, the kernel
// that needs no copy of B (cutlass_row.cpp), so at most A is copied.
#include <cutlass/cutlass.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/kernel_hardware_info.h>
#include <cutlass/version.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../runtime/device_gemm.cuh"
#include "cutlass_kernels.hpp"

namespace matcompare::gpu::cutlass_gemm {

enum class Operands {
  transposed_problem,  // Cᵀ = Bᵀ·Aᵀ: B (MN-major) through registers, no copy of any operand
  transposed_b,        // B transposed into K-major scratch first, then both operands from shared memory
};

inline std::size_t round_up(std::size_t x, std::size_t multiple) { return (x + multiple - 1) / multiple * multiple; }
inline int padded(std::int64_t x, int multiple) { return int((x + multiple - 1) / multiple * multiple); }

// The transpose (cols × rows, leading dimension rows) of a rows × cols matrix `src` (leading dimension ld): Bᵀ
// (n_padded × k_padded) from B with both padded extents, so the zero padding of B becomes the zero padding of Bᵀ;
// also B from a B stored transposed, and A K-major from an A stored transposed. A square tile goes through shared
// memory, its rows padded by one word so that the column reads are free of bank conflicts.
// (A template, so that only the file that launches it compiles it, and each file's copy may be merged.)
template <int kTile = 32>
__global__ void transpose_into_k_major(const float* __restrict__ src, int ld, float* __restrict__ dst, int rows,
                                       int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
  for (int i = threadIdx.y; i < kTile; i += blockDim.y)
    if (r0 + i < rows && c0 + int(threadIdx.x) < cols)
      tile[i][threadIdx.x] = src[std::size_t(r0 + i) * ld + c0 + threadIdx.x];
  __syncthreads();
  for (int i = threadIdx.y; i < kTile; i += blockDim.y)
    if (c0 + i < cols && r0 + int(threadIdx.x) < rows)
      dst[std::size_t(c0 + i) * rows + r0 + threadIdx.x] = tile[threadIdx.x][i];
}

// One configuration: the operand path, the kernel schedule and its epilogue's, the block tile (CUTLASS's M×N×K)
// and the cluster.
template <Operands kOperands, class KernelSchedule, class EpilogueSchedule, class TileShape, class ClusterShape>
struct CutlassTf32 {
  static constexpr bool kTransposedProblem = kOperands == Operands::transposed_problem;
  using ColumnMajor = cutlass::layout::ColumnMajor;
  using RowMajor = cutlass::layout::RowMajor;
  // CUTLASS's B is K-major ("column-major" K×N) on both paths: our A, or our Bᵀ.
  using LayoutA = std::conditional_t<kTransposedProblem, ColumnMajor, RowMajor>;
  using LayoutB = ColumnMajor;
  using LayoutC = std::conditional_t<kTransposedProblem, ColumnMajor, RowMajor>;
  static constexpr int kAlignment = 4;  // floats in 16 bytes: what TMA needs of every leading dimension

  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float, float, LayoutC, kAlignment, float, LayoutC,
      kAlignment, EpilogueSchedule>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, LayoutA, kAlignment, float, LayoutB, kAlignment,
      float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
      KernelSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
  using StrideA = typename Kernel::StrideA;
  using StrideB = typename Kernel::StrideB;
  using StrideC = typename Kernel::StrideC;
  using StrideD = typename Kernel::StrideD;

  // A stride of a 2-D matrix with leading dimension ld: the one of its first two modes that is not the unit one.
  template <class Stride>
  static Stride leading(std::int64_t ld) {
    Stride s{};
    if constexpr (cute::is_static<std::remove_reference_t<decltype(cute::get<0>(s))>>::value)
      cute::get<1>(s) = ld;
    else
      cute::get<0>(s) = ld;
    return s;
  }

  // The copies a problem needs, in scratch in this order: A made K-major, B made the way this kernel reads it.
  static bool copies_a(const DeviceGemm& g) { return g.a_transposed; }
  static bool copies_b(const DeviceGemm& g) { return g.b_transposed == kTransposedProblem; }
  static std::size_t a_copy_bytes(const DeviceGemm& g) {
    return copies_a(g) ? round_up(std::size_t(g.m) * std::size_t(g.k_padded) * sizeof(float), 256) : 0;
  }
  static std::size_t b_copy_bytes(const DeviceGemm& g) {
    return copies_b(g) ? round_up(std::size_t(g.n_padded) * std::size_t(g.k_padded) * sizeof(float), 256) : 0;
  }

  // A as the kernels read it, K-major (rows lda apart), and B: K×N rows ldb apart for the register path, N×K for
  // the shared-memory path.
  struct Operands2D {
    const float* a;
    std::int64_t lda;
    const float* b;
    std::int64_t ldb;
  };

  // The CUTLASS arguments for our row-major problem. The padded N and K make every leading dimension and every
  // contiguous extent a multiple of 4 floats (TMA's 16 bytes); the padding of A and B is zero, so C's padding
  // columns get α·0 + β·0 and stay zero.
  static typename Gemm::Arguments arguments(const DeviceGemm& g, const Operands2D& in, int device) {
    cutlass::KernelHardwareInfo hw;
    hw.device_id = device;
    hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
    typename Gemm::Arguments args;
    args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
    args.hw_info = hw;
    args.epilogue.thread.alpha = g.alpha;
    args.epilogue.thread.beta = g.beta;
    args.epilogue.ptr_C = g.c;
    args.epilogue.dC = leading<StrideC>(g.ldc);
    args.epilogue.ptr_D = g.c;
    args.epilogue.dD = leading<StrideD>(g.ldc);
    if constexpr (kTransposedProblem) {
      args.problem_shape = {g.n_padded, g.m, g.k_padded, 1};
      args.mainloop.ptr_A = in.b;
      args.mainloop.dA = leading<StrideA>(in.ldb);
      args.mainloop.ptr_B = in.a;
      args.mainloop.dB = leading<StrideB>(in.lda);
    } else {
      args.problem_shape = {g.m, g.n_padded, g.k_padded, 1};
      args.mainloop.ptr_A = in.a;
      args.mainloop.dA = leading<StrideA>(in.lda);
      args.mainloop.ptr_B = in.b;
      args.mainloop.dB = leading<StrideB>(in.ldb);
    }
    return args;
  }

  // The scratch a shape needs: its copies, then CUTLASS's workspace.
  static std::size_t scratch_bytes(const GemmShape& s) {
    DeviceGemm g{};
    g.m = int(s.m);
    g.n_padded = padded(s.n, kCutlassPadN);
    g.k_padded = padded(s.k, kCutlassPadK);
    g.a_transposed = a_transposed(s.layout);
    g.b_transposed = b_transposed(s.layout);
    int device = 0;
    MC_CUDA_CHECK(cudaGetDevice(&device));
    const Operands2D in{nullptr, g.k_padded, nullptr, kTransposedProblem ? g.n_padded : g.k_padded};
    g.ldc = g.n_padded;
    return a_copy_bytes(g) + b_copy_bytes(g) + Gemm::get_workspace_size(arguments(g, in, device));
  }

  // What the last launch initialised: CUTLASS's initialize() encodes the TMA descriptors and sets the kernel's
  // shared memory on the host, so it is done again only when a pointer, a dimension, α, β or the device changes.
  struct Key {
    const void *a, *b, *c, *scratch;
    int m, n_padded, k_padded, lda, ldb, ldc, device;
    bool a_transposed, b_transposed;
    float alpha, beta;
    bool operator==(const Key& o) const {
      return a == o.a && b == o.b && c == o.c && scratch == o.scratch && m == o.m && n_padded == o.n_padded &&
             k_padded == o.k_padded && lda == o.lda && ldb == o.ldb && ldc == o.ldc && device == o.device &&
             a_transposed == o.a_transposed && b_transposed == o.b_transposed && alpha == o.alpha && beta == o.beta;
    }
  };

  // The kernel's entry for cutlass_row.cpp, made once: `name` is what MATCOMPARE_CUTLASS_KERNEL selects it by,
  // `schedule` and `path` go into its description.
  static const CutlassKernel& kernel(const char* name, const char* schedule, const char* path) {
    static const CutlassKernel entry = [&] {
      name_ = name;
      return CutlassKernel{name, describe(schedule, path), &launch, &scratch_bytes};
    }();
    return entry;
  }

 private:
  static inline std::string name_;

  static void launch(const DeviceGemm& g) {
    const std::string& name = name_;
    int device = 0;
    MC_CUDA_CHECK(cudaGetDevice(&device));
    // transpose_into_k_major(src, ld, dst, rows, cols) writes the rows x cols matrix at src transposed, rows apart.
    constexpr int kTile = 32;
    auto transpose = [&](const float* src, int ld, float* dst, int rows, int cols) {
      const dim3 block(kTile, 8), grid(ceil_div(cols, kTile), ceil_div(rows, kTile));
      transpose_into_k_major<kTile><<<grid, block, 0, g.stream>>>(src, ld, dst, rows, cols);
      MC_CHECK_LAUNCH();
    };
    Operands2D in{g.a, g.lda, g.b, g.ldb};
    char* copies = static_cast<char*>(g.scratch);
    if (copies_a(g)) {  // A stored K×M: M×K, rows k_padded apart
      float* a = reinterpret_cast<float*>(copies);
      transpose(g.a, g.lda, a, g.k_padded, g.m);
      in.a = a, in.lda = g.k_padded;
    }
    if (copies_b(g)) {  // the register path's K×N from N×K (rows n_padded apart), or the other way (k_padded)
      float* b = reinterpret_cast<float*>(copies + a_copy_bytes(g));
      if (kTransposedProblem)
        transpose(g.b, g.ldb, b, g.n_padded, g.k_padded);
      else
        transpose(g.b, g.ldb, b, g.k_padded, g.n_padded);
      in.b = b, in.ldb = kTransposedProblem ? g.n_padded : g.k_padded;
    }
    static std::mutex mutex;
    static Gemm gemm;
    static Key last{};
    static bool ready = false, per_launch = false;
    const std::lock_guard<std::mutex> lock(mutex);
    const Key key{g.a, g.b, g.c, g.scratch, g.m, g.n_padded, g.k_padded, g.lda, g.ldb, g.ldc, device,
                  g.a_transposed, g.b_transposed, g.alpha, g.beta};
    // A kernel with a workspace (a split or stream-K scheduler) may need it set up before each launch; these have none.
    if (!ready || !(key == last) || per_launch) {
      ready = false;
      const typename Gemm::Arguments args = arguments(g, in, device);
      const std::size_t offset = a_copy_bytes(g) + b_copy_bytes(g);
      const std::size_t workspace_bytes = Gemm::get_workspace_size(args);
      if (offset + workspace_bytes > g.scratch_bytes)
        throw std::runtime_error("gpu/cutlass-tf32 (" + name + "): needs " + std::to_string(offset + workspace_bytes) +
                                 " bytes of scratch, the workspace has " + std::to_string(g.scratch_bytes));
      const cutlass::Status status = Gemm::can_implement(args);
      if (status != cutlass::Status::kSuccess)
        throw std::runtime_error("CUTLASS cannot implement gpu/cutlass-tf32 (" + name + ") for " +
                                 std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) + ": " +
                                 cutlassGetStatusString(status));
      void* workspace = workspace_bytes ? static_cast<char*>(g.scratch) + offset : nullptr;
      check(gemm.initialize(args, workspace, g.stream), "initialize", name);
      last = key;
      ready = true;
      per_launch = workspace_bytes != 0;
    }
    check(gemm.run(g.stream), "run", name);
    MC_CHECK_LAUNCH();
  }

  // A failed CUTLASS call becomes an exception; the CUDA error behind it, if any, is taken (and so cleared) with it.
  static void check(cutlass::Status status, const char* what, const std::string& name) {
    if (status == cutlass::Status::kSuccess) return;
    const cudaError_t cuda = cudaGetLastError();
    throw std::runtime_error("CUTLASS " + std::string(what) + " failed for gpu/cutlass-tf32 (" + name + "): " +
                             cutlassGetStatusString(status) +
                             (cuda == cudaSuccess ? "" : std::string(" (CUDA: ") + cudaGetErrorString(cuda) + ")"));
  }

  static std::string describe(const char* schedule, const char* path) {
    auto dims = [](auto shape) {
      return std::to_string(int(cute::size<0>(shape))) + "x" + std::to_string(int(cute::size<1>(shape))) + "x" +
             std::to_string(int(cute::size<2>(shape)));
    };
    return "CUTLASS " + std::to_string(CUTLASS_MAJOR) + "." + std::to_string(CUTLASS_MINOR) + "." +
           std::to_string(CUTLASS_PATCH) + " " + schedule + ", tile " + dims(TileShape{}) +
           (kTransposedProblem ? " of C^T (N x M x K)" : " of C (M x N x K)") + ", cluster " +
           dims(ClusterShape{}) + ", " + std::to_string(int(Mainloop::DispatchPolicy::Stages)) + " stages; " + path;
  }
};

}  // namespace matcompare::gpu::cutlass_gemm
