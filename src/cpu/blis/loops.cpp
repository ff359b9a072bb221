// gemm_blis: the five BLIS blocking loops (jc over NC, pc over KC, ic over MC, then inside a block sub-blocks of NB
// columns with ir over MR outside jr over NR) around packing and the register micro-kernel; the project's step
// beyond the seeds (BLIS-style, after seed 003's packing and tiling). The team packs each k block of A and B
// together, then takes loops 3 to 5 in units (row blocks x column blocks) from a shared counter; it meets at a
// spinning barrier.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <thread>

#include "../kernels.hpp"
#include "blis.hpp"
#include "block_sizes.hpp"
#include "packing.hpp"
#include "../worker_team.hpp"

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

// The team's size: OpenMP's thread count (`--threads`, set_threads), 1 without OpenMP.
int threads_asked() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// The team's barrier inside one call: it spins (then yields), never sleeps, since a parked thread costs a wake-up at
// every k block. Between calls the team's own wait parks (worker_team.hpp).
class SpinBarrier {
 public:
  void set_team(int team) { team_ = team; }  // before the team starts
  void wait() {
    const int generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == team_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    for (long spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins) {
      if (spins < kSpinsBeforeYield)
        relax();
      else
        std::this_thread::yield();  // a preempted team member may need this core
    }
  }

