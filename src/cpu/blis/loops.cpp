// gemm_blis: the five BLIS blocking loops (jc over NC, pc over KC, ic over MC, jr over NR,
// ir over MR) around packing and the register micro-kernel; the project's step beyond the seeds
// (BLIS-style, after seed 003's packing and tiling). OpenMP splits the ic loop, and the jr loop for the rows that
// do not divide among the threads; the team packs B together.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "../kernels.hpp"
#include "blis.hpp"
#include "block_sizes.hpp"
#include "packing.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace matcompare::cpu {

namespace {

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

// C tile (rows x cols of it valid, ldc) = tile (row stride nr) + beta * C; C not read when beta == 0.
void store_edge(const float* tile, int nr, std::int64_t rows, std::int64_t cols, float* c, std::int64_t ldc,
                float beta) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const float* t = tile + i * nr;
    float* ci = c + i * ldc;
    if (beta == 0.0f)
      for (std::int64_t j = 0; j < cols; ++j) ci[j] = t[j];
    else
      for (std::int64_t j = 0; j < cols; ++j) ci[j] = t[j] + beta * ci[j];
  }
}

// Loops 4 and 5 (jr over NR, ir over MR) on one packed mc x kc block of A and kc x nc block of B.
void macro_kernel(const blis::MicroKernel& kernel, std::int64_t mc, std::int64_t nc, std::int64_t kc,
                  const float* packed_a, const float* packed_b, float* c, std::int64_t ldc, float beta) {
  const int mr = kernel.mr, nr = kernel.nr;
  alignas(kAlign) float tile[blis::kMaxTileFloats];
  for (std::int64_t jr = 0; jr < nc; jr += nr) {
    const std::int64_t cols = std::min<std::int64_t>(nr, nc - jr);
    const float* b_panel = packed_b + jr * kc;
    for (std::int64_t ir = 0; ir < mc; ir += mr) {
      const std::int64_t rows = std::min<std::int64_t>(mr, mc - ir);
      const float* a_panel = packed_a + ir * kc;
      float* c_tile = c + ir * ldc + jr;
      if (rows == mr && cols == nr) {
        kernel.run(kc, a_panel, b_panel, c_tile, ldc, beta);
      } else {
        kernel.run(kc, a_panel, b_panel, tile, nr, 0.0f);
        store_edge(tile, nr, rows, cols, c_tile, ldc, beta);
      }
    }
  }
}

}  // namespace

namespace blis {

void gemm_with(const HostGemm& g, const MicroKernel& kernel) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0 || g.alpha == 0.0f) {  // BLAS: A and B are not read, C = beta * C.
    scale_c_by_beta(g);
    return;
  }
  const BlockSizes block = blocks_in_use(kernel);
  const int mr = block.mr, nr = block.nr;

  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  // Every thread gets at least one micro-panel of rows; MC caps the rows of one packed block of A.
  const std::int64_t panels = (g.m + mr - 1) / mr;
  if (panels < threads) threads = static_cast<int>(panels);
  const std::int64_t mc_step =
      std::min<std::int64_t>(block.mc, ((panels + threads - 1) / threads) * mr);

  const std::int64_t kc_max = std::min<std::int64_t>(block.kc, g.k);
  const std::int64_t nc_max = std::min<std::int64_t>(block.nc, round_up(g.n, nr));
  AlignedFloats packed_b(kc_max * round_up(nc_max, nr));  // shared by the team
  // One packed-A block per thread (slices rounded to 64 bytes so each stays aligned), and the shared block of
  // the rows left over when the panels do not divide among the team (at most threads - 1 panels), allocated here
  // so that nothing can throw inside the parallel region.
  const std::int64_t a_slice = round_up(round_up(mc_step, mr) * kc_max, kAlign / sizeof(float));
  AlignedFloats packed_a_all(a_slice * threads);
  AlignedFloats packed_a_left(std::max<std::int64_t>(1, (threads - 1) * mr * kc_max));
  const float* const a = g.a;
  const float* const b = g.b;

#pragma omp parallel num_threads(threads)
  {
    int thread = 0, team = 1;  // the team may be smaller than asked for
#ifdef _OPENMP
    thread = omp_get_thread_num();
    team = omp_get_num_threads();
#endif
    float* const packed_a = packed_a_all.p + a_slice * thread;  // this thread's packed A

    for (std::int64_t jc = 0; jc < g.n; jc += block.nc) {  // loop 1: NC columns of B and C
      const std::int64_t nc = std::min<std::int64_t>(block.nc, g.n - jc);
      for (std::int64_t pc = 0; pc < g.k; pc += block.kc) {  // loop 2: KC-deep rank update
        const std::int64_t kc = std::min<std::int64_t>(block.kc, g.k - pc);
        // beta once per C element: the first rank update scales C, later ones accumulate.
        const float beta = pc == 0 ? g.beta : 1.0f;

        // Loop 3, split across threads: each takes panels / team micro-panels of rows, packs its mc x kc blocks
        // of A (alpha folded in) and runs loops 4 and 5 on them. The panels / team remainder would leave some
        // threads a panel more than others (171 panels on 16 threads at m = 2048: 11 against 10.7 on average, 3%;
        // 43 at m = 512: 3 against 2.7, 10%): those rows are packed once for the team and split by columns instead.
        const std::int64_t whole = panels / team, left_first = whole * team * mr;
        const std::int64_t first = whole * thread * mr, last = std::min(g.m, first + whole * mr);

        // The team packs the kc x nc block of B once, panel by panel, and the left-over rows of A (one barrier
        // after both).
#pragma omp for schedule(static) nowait
        for (std::int64_t jr = 0; jr < nc; jr += nr)
          pack_b_panel(nr, kc, std::min<std::int64_t>(nr, nc - jr), b + pc * g.ldb + jc + jr, g.ldb,
                       packed_b.p + jr * kc);
#pragma omp for schedule(static)
        for (std::int64_t ir = left_first; ir < g.m; ir += mr)
          pack_a_block(mr, std::min<std::int64_t>(mr, g.m - ir), kc, a + ir * g.lda + pc, g.lda, g.alpha,
                       packed_a_left.p + (ir - left_first) * kc);

        for (std::int64_t ic = first; ic < last; ic += mc_step) {
          const std::int64_t mc = std::min<std::int64_t>(mc_step, last - ic);
          pack_a_block(mr, mc, kc, a + ic * g.lda + pc, g.lda, g.alpha, packed_a);
          macro_kernel(kernel, mc, nc, kc, packed_a, packed_b.p, g.c + ic * g.ldc + jc, g.ldc, beta);
        }
        if (left_first < g.m) {  // this thread's share of the left-over rows' columns, in whole micro-panels
          const std::int64_t b_panels = (nc + nr - 1) / nr;
          const std::int64_t jr0 = b_panels * thread / team * nr;
          const std::int64_t jr1 = std::min(nc, b_panels * (thread + 1) / team * nr);
          if (jr0 < jr1)
            macro_kernel(kernel, g.m - left_first, jr1 - jr0, kc, packed_a_left.p, packed_b.p + jr0 * kc,
                         g.c + left_first * g.ldc + jc + jr0, g.ldc, beta);
        }
        // B stays packed until everyone is done with it.
#pragma omp barrier
      }
    }
  }
}

std::string configuration() {
  const MicroKernel& kernel = select_microkernel();
  return describe(kernel, blocks_in_use(kernel), this_cpu_caches());
}

}  // namespace blis

void gemm_blis(const HostGemm& g) { blis::gemm_with(g, blis::select_microkernel()); }

}  // namespace matcompare::cpu
