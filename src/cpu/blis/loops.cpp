// gemm_blis: the five BLIS blocking loops (jc over NC, pc over KC, ic over MC, jr over NR,
// ir over MR) around packing and the register micro-kernel; the project's step beyond the seeds
// (BLIS-style, after seed 003's packing and tiling). OpenMP splits the ic loop.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "../cpu_backend.hpp"
#include "../kernels.hpp"
#include "block_sizes.hpp"
#include "microkernel.hpp"
#include "packing.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace matcompare::cpu {

namespace {

using blis::KC;
using blis::MC;
using blis::MR;
using blis::NC;
using blis::NR;

constexpr std::size_t kAlign = 64;

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// 64-byte aligned float buffer (std::aligned_alloc wants a size that is a multiple of the alignment).
struct AlignedFloats {
  float* p = nullptr;
  explicit AlignedFloats(std::int64_t count) {
    const std::size_t bytes = static_cast<std::size_t>(round_up(count * sizeof(float), kAlign));
    p = static_cast<float*>(std::aligned_alloc(kAlign, bytes));
    if (!p) throw std::bad_alloc();
  }
  ~AlignedFloats() { std::free(p); }
  AlignedFloats(const AlignedFloats&) = delete;
  AlignedFloats& operator=(const AlignedFloats&) = delete;
};

// C tile (rows x cols of it valid, ldc) = tile + beta * C; C not read when beta == 0.
void store_edge(const float* tile, std::int64_t rows, std::int64_t cols, float* c, std::int64_t ldc,
                float beta) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const float* t = tile + i * NR;
    float* ci = c + i * ldc;
    if (beta == 0.0f)
      for (std::int64_t j = 0; j < cols; ++j) ci[j] = t[j];
    else
      for (std::int64_t j = 0; j < cols; ++j) ci[j] = t[j] + beta * ci[j];
  }
}

// Loops 4 and 5 (jr over NR, ir over MR) on one packed mc x kc block of A and kc x nc block of B.
void macro_kernel(blis::MicroKernel kernel, std::int64_t mc, std::int64_t nc, std::int64_t kc,
                  const float* packed_a, const float* packed_b, float* c, std::int64_t ldc, float beta) {
  alignas(kAlign) float tile[MR * NR];
  for (std::int64_t jr = 0; jr < nc; jr += NR) {
    const std::int64_t nr = std::min<std::int64_t>(NR, nc - jr);
    const float* b_panel = packed_b + jr * kc;
    for (std::int64_t ir = 0; ir < mc; ir += MR) {
      const std::int64_t mr = std::min<std::int64_t>(MR, mc - ir);
      const float* a_panel = packed_a + ir * kc;
      float* c_tile = c + ir * ldc + jr;
      if (mr == MR && nr == NR) {
        kernel(kc, a_panel, b_panel, c_tile, ldc, beta);
      } else {
        kernel(kc, a_panel, b_panel, tile, NR, 0.0f);
        store_edge(tile, mr, nr, c_tile, ldc, beta);
      }
    }
  }
}

}  // namespace

void gemm_blis(const HostGemm& g) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0 || g.alpha == 0.0f) {  // BLAS: A and B are not read, C = beta * C.
    scale_c_by_beta(g);
    return;
  }
  const blis::MicroKernel kernel = blis::select_microkernel();

  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  // MC caps the rows of A per block; for small m it shrinks (in whole MR panels) so that the ic
  // loop still has a block for every thread.
  const std::int64_t mc_step =
      std::max<std::int64_t>(MR, std::min<std::int64_t>(MC, round_up((g.m + threads - 1) / threads, MR)));
  const std::int64_t ic_blocks = (g.m + mc_step - 1) / mc_step;
  if (ic_blocks < threads) threads = static_cast<int>(std::max<std::int64_t>(1, ic_blocks));

  const std::int64_t kc_max = std::min<std::int64_t>(KC, g.k);
  const std::int64_t nc_max = std::min<std::int64_t>(NC, round_up(g.n, NR));
  AlignedFloats packed_b(kc_max * round_up(nc_max, NR));  // shared by the team
  // One packed-A block per thread (slices rounded to 64 bytes so each stays aligned), allocated
  // here so that nothing can throw inside the parallel region.
  const std::int64_t a_slice = round_up(round_up(mc_step, MR) * kc_max, kAlign / sizeof(float));
  AlignedFloats packed_a_all(a_slice * threads);
  const float* const a = g.a;
  const float* const b = g.b;

#pragma omp parallel num_threads(threads)
  {
    int thread = 0;
#ifdef _OPENMP
    thread = omp_get_thread_num();
#endif
    float* const packed_a = packed_a_all.p + a_slice * thread;  // this thread's packed A

    for (std::int64_t jc = 0; jc < g.n; jc += NC) {  // loop 1: NC columns of B and C
      const std::int64_t nc = std::min<std::int64_t>(NC, g.n - jc);
      for (std::int64_t pc = 0; pc < g.k; pc += KC) {  // loop 2: KC-deep rank update
        const std::int64_t kc = std::min<std::int64_t>(KC, g.k - pc);
        // beta once per C element: the first rank update scales C, later ones accumulate.
        const float beta = pc == 0 ? g.beta : 1.0f;

        // The team packs the kc x nc block of B once, panel by panel (implicit barrier after).
#pragma omp for schedule(static)
        for (std::int64_t jr = 0; jr < nc; jr += NR)
          blis::pack_b_panel(kc, std::min<std::int64_t>(NR, nc - jr), b + pc * g.ldb + jc + jr, g.ldb,
                             packed_b.p + jr * kc);

        // Loop 3, split across threads: each packs its own mc x kc block of A (alpha folded in)
        // and runs loops 4 and 5. The implicit barrier keeps B packed until everyone is done.
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t ic = 0; ic < g.m; ic += mc_step) {
          const std::int64_t mc = std::min<std::int64_t>(mc_step, g.m - ic);
          blis::pack_a_block(mc, kc, a + ic * g.lda + pc, g.lda, g.alpha, packed_a);
          macro_kernel(kernel, mc, nc, kc, packed_a, packed_b.p, g.c + ic * g.ldc + jc, g.ldc, beta);
        }
      }
    }
  }
}

}  // namespace matcompare::cpu
