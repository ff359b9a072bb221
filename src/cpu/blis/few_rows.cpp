// gemm_few_rows: cpu/blis for a C of a few rows (a decode step's tokens, a matrix-vector product). The five loops
// pack all of B for each column and k block, O(K·N) work that a C of M rows repays only M times: at M = 1 packing
// costs as much as the product itself, and the register tile computes 12 rows for one. Here B is never packed:
// it streams once, each element used for every row of C while it is in registers, and op(A)'s few rows sit in
// a small contiguous copy. So the product runs at the speed B can be read (bench/NOTES.md, "Few rows"). The loops
// themselves are built per instruction set (few_rows_simd.hpp); this file holds the blocks and the threads.
#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "../worker_team.hpp"
#include "blis.hpp"
#include "microkernel.hpp"

namespace matcompare::cpu::blis {
namespace {

// The most columns of C a thread takes at a time: its accumulators (kFewRows x kColumns floats, 32 KiB at M = 4) stay
// in a 48 KiB L1d, and in L2 where L1d is 32 KiB.
// A B stored N x K (transposed) is split by columns: each thread takes one block of N / threads columns where that
// fits, so each of its rows of B is read whole (2 KiB runs 12 KiB apart read B at 12.7 GB/s where oneMKL reads it at
// 22: bench/NOTES.md, "cpu/blis's few-rows path"). A B stored K x N is split by its rows instead (below).
constexpr std::int64_t kColumns = 2048;
// The bytes of B that repay one more thread: waking a sleeping thread for a call costs about what one thread reads
// of this much (bench/NOTES.md, "The suites at 9f5f3f6": 50 us on the 2-core VM), so the team has one thread per
// kTeamBytes of B, at most every thread, and below twice this much one thread reads B alone.
constexpr std::int64_t kTeamBytes = std::int64_t(1) << 20;
// B stored K x N is split by its rows among the team when each thread gets at least this many per row of C: each
// thread's partial sums (cleared, written, read: 3·M·N floats) then cost at most 3/16 of its slice of B (K/T·N floats).
constexpr std::int64_t kMinSliceKPerRow = 16;
static_assert(kFewRows == 4, "few_rows_simd.hpp has its loops for 1 to 4 rows");

}  // namespace

void gemm_few_rows(const HostGemm& g, const MicroKernel& kernel) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0 || g.alpha == 0.0f) {  // BLAS: A and B are not read, C = beta * C.
    scale_c_by_beta(g);
    return;
  }
#ifdef _OPENMP
  const int max_threads = omp_get_max_threads();
#else
  const int max_threads = 1;
