#pragma once
// The launch function of every GPU step, one per file under src/gpu/ (registry.cpp lists them).
namespace matcompare::gpu {

struct DeviceGemm;

void launch_naive(const DeviceGemm& g);                    // naive.cu
void launch_naive_coalesced(const DeviceGemm& g);          // naive_coalesced.cu
void launch_dot_transposed_b(const DeviceGemm& g);         // dot_transposed_b.cu
void launch_cg_warp_shuffle(const DeviceGemm& g);          // cg_warp_shuffle.cu
void launch_cg_register_outputs(const DeviceGemm& g);      // cg_register_outputs.cu
void launch_cg_thread_tile(const DeviceGemm& g);           // cg_thread_tile.cu
void launch_smem_tiled(const DeviceGemm& g);               // smem_tiled.cu
void launch_smem_tiled_pitched(const DeviceGemm& g);       // smem_tiled_pitched.cu
void launch_smem_tiled_template(const DeviceGemm& g);      // smem_tiled_template.cu
void launch_volkov_outer_product(const DeviceGemm& g);     // volkov_outer_product.cu
void launch_volkov_transposed_a(const DeviceGemm& g);      // volkov_transposed_a.cu
void launch_float4_global(const DeviceGemm& g);            // float4_global.cu
void launch_thread_tile_global(const DeviceGemm& g);       // thread_tile_global.cu
void launch_smem_thread_tile(const DeviceGemm& g);         // smem_thread_tile.cu
void launch_smem_remapped_loads(const DeviceGemm& g);      // smem_remapped_loads.cu
void launch_smem_float4(const DeviceGemm& g);              // smem_float4.cu
void launch_smem_transposed_a(const DeviceGemm& g);        // smem_transposed_a.cu
void launch_smem_outer_product(const DeviceGemm& g);       // smem_outer_product.cu
void launch_register_prefetch(const DeviceGemm& g);        // register_prefetch.cu
void launch_double_buffered(const DeviceGemm& g);          // double_buffered.cu
void launch_warp_tiled(const DeviceGemm& g);               // warp_tiled.cu
void launch_simt_tuned(const DeviceGemm& g);               // simt_tuned.cu
void launch_wmma_tf32(const DeviceGemm& g);                // wmma_tf32.cu
void launch_tensor_core_tf32(const DeviceGemm& g);         // tensor_core_tf32.cu
void launch_tensor_core_tf32_ws(const DeviceGemm& g);      // tensor_core_tf32_ws.cu
void launch_tensor_core_3xtf32(const DeviceGemm& g);       // tensor_core_3xtf32.cu
void launch_cublas_fp32(const DeviceGemm& g);              // cublas.cu
void launch_cublas_tf32(const DeviceGemm& g);              // cublas.cu

}  // namespace matcompare::gpu
