#pragma once
// Every CPU algorithm, one file per idea under src/cpu/ (registry.cpp lists them).
#include "cpu_backend.hpp"

namespace matcompare::cpu {

void gemm_gold(const HostGemm& g);            // gold.cpp
void gemm_gold_omp(const HostGemm& g);        // gold_omp.cpp
void gemm_transposed_b(const HostGemm& g);    // transposed_b.cpp
void gemm_single_packing(const HostGemm& g);  // single_packing.cpp
void gemm_double_packing(const HostGemm& g);  // double_packing.cpp
void gemm_tiling(const HostGemm& g);          // tiling.cpp
void gemm_loop_ijk(const HostGemm& g);        // loop_orders.cpp
void gemm_loop_ikj(const HostGemm& g);
void gemm_loop_jik(const HostGemm& g);
void gemm_loop_jki(const HostGemm& g);
void gemm_loop_kij(const HostGemm& g);
void gemm_loop_kji(const HostGemm& g);
void gemm_blis(const HostGemm& g);            // blis/: packing, five blocking loops, micro-kernel
void gemm_openblas(const HostGemm& g);        // vendors/openblas.cpp (BLIS and oneMKL: vendors/)

}  // namespace matcompare::cpu
