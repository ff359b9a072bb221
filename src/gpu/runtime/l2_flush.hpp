#pragma once
// How a GPU's L2 is evicted between samples: by writing a device buffer of twice the L2 size. Plain CUDA runtime
// and header-only, so that gpu/cublasmp-fp32's worker process (apps/matcompare_mp_worker.cpp), which does not link
// the library, sizes its buffer by the same rule as the single-GPU rows (gpu_device.cu's l2_flush_buffer).
#include <cuda_runtime.h>

#include <cstddef>

namespace matcompare::gpu {

// The bytes to write on `device`: twice its L2, or 128 MiB where the driver reports none. Returns the query's error.
inline cudaError_t l2_flush_bytes(int device, std::size_t& bytes) {
  int l2 = 0;
  const cudaError_t e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  bytes = std::size_t(2) * std::size_t(l2 > 0 ? l2 : (64 << 20));
  return e;
}

}  // namespace matcompare::gpu
