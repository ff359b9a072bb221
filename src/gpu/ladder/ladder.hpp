#pragma once
// The launch function of every step of the seed ladder, one per file in this folder, in the order the seeds teach
// them (src/core/registry.cpp lists them in the same order, with their seed steps). Each file opens with the same
// three lines: its seed step, its predecessor and what it adds.
namespace matcompare::gpu {

struct DeviceGemm;

// One thread per element of C.
void launch_naive(const DeviceGemm& g);                    // naive.cu: 000 gemmKernel
void launch_naive_coalesced(const DeviceGemm& g);          // naive_coalesced.cu: 003 matrixMul_naive, 004 GPU3
void launch_dot_transposed_b(const DeviceGemm& g);         // dot_transposed_b.cu: 003 matrixMul_coalescing
// Seed 002: column-major kernels with cooperative groups.
void launch_cg_warp_shuffle(const DeviceGemm& g);          // cg_warp_shuffle.cu: 002 sgemm_naive
void launch_cg_register_outputs(const DeviceGemm& g);      // cg_register_outputs.cu: 002 sgemm_shared
void launch_cg_thread_tile(const DeviceGemm& g);           // cg_thread_tile.cu: 002 sgemm_thread_tile
// Shared-memory tiles (001 v1/v2, 003, 004), then seed 004's lecture.
void launch_smem_tiled(const DeviceGemm& g);               // smem_tiled.cu: 001 v1/v2, 003 matrixMul_tiling, 004 matmul4
void launch_smem_tiled_pitched(const DeviceGemm& g);       // smem_tiled_pitched.cu: 004 matmul5
void launch_smem_tiled_template(const DeviceGemm& g);      // smem_tiled_template.cu: 004 matmul6
void launch_volkov_outer_product(const DeviceGemm& g);     // volkov_outer_product.cu: 004 matmul7
void launch_volkov_transposed_a(const DeviceGemm& g);      // volkov_transposed_a.cu: 004 matmul8
// Seed 000's thread tiles from global memory.
void launch_float4_global(const DeviceGemm& g);            // float4_global.cu: 000 gemm_use_128
void launch_thread_tile_global(const DeviceGemm& g);       // thread_tile_global.cu: 000 gemm_use_tile
// Seeds 000 and 001 from 001 v3 on: block tiles, thread tiles, pipelining.
void launch_smem_thread_tile(const DeviceGemm& g);         // smem_thread_tile.cu: 001 v3
void launch_smem_remapped_loads(const DeviceGemm& g);      // smem_remapped_loads.cu: 001 v4
void launch_smem_float4(const DeviceGemm& g);              // smem_float4.cu: 000 gemm_use_smem, 001 v5
void launch_smem_transposed_a(const DeviceGemm& g);        // smem_transposed_a.cu: 000 gemm_transpose_smem, 001 v6
void launch_smem_outer_product(const DeviceGemm& g);       // smem_outer_product.cu: 001 v7
void launch_register_prefetch(const DeviceGemm& g);        // register_prefetch.cu: 000 gemm_hide_smem_latency
void launch_double_buffered(const DeviceGemm& g);          // double_buffered.cu: 000 gemm_final, 001 v8
void launch_warp_tiled(const DeviceGemm& g);               // warp_tiled.cu: one step beyond 000 / 001 v8
// Tensor cores.
void launch_wmma_tf32(const DeviceGemm& g);                // wmma_tf32.cu: 001 v10

}  // namespace matcompare::gpu
