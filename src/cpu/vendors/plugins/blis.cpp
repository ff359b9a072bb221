// cpu/libblis's plugin: the BLIS library (Debian's libblis4, linked dynamically) behind the vendor ABI.
// It calls BLIS's typed API, bli_sgemm, whose row and column strides take row-major data as it is, and never
// BLIS's cblas_sgemm: a name OpenBLAS also exports, through which BLIS's BLAS layer could end up in OpenBLAS.
#include <blis.h>

#include <cstdio>

#include "plugin.hpp"

namespace {

// The one GEMM the plugin calls; gemm_library() reports the file it lives in.
const auto gemm = &bli_sgemm;

const char* sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                  int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  // bli_sgemm treats beta == 0 as "overwrite C": C is not read. A transposed operand is described as stored (its
  // row stride its own width) and BLIS transposes it.
  gemm(trans_a ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, trans_b ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, dim_t(m), dim_t(n), dim_t(k), &alpha, const_cast<float*>(a), inc_t(lda), 1,
       const_cast<float*>(b), inc_t(ldb), 1, &beta, c, inc_t(ldc), 1);
  return nullptr;
}

void set_threads(int threads) { bli_thread_set_num_threads(dim_t(threads > 0 ? threads : 1)); }

int threads() {
  const dim_t n = bli_thread_get_num_threads();  // -1 until set by BLIS_NUM_THREADS, OMP_NUM_THREADS or a call
  return n > 0 ? int(n) : 1;
}

const char* version() { return bli_info_get_version_str(); }

const char* build() {
  static char text[128];
  std::snprintf(text, sizeof text, "%s, %d-bit integers",
                bli_info_get_enable_openmp() ? "OpenMP" : bli_info_get_enable_pthreads() ? "pthreads" : "sequential",
                int(bli_info_get_int_type_size()));
  return text;
}

// The configuration BLIS picked for this CPU at load (its sub-configurations stop at zen3 and skx: a Zen 4 or 5
// runs zen3's AVX2 kernels) and its single-precision register and cache blocks.
const char* kernel_path() {
  static char text[160];
  cntx_t* cntx = const_cast<cntx_t*>(bli_gks_query_cntx());
  std::snprintf(text, sizeof text, "%s (sgemm micro-kernel %s %ldx%ld; MC %ld, KC %ld, NC %ld)",
                bli_arch_string(bli_arch_query_id()), bli_info_get_gemm_ukr_impl_string(BLIS_NAT, BLIS_FLOAT),
                long(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_MR, cntx)),
                long(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_NR, cntx)),
                long(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_MC, cntx)),
                long(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_KC, cntx)),
                long(bli_cntx_get_blksz_def_dt(BLIS_FLOAT, BLIS_NC, cntx)));
  return text;
}

const char* gemm_library() { return matcompare_plugin::file_defining(reinterpret_cast<const void*>(gemm)); }

const matcompare_vendor_api api = {MATCOMPARE_VENDOR_ABI_VERSION, "BLIS", sgemm, set_threads, threads, version,
                                   build, kernel_path, gemm_library};

}  // namespace

MATCOMPARE_VENDOR_PLUGIN(api)
