#include "cublas_library.hpp"

#include <dlfcn.h>

#include <string>

#include "cuda_check.cuh"

namespace matcompare::gpu {
namespace {

#define MC_STRINGIFY_(x) #x
#define MC_STRINGIFY(x) MC_STRINGIFY_(x)

// libNAME.so.<cuBLAS major>: by the loader's search (LD_LIBRARY_PATH, ld.so.conf), then from the toolkit's library
// folder the build used (MATCOMPARE_CUDA_LIBRARY_DIR), where a linked library would have found it by its RUNPATH.
void* open_library(const char* name) {
  const std::string file = std::string(name) + ".so." + std::to_string(CUBLAS_VER_MAJOR);
  if (void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first_error = dlerror();
  const std::string path = std::string(MATCOMPARE_CUDA_LIBRARY_DIR) + "/" + file;
  if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  throw CudaError("cannot open " + file + " (" + first_error + "), nor " + path + " (" + dlerror() +
                  "): the GPU vendor rows need cuBLAS " + std::to_string(CUBLAS_VER_MAJOR));
}

template <typename Function>
void resolve(void* library, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (function == nullptr) throw CudaError(std::string("cuBLAS has no ") + name + ": " + dlerror());
}

CublasLibrary open_all() {
  void* const cublas = open_library("libcublas");
  void* const cublaslt = open_library("libcublasLt");
  CublasLibrary library;
#define MC_CUBLAS_RESOLVE(handle, function) resolve(handle, MC_STRINGIFY(function), library.function);
  MC_CUBLAS_FUNCTIONS(MC_CUBLAS_RESOLVE)
#undef MC_CUBLAS_RESOLVE
  return library;
}

}  // namespace

const CublasLibrary& cublas_library() {
  static const CublasLibrary library = open_all();  // a throw leaves it to the next call
  return library;
}

}  // namespace matcompare::gpu
