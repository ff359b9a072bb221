#pragma once
// The environment variables the library reads, checked all at once before any work: a bad value is refused
// up front instead of when the row that reads it runs (or after the run, when the context is written).
namespace matcompare {

// Checks every MATCOMPARE_* variable the library reads, with the same parsers that read them later:
// MATCOMPARE_BLIS_BLOCKS, MATCOMPARE_MICROKERNEL (cpu/blis), MATCOMPARE_HOST_MEMORY_GIB (the host memory a run
// plans with), MATCOMPARE_TF32_TILE, MATCOMPARE_CUBLASXT_BLOCK_DIM, MATCOMPARE_CUBLASMP_BLOCK,
// MATCOMPARE_CUBLASMP_TIMEOUT_S and MATCOMPARE_CUBLASMP_WORKER (GPU rows; checked in a build without CUDA too).
// An unset variable is fine. Throws std::invalid_argument for the first bad one, naming the variable, its value
// and what is accepted.
void check_environment();

}  // namespace matcompare
