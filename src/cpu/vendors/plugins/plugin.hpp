#pragma once
// What every vendor plugin shares: its one exported symbol, and where an address it calls lives.
#include <dlfcn.h>

#include "../vendor_abi.h"

namespace matcompare_plugin {

// The file (shared object) that defines `address`, by dladdr; "" when none does.
inline const char* file_defining(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) && info.dli_fname ? info.dli_fname : "";
}

}  // namespace matcompare_plugin

// Defines the plugin's entry point, which returns `api` (a static matcompare_vendor_api).
#define MATCOMPARE_VENDOR_PLUGIN(api)                                                                   \
  extern "C" __attribute__((visibility("default"))) const matcompare_vendor_api* matcompare_vendor_plugin_v1() { \
    return &(api);                                                                                      \
  }