 private:
  static constexpr long kSpinsBeforeYield = 1 << 14;
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  int team_ = 1;
  std::atomic<int> arrived_{0}, generation_{0};
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

// Loops 4 and 5 on one packed mc x kc block of A and kc x nc block of B. B is taken in sub-blocks of nb columns,
// which stay in L2; over each, A's micro-panels in turn (ir), each held in L1 while the sub-block's B micro-panels
// stream past it (jr), as OpenBLAS's and BLIS's Skylake-X sgemm hold their broadcast operand (bench/NOTES.md,
// "Which micro-panel stays in L1").
void macro_kernel(const blis::MicroKernel& kernel, std::int64_t mc, std::int64_t nc, std::int64_t kc, std::int64_t nb,
                  const float* packed_a, const float* packed_b, float* c, std::int64_t ldc, float beta) {
  const int mr = kernel.mr, nr = kernel.nr;
  alignas(kAlign) float tile[blis::kMaxTileFloats];
  for (std::int64_t jb = 0; jb < nc; jb += nb) {
    const std::int64_t sub_end = std::min(nc, jb + nb);
    for (std::int64_t ir = 0; ir < mc; ir += mr) {
      const std::int64_t rows = std::min<std::int64_t>(mr, mc - ir);
      const float* a_panel = packed_a + ir * kc;
      for (std::int64_t jr = jb; jr < sub_end; jr += nr) {
        const std::int64_t cols = std::min<std::int64_t>(nr, nc - jr);
        const float* b_panel = packed_b + jr * kc;
        float* c_tile = c + ir * ldc + jr;
        if (rows == mr && cols == nr) {
          kernel.run(kc, a_panel, b_panel, c_tile, ldc, beta);
        } else {
          const bool narrow = kernel.run_half && cols <= nr / 2;  // a full kernel would spend half its work on zeros
          (narrow ? kernel.run_half : kernel.run)(kc, a_panel, b_panel, tile, nr, 0.0f);
          store_edge(tile, nr, rows, cols, c_tile, ldc, beta);
        }
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
  // Every thread gets at least one micro-panel of rows.
  const std::int64_t panels = (g.m + kernel.mr - 1) / kernel.mr;
  const int threads = static_cast<int>(std::min<std::int64_t>(threads_asked(), panels));

  const BlockSizes block = blocks_in_use(kernel, threads);
  const int mr = block.mr, nr = block.nr;
  // Loop 1 in equal column blocks of at most NC: 4096 columns at NC 2720 are two blocks of 2048, not 2720 and 1376.
  const std::int64_t col_blocks = (g.n + block.nc - 1) / block.nc;
  const std::int64_t nc_step = round_up((g.n + col_blocks - 1) / col_blocks, nr);

  // Loop 2 in equal k blocks of at most KC (rounded to the kernels' 4 k steps a trip): 4096 deep at KC 768 is
  // 5 x 684 + 676, not 5 x 768 + 256, whose last block would pass over C as often as the others for a third of
  // their work.
  const std::int64_t k_blocks = (g.k + block.kc - 1) / block.kc;
  const std::int64_t kc_step = std::min<std::int64_t>(block.kc, round_up((g.k + k_blocks - 1) / k_blocks, 4));
  const std::int64_t kc_max = std::min(kc_step, g.k);
  // The team's packed blocks of B (kc x nc) and of A (all rows x kc), allocated here so that nothing can throw
  // inside the parallel region.
  AlignedFloats packed_b(kc_max * nc_step);
  AlignedFloats packed_a(panels * mr * kc_max);
  const float* const a = g.a;
  const float* const b = g.b;
  // Where op(A)'s element (i, p) and op(B)'s (p, j) start: the packing reads a transposed operand as it is stored.
  auto a_at = [&](std::int64_t i, std::int64_t p) { return g.trans_a ? a + p * g.lda + i : a + i * g.lda + p; };
  auto b_at = [&](std::int64_t p, std::int64_t j) { return g.trans_b ? b + j * g.ldb + p : b + p * g.ldb + j; };

  SpinBarrier barrier;
  barrier.set_team(threads);
  std::atomic<std::int64_t> next_unit{0};
  auto team_work = [&](int thread, int) {
    const int team = threads;

    for (std::int64_t jc = 0; jc < g.n; jc += nc_step) {  // loop 1: up to NC columns of B and C
      const std::int64_t nc = std::min<std::int64_t>(nc_step, g.n - jc);
      const UnitGrid grid = unit_grid(panels, (nc + nr - 1) / nr, team, std::max(1, block.mc / mr));
      for (std::int64_t pc = 0; pc < g.k; pc += kc_step) {  // loop 2: KC-deep rank update
        const std::int64_t kc = std::min(kc_step, g.k - pc);
        // beta once per C element: the first rank update scales C, later ones accumulate.
        const float beta = pc == 0 ? g.beta : 1.0f;

        // The team packs the kc x nc block of B and, where several units share a row block, the m x kc block of A
        // (alpha folded in), then meets. Where a row block is one unit (one thread always), its taker packs it just
        // before using it, while it can stay in L2, as BLIS's loop 3 does.
        const bool pack_a_in_units = grid.col_blocks == 1;
        if (thread == 0) next_unit.store(0, std::memory_order_relaxed);  // nobody takes a unit before the barrier
        {  // each thread a contiguous run of B's micro-panels
          const std::int64_t b_panels = (nc + nr - 1) / nr;
          const std::int64_t first = b_panels * thread / team * nr, last = b_panels * (thread + 1) / team * nr;
          if (first < last)
            pack_b_block(nr, kc, std::min(last, nc) - first, b_at(pc, jc + first), g.ldb, g.trans_b,
                         packed_b.p + first * kc);
        }
        if (!pack_a_in_units) {  // each thread a contiguous run of A's micro-panels
          const std::int64_t first = panels * thread / team, last = panels * (thread + 1) / team;
          for (std::int64_t ir = first * mr; ir < std::min(last * mr, g.m); ir += mr)
            pack_a_block(mr, std::min<std::int64_t>(mr, g.m - ir), kc, a_at(ir, pc), g.lda, g.trans_a, g.alpha,
                         packed_a.p + ir * kc);
        }
        barrier.wait();

        // Loops 3 to 5 in units of the grid, taken as threads finish: a thread whose CPU runs slow for a while
        // takes fewer of them, where an even split would make everyone wait for it.
        for (std::int64_t unit = next_unit.fetch_add(1, std::memory_order_relaxed); unit < grid.count();
             unit = next_unit.fetch_add(1, std::memory_order_relaxed)) {
          const std::int64_t ir = unit % grid.row_blocks * grid.unit_panels * mr;
          const std::int64_t jr = unit / grid.row_blocks * grid.unit_b_panels * nr;  // both inside: unit_grid
          const std::int64_t rows = std::min(grid.unit_panels * mr, g.m - ir);
          if (pack_a_in_units)
            pack_a_block(mr, rows, kc, a_at(ir, pc), g.lda, g.trans_a, g.alpha, packed_a.p + ir * kc);
          macro_kernel(kernel, rows, std::min(grid.unit_b_panels * nr, nc - jr), kc, block.nb, packed_a.p + ir * kc,
                       packed_b.p + jr * kc, g.c + ir * g.ldc + jc + jr, g.ldc, beta);
        }
        // A and B stay packed until everyone is done with them.
        barrier.wait();
      }
    }
  };
  // One thread works alone, with no team to wake; otherwise as many as have panels (the team's other workers are left
  // alone: worker_team.hpp).
  if (threads == 1)
    team_work(0, 1);
  else
    run_on_team(threads, team_work);
}

UnitGrid unit_grid(std::int64_t panels, std::int64_t b_panels, int team, std::int64_t max_unit_panels) {
  UnitGrid grid;
  // At least two row blocks a thread, none longer than an MC block (the A block then stays in L2); then enough
  // column blocks for ~8 units a thread. One thread takes whole MC blocks across all columns, as BLIS does. Where
  // row blocks of kMinSharedPanels micro-panels or more can make the ~8 units alone, they do: a unit that has its row
  // block to itself packs its A there, in its own core's L2, where a row block shared by column blocks is packed by
  // the team up front and read from the other cores' writes (bench/NOTES.md, "Two threads at 2048 on the VM").
  constexpr std::int64_t kMinSharedPanels = 4;
  const std::int64_t rows_alone = (panels + 8 * team - 1) / (8 * team);
  const bool by_rows = team == 1 || rows_alone >= kMinSharedPanels;
  const std::int64_t per =
      team > 1 && by_rows ? std::min(rows_alone, max_unit_panels)
                          : std::clamp<std::int64_t>((panels + 2 * team - 1) / (2 * team), 1, max_unit_panels);
  grid.row_blocks = (panels + per - 1) / per;
  grid.unit_panels = (panels + grid.row_blocks - 1) / grid.row_blocks;
  const std::int64_t target = by_rows ? 1 : 8 * std::int64_t(team);
  const std::int64_t columns = std::clamp<std::int64_t>((target + grid.row_blocks - 1) / grid.row_blocks, 1, b_panels);
  grid.unit_b_panels = (b_panels + columns - 1) / columns;
  grid.col_blocks = (b_panels + grid.unit_b_panels - 1) / grid.unit_b_panels;
  return grid;
}

std::string configuration() {
  const MicroKernel& kernel = select_microkernel();
  return describe(kernel, blocks_in_use(kernel, threads_asked()), this_cpu_caches());
}

}  // namespace blis

void gemm_blis(const HostGemm& g) {
  if (g.m <= blis::kFewRows)
    blis::gemm_few_rows(g, blis::select_microkernel());
  else
    blis::gemm_with(g, blis::select_microkernel());
}

}  // namespace matcompare::cpu
