#pragma once
// The CPU vendor libraries: OpenBLAS (the baseline, linked to the library) and the plugins BLIS and oneMKL are
// loaded from at run time (vendor_abi.h says why plugins): where the library looks for them, what a missing one
// reads as, the thread count they share with the rest of the run, and what the context records of each.
#include <memory>
#include <string>
#include <vector>

#include "matcompare/backend.hpp"
#include "matcompare/context.hpp"
#include "vendor_abi.h"

namespace matcompare::cpu::vendors {

enum class Vendor { blis, mkl };

// The rows' and the plugins' names: "cpu/libblis", "libmatcompare_vendor_blis.so", …
const char* row_name(Vendor v);
const char* plugin_file(Vendor v);

// Where plugins are looked for: $MATCOMPARE_VENDOR_DIR when set, else the folder libmatcompare was loaded from
// (build/src/ in the build tree, lib/ once installed; cmake/Vendors.cmake puts them there).
std::string plugin_dir();

struct Plugin {
  const matcompare_vendor_api* api = nullptr;  // null when unavailable
  std::string path;                            // the file opened, or looked for
  std::string reason;                          // why unavailable
};

// Opens `dir`/plugin_file(v) with RTLD_NOW | RTLD_LOCAL and checks its ABI; never throws. Each call opens the
// file again (dlopen counts references), so tests can try folders; the rows use `plugin`.
Plugin open_plugin(Vendor v, const std::string& dir);

// The plugin of plugin_dir(), opened once per process; it starts with the run's thread count.
const Plugin& plugin(Vendor v);

// Gives every plugin opened so far, and those opened later, `threads` threads (>= 1); set by
// matcompare::set_threads with OpenMP's and OpenBLAS's count.
void set_threads(int threads);
// The count set_threads last gave (0 before any call: plugins then start with OpenMP's count).
int requested_threads();

// cpu/libblis or cpu/onemkl: unavailable, with the reason, where its plugin does not load.
std::unique_ptr<Backend> make_backend(Vendor v, BackendInfo info);

// OpenBLAS's entry (vendors/openblas.cpp) and each plugin's, in the rows' order; opens the plugins.
VendorContext openblas_context();
std::vector<VendorContext> describe_all();

// The cblas_sgemm this library calls for cpu/openblas, as the dynamic linker bound it (for the isolation test).
void* openblas_sgemm_address();

}  // namespace matcompare::cpu::vendors