#endif
  const int threads =
      int(std::clamp<std::int64_t>(g.k * g.n * std::int64_t(sizeof(float)) / kTeamBytes, 1, max_threads));
  const bool alone = threads == 1;
  // A B stored K x N that a team takes is split by its rows (below); otherwise K is one slice.
  const bool k_split = !alone && !g.trans_b && g.k >= kMinSliceKPerRow * g.m * threads;
  const int slices = k_split ? threads : 1;
  auto slice_k = [&](int slice, std::int64_t& k0, std::int64_t& k_len) {
    k0 = g.k * slice / slices;
    k_len = g.k * (slice + 1) / slices - k0;
  };
  // op(A)'s rows, contiguous whatever A's layout, slice by slice: slice s's m rows from m * k0, each k_len long (one
  // slice: m x k floats, row stride k). An A stored untransposed is that already where it is one row, or where its
  // rows are one slice with no gap between them: it is then read where it lies. After a cache flush the copy's
  // allocation and writes to cold lines took 4-8 us of a 1x64x1216 product's 40 (bench/NOTES.md, "cpu/blis's few
  // rows: A where it lies").
  const bool a_as_stored = !g.trans_a && (g.m == 1 || (slices == 1 && g.lda == g.k));
  std::vector<float> a_copy;
  if (!a_as_stored) {
    a_copy.resize(std::size_t(g.m * g.k));
    for (int s = 0; s < slices; ++s) {
      std::int64_t k0, k_len;
      slice_k(s, k0, k_len);
      for (std::int64_t i = 0; i < g.m; ++i)
        for (std::int64_t p = k0; p < k0 + k_len; ++p)
          a_copy[std::size_t(g.m * k0 + i * k_len + p - k0)] = g.trans_a ? g.a[p * g.lda + i] : g.a[i * g.lda + p];
    }
  }
  const float* const a_rows = a_as_stored ? g.a : a_copy.data();
  const FewRowsKernels& kernels = kernel.few_rows;
  // Equal blocks of whole 16-column groups, as few as the threads allow.
  const std::int64_t wanted = alone ? g.n : (g.n + threads - 1) / threads;
  const std::int64_t width_step = std::min(kColumns, (wanted + 15) / 16 * 16);
  const std::int64_t blocks = (g.n + width_step - 1) / width_step;
  auto columns = [&](int thread, int team) {
    // Each thread a contiguous run of column blocks; with fewer blocks than threads some have none.
    for (std::int64_t block = blocks * thread / team; block < blocks * (thread + 1) / team; ++block) {
      const std::int64_t j0 = block * width_step, width = std::min(width_step, g.n - j0);
      float acc[kFewRows][kColumns];  // only the m x width the loops use is cleared: a narrow C is most of the calls
      for (std::int64_t i = 0; i < g.m; ++i) std::fill(acc[i], acc[i] + width, 0.0f);
      if (g.trans_b)
        kernels.transposed(g.m, g.k, a_rows, g.b + j0 * g.ldb, g.ldb, width, acc[0], kColumns);
      else
        kernels.untransposed(g.m, g.k, a_rows, g.b + j0, g.ldb, width, acc[0], kColumns);
      for (std::int64_t i = 0; i < g.m; ++i) {
        float* c = g.c + i * g.ldc + j0;
        for (std::int64_t j = 0; j < width; ++j) c[j] = scale_output(g, acc[i][j], g.beta == 0.0f ? 0.0f : c[j]);
      }
    }
  };
  if (alone) {
    columns(0, 1);
  } else if (k_split) {
    // B stored K x N: each thread streams its own slice of B's rows (whole rows where they fit the accumulators, so one
    // run of memory when B is not a part of a wider matrix) into partial sums that are then added in thread order
    // (the same bits for the same team). Everything is allocated before: the team's function must not throw.
    std::vector<float> partials(std::size_t(threads * g.m * g.n));
    run_on_team(threads, [&](int thread, int) {
      std::int64_t k0, k_len;
      slice_k(thread, k0, k_len);
      const float* a_slice = a_rows + g.m * k0;
      float* part = partials.data() + std::size_t(thread) * g.m * g.n;
      // As wide as the accumulators allow for these rows: whole rows of B in one pass where they fit.
      const std::int64_t widest = kFewRows * kColumns / g.m;
      for (std::int64_t j0 = 0; j0 < g.n; j0 += widest) {
        const std::int64_t width = std::min(widest, g.n - j0);
        float acc[kFewRows * kColumns];
        std::fill(acc, acc + g.m * width, 0.0f);
        kernels.untransposed(g.m, k_len, a_slice, g.b + k0 * g.ldb + j0, g.ldb, width, acc, width);
        for (std::int64_t i = 0; i < g.m; ++i) std::copy(acc + i * width, acc + (i + 1) * width, part + i * g.n + j0);
      }
    });
    for (std::int64_t i = 0; i < g.m; ++i) {
      float* c = g.c + i * g.ldc;
      for (std::int64_t j = 0; j < g.n; ++j) {
        float sum = partials[std::size_t(i * g.n + j)];
        for (int t = 1; t < threads; ++t) sum += partials[std::size_t((t * g.m + i) * g.n + j)];
        c[j] = scale_output(g, sum, g.beta == 0.0f ? 0.0f : c[j]);
      }
    }
  } else {
    run_on_team(threads, columns);
  }
}

}  // namespace matcompare::cpu::blis
