// check_environment(): every variable through the parser that reads it later, so there is one rule per variable.
#include "matcompare/environment.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../cpu/blis/block_sizes.hpp"
#include "../cpu/blis/microkernel.hpp"
#include "../gpu/hopper/tf32_passes.hpp"
#include "../gpu/multi/mp_workspace.hpp"
#include "../gpu/multi/multi_gpu.hpp"
#include "../gpu/simt/few_rows.hpp"
#include "host_memory.hpp"

namespace matcompare {
namespace {

// gpu/cublasmp-fp32 (cublasmp.cpp, built with CUDA only) shows a worker that cannot run as the row's reason.
void check_cublasmp_worker() {
  const char* path = std::getenv(gpu::kCublasMpWorkerVariable);
  if (!path) return;
  struct stat file {};
  if (stat(path, &file) != 0 || !S_ISREG(file.st_mode) || access(path, X_OK) != 0)
    throw std::invalid_argument(std::string(gpu::kCublasMpWorkerVariable) + "='" + path +
                                "' is not an executable file (give the path of matcompare-mp-worker)");
}

void check_host_memory() {
  if (const char* gib = std::getenv(kHostMemoryOverrideVariable)) host_memory_bytes("", "", gib);
}

}  // namespace

void check_environment() {
  try {
    cpu::blis::blocks_override();
    cpu::blis::forced_microkernel();
    check_host_memory();
    gpu::tf32_tile_named(std::getenv(gpu::kTf32TileVariable));
    gpu::few_rows_limit(std::getenv(gpu::kFewRowsVariable), 0);
    if (const char* edge = std::getenv(gpu::kCublasXtBlockDimVariable)) gpu::parse_cublasxt_block_dim(edge);
    gpu::cublasmp_block_override();
    gpu::cublasmp_timeout_s();
    check_cublasmp_worker();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {  // the parsers of MATCOMPARE_MICROKERNEL and MATCOMPARE_TF32_TILE
    throw std::invalid_argument(e.what());
  }
}

}  // namespace matcompare
