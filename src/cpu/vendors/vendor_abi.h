/* The C ABI between libmatcompare and a CPU vendor plugin (libmatcompare_vendor_<name>.so).
 *
 * OpenBLAS, BLIS and oneMKL all export cblas_sgemm and sgemm_: linked into one process, one silently serves all
 * three rows. So every vendor but OpenBLAS (the baseline, linked to the library) lives in a plugin that is opened
 * with dlopen(RTLD_NOW | RTLD_LOCAL) and exports this one entry point and nothing else. RTLD_LOCAL keeps the plugin's
 * symbols out of the process's scope, but not the other way round: the plugin's own references are looked up in the
 * global scope first, where OpenBLAS is, so a plugin calling cblas_sgemm from a shared libblis would run OpenBLAS
 * (LD_DEBUG=bindings shows it, and libblis's BLAS layer binds its sgemm_ to OpenBLAS's too). Hence a plugin either
 * links its library in statically with every symbol bound inside and hidden (oneMKL: -Bsymbolic, --exclude-libs, a
 * version script) or calls it by names OpenBLAS does not have (BLIS's bli_sgemm). */
#ifndef MATCOMPARE_VENDOR_ABI_H
#define MATCOMPARE_VENDOR_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MATCOMPARE_VENDOR_ABI_VERSION 2
#define MATCOMPARE_VENDOR_ENTRY "matcompare_vendor_plugin_v1"

typedef struct matcompare_vendor_api {
  int abi_version; /* MATCOMPARE_VENDOR_ABI_VERSION */
  const char* library; /* "BLIS", "oneMKL" */
  /* C = alpha*op(A)*op(B) + beta*C on row-major A (m x k, row stride lda; stored k x m where trans_a is non-zero),
   * B (k x n, ldb; stored n x k where trans_b), C (m x n, ldc); C is not read when beta == 0. Returns NULL, or why
   * the call was refused (nothing computed). Version 2 added trans_a and trans_b. */
  const char* (*sgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                       int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
  void (*set_threads)(int threads); /* the library's own thread count, >= 1 */
  int (*threads)(void);             /* the count its next call will use */
  const char* (*version)(void);     /* the library's own version string */
  const char* (*build)(void);       /* how it was built: threading layer, integer width */
  const char* (*kernel_path)(void); /* the code path it chose for this CPU */
  /* The file that defines the GEMM the plugin calls (by dladdr): the plugin itself when the library is linked in
   * statically, the library's .so otherwise. Lets a test prove which library computes. */
  const char* (*gemm_library)(void);
} matcompare_vendor_api;

typedef const matcompare_vendor_api* (*matcompare_vendor_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
