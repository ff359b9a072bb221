// The one list of backends. Order: CPU then GPU, each ladder in the order its seeds teach it,
// the vendor library last on its device, then the rows that run on several GPUs.
#include "matcompare/registry.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "../cpu/kernels.hpp"
#include "../cpu/vendors/vendors.hpp"
#include "../gpu/cutlass/cutlass_tf32.hpp"
#include "../gpu/hopper/tensor_core.hpp"
#include "../gpu/hopper/tf32_passes.hpp"
#include "../gpu/ladder/ladder.hpp"
#include "../gpu/multi/multi_gpu.hpp"
#include "../gpu/runtime/gpu_runtime.hpp"
#include "../gpu/simt/simt_tuning.hpp"
#include "../gpu/vendor/cublas.hpp"
#include "../gpu/vendor/cublaslt.hpp"

// Launchers and the scratch sizes that depend on the GPU exist only in the CUDA build.
#if MATCOMPARE_HAVE_CUDA
#define GPU_LAUNCH(fn) &gpu::fn
#define GPU_SCRATCH(fn) &gpu::fn
#else
#define GPU_LAUNCH(fn) nullptr
#define GPU_SCRATCH(fn) nullptr
#endif

namespace matcompare {
namespace {

using gpu::GpuKernelSpec;

BackendInfo describe(const char* name, const char* seed, const char* idea, Precision p = Precision::fp32,
                     bool vendor = false) {
  BackendInfo info;
  info.name = name;
  info.seed = seed;
  info.idea = idea;
  info.precision = p;
  info.vendor = vendor;
  info.precision_vendor = vendor;
  info.vendor_library = vendor;
  return info;
}

std::size_t transposed_b_bytes(const GemmShape& s) { return std::size_t(s.k) * std::size_t(s.n) * sizeof(float); }

std::vector<std::unique_ptr<Backend>> build_backends() {
  std::vector<std::unique_ptr<Backend>> list;
  auto cpu = [&](BackendInfo info, cpu::CpuKernel kernel) { list.push_back(cpu::make_cpu_backend(std::move(info), kernel)); };
  auto gpu = [&](BackendInfo info, GpuKernelSpec spec) { list.push_back(gpu::make_gpu_backend(std::move(info), spec)); };

  cpu(describe("cpu/gold", "003 Gold; 004 CPU (ijk)", "textbook i-j-k triple loop, one thread"), cpu::gemm_gold);
  cpu(describe("cpu/gold-omp", "003 Gold_with_omp", "rows of C shared among OpenMP threads"), cpu::gemm_gold_omp);
  cpu(describe("cpu/transposed-b", "003 Gold_with_transpose", "B transposed first so both operands are read along rows"),
      cpu::gemm_transposed_b);
  cpu(describe("cpu/single-packing", "003 S_packing", "each step computes 1x4 outputs, reusing one A value for 4 columns"),
      cpu::gemm_single_packing);
  cpu(describe("cpu/double-packing", "003 D_packing", "4x4 register block of C: 4 rows of A reused against 4 columns of B"),
      cpu::gemm_double_packing);
  cpu(describe("cpu/tiling", "003 Tiling", "cache blocks of A, B and C so each block is reused while it is in cache"),
      cpu::gemm_tiling);
  cpu(describe("cpu/loop-ijk", "004 loop order ijk", "dot product order: B read down a column (stride N)"), cpu::gemm_loop_ijk);
  cpu(describe("cpu/loop-ikj", "004 loop order ikj", "inner loop runs along rows of B and C: unit stride, vectorizable"),
      cpu::gemm_loop_ikj);
  cpu(describe("cpu/loop-jik", "004 loop order jik", "dot product order with j outermost"), cpu::gemm_loop_jik);
  cpu(describe("cpu/loop-jki", "004 loop order jki", "inner loop walks columns of A and C: stride K and N"), cpu::gemm_loop_jki);
  cpu(describe("cpu/loop-kij", "004 loop order kij", "rank-1 updates, inner loop along rows of B and C"), cpu::gemm_loop_kij);
  cpu(describe("cpu/loop-kji", "004 loop order kji", "rank-1 updates, inner loop down columns of A and C"), cpu::gemm_loop_kji);
  // The rows that take every layout: the packing absorbs a transpose (cpu/blis), or the library does.
  auto every_layout = [](BackendInfo info) {
    info.all_layouts = true;
    return info;
  };
  cpu(every_layout(describe("cpu/blis", "BLIS-style step beyond the seeds",
                            "packed panels, five blocking loops, a register micro-kernel picked by what the CPU "
                            "reports; threads take each k block's work in units as they finish")),
      cpu::gemm_blis);
  cpu(every_layout(describe("cpu/openblas", "vendor (003/004 baselines)", "OpenBLAS cblas_sgemm", Precision::fp32, true)),
      cpu::gemm_openblas);
  // The other CPU vendor libraries, each from a plugin of its own (src/cpu/vendors/); unavailable where not built.
  auto cpu_vendor = [&](cpu::vendors::Vendor v, const char* idea) {
    BackendInfo info = describe(cpu::vendors::row_name(v), "vendor library (beside the 003/004 baseline)", idea);
    info.vendor_library = true;
    info.all_layouts = true;
    list.push_back(cpu::vendors::make_backend(v, std::move(info)));
  };
  cpu_vendor(cpu::vendors::Vendor::blis,
             "the BLIS library's bli_sgemm (Debian's libblis, OpenMP), from a plugin; cpu/blis is our own BLIS-style step");
  cpu_vendor(cpu::vendors::Vendor::mkl, "Intel oneMKL cblas_sgemm (static, GNU OpenMP threading), from a plugin");

  // A GPU step's launch with the default layout (N and K padded to 4 floats); the named steps add the rest.
  auto kernel = [](gpu::LaunchFn launch) { return GpuKernelSpec(launch); };
  gpu(describe("gpu/naive", "000 gemmKernel", "one thread per element; threadIdx.x walks rows, so warps are uncoalesced"),
      kernel(GPU_LAUNCH(launch_naive)));
  gpu(describe("gpu/naive-coalesced", "003 matrixMul_naive; 004 GPU3",
               "one thread per element; threadIdx.x walks columns, so a warp reads B and writes C contiguously"),
      kernel(GPU_LAUNCH(launch_naive_coalesced)));
  gpu(describe("gpu/dot-transposed-b", "003 matrixMul_coalescing",
               "B transposed on the device first, then row-by-row dot products"),
      kernel(GPU_LAUNCH(launch_dot_transposed_b)).with_scratch(&transposed_b_bytes));
  gpu(describe("gpu/cg-warp-shuffle", "002 sgemm_naive",
               "column-major 32x32 tile per block; A values passed between lanes by warp shuffles"),
      kernel(GPU_LAUNCH(launch_cg_warp_shuffle)));
  gpu(describe("gpu/cg-register-outputs", "002 sgemm_shared", "outputs kept in registers instead of a shared tile"),
      kernel(GPU_LAUNCH(launch_cg_register_outputs)));
  gpu(describe("gpu/cg-thread-tile-2x2", "002 sgemm_thread_tile",
               "each thread computes a 2x2 tile; padded shared tiles; C staged through shared memory"),
      kernel(GPU_LAUNCH(launch_cg_thread_tile)));
  gpu(describe("gpu/smem-tiled", "001 v1/v2; 003 matrixMul_tiling; 004 matmul4",
               "square tiles of A and B staged in dynamic shared memory, run-time tile size, bounds checks"),
      kernel(GPU_LAUNCH(launch_smem_tiled)));
  gpu(describe("gpu/smem-tiled-pitched", "004 matmul5",
               "matrices padded to whole tiles (cudaMallocPitch) so the kernel has no bounds checks"),
      kernel(GPU_LAUNCH(launch_smem_tiled_pitched)).padded_to(32, 32, 32));
  gpu(describe("gpu/smem-tiled-template", "004 matmul6", "tile size a template parameter: loops fully unrolled"),
      kernel(GPU_LAUNCH(launch_smem_tiled_template)).padded_to(32, 32, 32));
  gpu(describe("gpu/volkov-outer-product", "004 matmul7",
               "Volkov: a thread owns a 16-row column of a C tile in registers; B read straight to registers"),
      kernel(GPU_LAUNCH(launch_volkov_outer_product)).padded_to(16, 64, 32));
  gpu(describe("gpu/volkov-transposed-a", "004 matmul8", "Volkov with the A tile stored transposed and padded (+1)"),
      kernel(GPU_LAUNCH(launch_volkov_transposed_a)).padded_to(16, 64, 32));
  gpu(describe("gpu/float4-global", "000 gemm_use_128", "each thread computes 4x4 outputs from 128-bit float4 loads"),
      kernel(GPU_LAUNCH(launch_float4_global)));
  gpu(describe("gpu/thread-tile-global", "000 gemm_use_tile", "larger 8x8 thread tile from float4 loads, no shared memory"),
      kernel(GPU_LAUNCH(launch_thread_tile_global)));
  gpu(describe("gpu/smem-thread-tile", "001 v3", "128x128x8 shared tiles, 32x32 threads each computing 4x4 outputs"),
      kernel(GPU_LAUNCH(launch_smem_thread_tile)));
  gpu(describe("gpu/smem-remapped-loads", "001 v4", "thread indices remapped so tile loads are coalesced"),
      kernel(GPU_LAUNCH(launch_smem_remapped_loads)));
  gpu(describe("gpu/smem-float4", "000 gemm_use_smem; 001 v5",
               "256 threads, 8x8 outputs each, tiles loaded with float4"),
      kernel(GPU_LAUNCH(launch_smem_float4)));
  gpu(describe("gpu/smem-transposed-a", "000 gemm_transpose_smem; 001 v6",
               "A tile stored transposed in shared memory: column reads become row reads"),
      kernel(GPU_LAUNCH(launch_smem_transposed_a)));
  gpu(describe("gpu/smem-outer-product", "001 v7", "fragments read from shared memory as float4: outer product per k"),
      kernel(GPU_LAUNCH(launch_smem_outer_product)));
  gpu(describe("gpu/register-prefetch", "000 gemm_hide_smem_latency",
               "next k's fragments loaded into registers while this k's are multiplied"),
      kernel(GPU_LAUNCH(launch_register_prefetch)));
  gpu(describe("gpu/double-buffered", "000 gemm_final; 001 v8",
               "two shared buffers: the next tile is fetched from global memory during compute"),
      kernel(GPU_LAUNCH(launch_double_buffered)));
  gpu(describe("gpu/warp-tiled", "beyond the seeds (after 000 gemm_final / 001 v8)",
               "each warp owns a 64x32 warp tile of 4x4 lane sub-tiles, BK 16, B prefetched by cp.async"),
      kernel(GPU_LAUNCH(launch_warp_tiled)));
  gpu(every_layout(describe("gpu/simt-tuned", "beyond the seeds (after gpu/warp-tiled)",
                            "warp tiling as a parameter space (tiles, cp.async stages, A layout, rasterization); a "
                            "tuned table picks the variant per GPU and shape class; a part-empty last round is cut in "
                            "k across idle slots; B stored transposed is copied KxN first from 512 rows of C on; "
                            "below, a C of fewer rows than columns with B stored transposed runs turned around (C^T, "
                            "NN, A copied KxM), else a transposed operand goes through registers where its tile needs; "
                            "up to 32 rows (decode) go to a few-rows kernel that streams B once, K split across "
                            "blocks; few tiles and deep K split K")),
      kernel(GPU_LAUNCH(launch_simt_tuned))
          .with_scratch(GPU_SCRATCH(simt_tuned_scratch_bytes))
          .choosing_with(GPU_LAUNCH(choose_simt_tuned)));
  gpu(describe("gpu/wmma-tf32", "001 v10", "tensor cores through WMMA 16x16x8 TF32 fragments", Precision::tf32),
      kernel(GPU_LAUNCH(launch_wmma_tf32)));
  gpu(describe("gpu/tensor-core-tf32", "beyond the seeds (after 001 v10)",
               "Hopper wgmma TF32 on C^T tiles: A by TMA (4-stage ring), B via registers, decoupled warpgroups",
               Precision::tf32),
      kernel(GPU_LAUNCH(launch_tensor_core_tf32)).needs_compute_capability(90));
  gpu(every_layout(describe("gpu/tensor-core-tf32-ws", "beyond the seeds (after gpu/tensor-core-tf32)",
                            "warp-specialized and persistent: a TMA producer warpgroup (A and B, 128-byte swizzle), "
                            "two consumer warpgroups with double-buffered fragments, grouped tile order; the tile that "
                            "fills the last wave best, split K while tiles are fewer than SMs (a cluster adding its "
                            "sums in shared memory, or planes and a second kernel where the clusters would not all "
                            "fit); A stored transposed is copied K-major first; up to 4 rows go to the FP32 few-rows "
                            "kernel",
                            Precision::tf32)),
      kernel(GPU_LAUNCH(launch_tensor_core_tf32_ws))
          .with_scratch(GPU_SCRATCH(tf32_scratch_bytes))
          .choosing_with(GPU_LAUNCH(choose_tensor_core_tf32_ws))
          .needs_compute_capability(90));
  gpu(every_layout(describe("gpu/tensor-core-3xtf32", "beyond the seeds (after gpu/tensor-core-tf32-ws)",
                            "FP32 accuracy on TF32 tensor cores: big and small TF32 parts, three passes (big*big, "
                            "big*small, small*big); up to 32 rows go to the FP32 few-rows kernel, products bound by the "
                            "operands' bytes to FP32 SIMT")),
      kernel(GPU_LAUNCH(launch_tensor_core_3xtf32))
          .with_scratch(GPU_SCRATCH(split_scratch_bytes))
          .choosing_with(GPU_LAUNCH(choose_tensor_core_3xtf32))
          .needs_compute_capability(90));
  BackendInfo cublas_tf32 =
      describe("gpu/cublas-tf32", "001 v10 baseline", "cuBLAS SGEMM with TF32 tensor-op math", Precision::tf32);
  cublas_tf32.precision_vendor = true;
  cublas_tf32.vendor_library = true;
  gpu(every_layout(cublas_tf32), kernel(GPU_LAUNCH(launch_cublas_tf32)).with_cublas_handle());
  gpu(every_layout(describe("gpu/cublas-fp32", "000 8.4.8; 001 v9; 004 matmulC", "cuBLAS SGEMM, default FP32 math",
                            Precision::fp32, true)),
      kernel(GPU_LAUNCH(launch_cublas_fp32)).with_cublas_handle());
  // cuBLASLt with its algorithm searched per shape when A and B are uploaded (issue 29): candidates for the best
  // vendor of their precision, beside the baselines above. GPU_LAUNCH names the search hooks too.
  auto cublaslt = [&](const char* name, const char* idea, Precision p, gpu::LaunchFn launch, gpu::ChooseFn choose) {
    BackendInfo info = every_layout(describe(name, "beyond the seeds (after 000 8.4.8 cuBLAS)", idea, p));
    info.vendor_library = true;
    gpu(info, kernel(launch).with_cublaslt_handle().choosing_with(choose).with_scratch(
                  GPU_SCRATCH(cublaslt_workspace_bytes)));
  };
  cublaslt("gpu/cublaslt-tf32",
           "cublasLtMatmul with TF32 compute: the fastest of the heuristic's 8 candidates, timed per shape",
           Precision::tf32, GPU_LAUNCH(launch_cublaslt_tf32), GPU_LAUNCH(choose_cublaslt_tf32));
  cublaslt("gpu/cublaslt-fp32",
           "cublasLtMatmul with FP32 compute: the fastest of the heuristic's 8 candidates, timed per shape",
           Precision::fp32, GPU_LAUNCH(launch_cublaslt_fp32), GPU_LAUNCH(choose_cublaslt_fp32));
  // CUTLASS (issue 29): a vendor library of TF32, a candidate for the best vendor beside cuBLAS.
  BackendInfo cutlass_tf32 = describe(
      "gpu/cutlass-tf32", "vendor library (beside gpu/cublas-tf32)",
      "CUTLASS 3.x Sm90 TF32 GEMM from its collective builders: cooperative warp-specialized persistent kernel, "
      "128x256x32 tiles of C^T = B^T A^T, 2x1 cluster, TMA epilogue; row-major B is MN-major, which TF32 wgmma takes "
      "only from registers, so B is register-sourced (wgmma RS) and nothing is transposed; B stored transposed goes "
      "by TMA to the all-K-major kernel, and A stored transposed is first copied K-major",
      Precision::tf32);
  cutlass_tf32.vendor_library = true;
  cutlass_tf32.all_layouts = true;
  list.push_back(gpu::make_cutlass_backend(cutlass_tf32));
  // Past one GPU (issue 10): NVIDIA's engines on every GPU of --devices, compared with cuBLAS FP32 on one.
  list.push_back(gpu::make_cublasxt_backend(
      describe("gpu/cublasxt-fp32", "beyond the seeds (after 000 8.4.8 cuBLAS)",
               "cuBLASXt SGEMM on every selected GPU from host-resident matrices, tiled out of core: end to end")));
  list.push_back(gpu::make_cublasmp_backend(
      describe("gpu/cublasmp-fp32", "beyond the seeds (after 000 8.4.8 cuBLAS)",
               "cuBLASMp SGEMM over NCCL, one process per selected GPU, A, B and C block-cyclic on the GPUs")));
  return list;
}

// Whole-name glob match with '*' as the only wildcard.
bool glob_matches(const std::string& name, const std::string& pattern) {
  std::size_t n = 0, p = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == name[n]) {
      ++n;
      ++p;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// A name "contains" a pattern: "loop" and "smem*4" both match anywhere in the name.
bool matches(const std::string& name, const std::string& pattern) { return glob_matches(name, "*" + pattern + "*"); }

}  // namespace

const std::vector<const Backend*>& all_backends() {
  static const std::vector<std::unique_ptr<Backend>> owned = build_backends();
  static const std::vector<const Backend*> view = [] {
    std::vector<const Backend*> v;
    for (const auto& b : owned) v.push_back(b.get());
    return v;
  }();
  return view;
}

const Backend& find_backend(const std::string& name) {
  for (const Backend* b : all_backends())
    if (b->info().name == name) return *b;
  std::string similar;
  for (const Backend* b : all_backends())
    if (matches(b->info().name, name.substr(name.find('/') == std::string::npos ? 0 : name.find('/') + 1)))
      similar += (similar.empty() ? "" : ", ") + b->info().name;
  throw std::invalid_argument("no backend named '" + name + "'" +
                              (similar.empty() ? " (matcompare --list shows them)" : "; did you mean " + similar + "?"));
}

std::vector<const Backend*> select_backends(const std::string& patterns) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    const std::size_t comma = patterns.find(',', start);
    const std::string part = patterns.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::vector<const Backend*> chosen;
  for (const Backend* b : all_backends()) {
    const bool take = parts.empty() || std::any_of(parts.begin(), parts.end(),
                                                   [&](const std::string& p) { return matches(b->info().name, p); });
    if (take) chosen.push_back(b);
  }
  return chosen;
}

}  // namespace matcompare
