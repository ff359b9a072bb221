#include "vendors.hpp"

#include <dlfcn.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "../cpu_backend.hpp"

namespace matcompare::cpu::vendors {
namespace {

constexpr Vendor kPlugins[] = {Vendor::blis, Vendor::mkl};

const char* library_name(Vendor v) { return v == Vendor::blis ? "BLIS" : "oneMKL"; }

// What makes the plugin, for the reason a row reads when it is missing.
const char* how_to_get(Vendor v) {
  return v == Vendor::blis
             ? "scripts/setup.sh installs libblis-openmp-dev; a machine without it gets the plugin and libblis.so.4 "
               "from bench/pack_vendors.sh"
             : "scripts/setup.sh puts the mkl-static and mkl-include wheels in .deps/mkl; a machine without them gets "
               "the plugin from bench/pack_vendors.sh";
}

std::string load_failure(Vendor v, const std::string& path, const std::string& error) {
  // The plugin is there but BLIS itself is not: the common case on a machine the plugin was carried to.
  if (v == Vendor::blis && error.find("libblis.so") != std::string::npos)
    return "libblis.so.4 not found or not loadable (" + std::string(how_to_get(v)) + "): " + error;
  return "could not load " + path + ": " + error;
}

// Every plugin opened by `plugin`, and the count they were last given.
std::mutex threads_mutex;
int threads_requested = 0;
std::vector<const matcompare_vendor_api*> opened;

template <Vendor V>
void gemm_through_plugin(const HostGemm& g) {
  const Plugin& p = plugin(V);
  if (!p.api) throw std::runtime_error(std::string(row_name(V)) + ": " + p.reason);
  if (const char* refused = p.api->sgemm(g.trans_a, g.trans_b, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb,
                                         g.beta, g.c, g.ldc))
    throw std::runtime_error(std::string(row_name(V)) + ": " + refused);
}

// A CPU row whose availability is its plugin's.
class VendorBackend final : public Backend {
 public:
  VendorBackend(Vendor v, BackendInfo info)
      : vendor_(v),
        inner_(make_cpu_backend(std::move(info), v == Vendor::blis ? &gemm_through_plugin<Vendor::blis>
                                                                   : &gemm_through_plugin<Vendor::mkl>)) {}
  const BackendInfo& info() const override { return inner_->info(); }
  Availability availability() const override {
    const Plugin& p = plugin(vendor_);
    return {p.api != nullptr, p.reason};
  }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    const Plugin& p = plugin(vendor_);
    if (!p.api) throw std::runtime_error(info().name + ": " + p.reason);
    return inner_->prepare(shape);
  }

 private:
  Vendor vendor_;
  std::unique_ptr<Backend> inner_;
};

}  // namespace

const char* row_name(Vendor v) { return v == Vendor::blis ? "cpu/libblis" : "cpu/onemkl"; }

const char* plugin_file(Vendor v) {
  return v == Vendor::blis ? "libmatcompare_vendor_blis.so" : "libmatcompare_vendor_mkl.so";
}

std::string plugin_dir() {
  if (const char* dir = std::getenv("MATCOMPARE_VENDOR_DIR"); dir && *dir) return dir;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&plugin_dir), &self) && self.dli_fname) {
    const std::string path = self.dli_fname;
    const std::size_t slash = path.rfind('/');
    if (slash != std::string::npos) return slash == 0 ? "/" : path.substr(0, slash);
  }
  return ".";
}

Plugin open_plugin(Vendor v, const std::string& dir) {
  Plugin p;
  p.path = dir + "/" + plugin_file(v);
  if (access(p.path.c_str(), F_OK) != 0) {
    p.reason = std::string(plugin_file(v)) + " not found in " + dir + " (it is built where CMake finds " +
               library_name(v) + ": " + how_to_get(v) + ")";
    return p;
  }
  // RTLD_LOCAL: nothing the plugin brings (libblis.so.4 and its cblas_sgemm) joins the global scope, where
  // libmatcompare's own cblas_sgemm is bound to OpenBLAS.
  void* handle = dlopen(p.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* error = dlerror();
    p.reason = load_failure(v, p.path, error ? error : "unknown error");
    return p;
  }
  const auto entry = reinterpret_cast<matcompare_vendor_entry>(dlsym(handle, MATCOMPARE_VENDOR_ENTRY));
  const matcompare_vendor_api* api = entry ? entry() : nullptr;
  if (!api) {
    p.reason = p.path + " has no " MATCOMPARE_VENDOR_ENTRY;
  } else if (api->abi_version != MATCOMPARE_VENDOR_ABI_VERSION) {
    p.reason = p.path + " speaks vendor ABI " + std::to_string(api->abi_version) + ", this library " +
               std::to_string(MATCOMPARE_VENDOR_ABI_VERSION) + ": rebuild it with this library";
  } else {
    p.api = api;
    return p;  // never closed: a library's threads and state live as long as the process
  }
  dlclose(handle);
  return p;
}

const Plugin& plugin(Vendor v) {
  static Plugin plugins[std::size(kPlugins)];
  static std::once_flag once[std::size(kPlugins)];
  const std::size_t i = v == Vendor::blis ? 0 : 1;
  std::call_once(once[i], [&] {
    Plugin p = open_plugin(v, plugin_dir());
    if (p.api) {
      std::lock_guard<std::mutex> lock(threads_mutex);
      p.api->set_threads(threads_requested > 0 ? threads_requested : omp_get_max_threads());
      opened.push_back(p.api);
    }
    plugins[i] = std::move(p);
  });
  return plugins[i];
}

void set_threads(int threads) {
  std::lock_guard<std::mutex> lock(threads_mutex);
  threads_requested = std::max(1, threads);
  for (const matcompare_vendor_api* api : opened) api->set_threads(threads_requested);
}

int requested_threads() {
  std::lock_guard<std::mutex> lock(threads_mutex);
  return threads_requested;
}

std::unique_ptr<Backend> make_backend(Vendor v, BackendInfo info) {
  info.device = DeviceKind::cpu;
  return std::make_unique<VendorBackend>(v, std::move(info));
}

std::vector<VendorContext> describe_all() {
  std::vector<VendorContext> all{openblas_context()};
  for (const Vendor v : kPlugins) {
    const Plugin& p = plugin(v);
    VendorContext c;
    c.backend = row_name(v);
    c.library = library_name(v);
    c.plugin = p.path;
    c.available = p.api != nullptr;
    if (p.api) {
      c.version = p.api->version();
      c.build = p.api->build();
      c.kernel_path = p.api->kernel_path();
      c.threads = p.api->threads();
    } else {
      c.unavailable_reason = p.reason;
    }
    all.push_back(std::move(c));
  }
  return all;
}

}  // namespace matcompare::cpu::vendors
