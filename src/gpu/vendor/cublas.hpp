#pragma once
// The GPU vendor rows: cuBLAS SGEMM, launched like every step (cublas.cu); src/core/registry.cpp lists them.
namespace matcompare::gpu {

struct DeviceGemm;

void launch_cublas_fp32(const DeviceGemm& g);  // default FP32 math: the vendor of every GPU row
void launch_cublas_tf32(const DeviceGemm& g);  // TF32 tensor-op math: the precision vendor of the TF32 rows

}  // namespace matcompare::gpu
