#pragma once
// The 2-D block-cyclic layout gpu/cublasmp-fp32 gives A, B and C (ScaLAPACK's, the one cuBLASMp takes): the process
// grid, the block edge, how many rows and columns each process holds, and copying a process's part out of (and
// back into) a whole column-major matrix. Pure arithmetic, shared by the worker processes and the CPU tests.
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace matcompare::gpu::mp {

struct ProcessGrid {
  int rows = 1, cols = 1;
  int size() const { return rows * cols; }
  // CUBLASMP_GRID_LAYOUT_COL_MAJOR numbers the processes down the columns: rank = row + col * rows.
  int row_of(int rank) const { return rank % rows; }
  int col_of(int rank) const { return rank / rows; }
};

// The most square grid for P processes, rows <= cols: 1 -> 1x1, 2 -> 1x2, 4 -> 2x2, 6 -> 2x3, a prime P -> 1xP.
inline ProcessGrid choose_grid(int processes) {
  int rows = 1;
  for (int r = 1; r * r <= processes; ++r)
    if (processes % r == 0) rows = r;
  return {rows, processes / rows};
}

// How many of n indices, cut into blocks of nb dealt round-robin over nprocs processes from process 0, process
// iproc holds (ScaLAPACK's NUMROC with the source process 0).
inline std::int64_t local_count(std::int64_t n, std::int64_t nb, int iproc, int nprocs) {
  const std::int64_t whole_blocks = n / nb;
  std::int64_t count = whole_blocks / nprocs * nb;
  const std::int64_t extra_blocks = whole_blocks % nprocs;
  if (iproc < extra_blocks)
    count += nb;
  else if (iproc == extra_blocks)
    count += n % nb;
  return count;
}

// The global index of process iproc's local index `local`.
inline std::int64_t global_index(std::int64_t local, std::int64_t nb, int iproc, int nprocs) {
  return (local / nb * nprocs + iproc) * nb + local % nb;
}

// The square block edge for C^T = B^T * A^T (column-major, N x M from N x K and K x M) on grid g: at most kMaxBlock,
// and small enough that every process of a split dimension gets a block of it, so small shapes still spread over
// every GPU. Dimensions shorter than their process count leave some processes empty whatever the edge.
constexpr std::int64_t kMaxBlock = 1024;
inline std::int64_t choose_block(std::int64_t m, std::int64_t n, std::int64_t k, ProcessGrid g) {
  std::int64_t block = kMaxBlock;
  auto fit = [&](std::int64_t extent, int procs) {
    if (procs > 1 && extent >= procs) block = std::min(block, (extent + procs - 1) / procs);
  };
  fit(n, g.rows);  // rows of B^T and C^T
  fit(k, g.rows);  // rows of A^T
  fit(k, g.cols);  // columns of B^T
  fit(m, g.cols);  // columns of A^T and C^T
  return std::max<std::int64_t>(block, 1);
}

// One process's part of a rows x cols column-major matrix: its local extent and leading dimension (at least 1, as
// cuBLASMp's descriptors want even for an empty part).
struct LocalPart {
  std::int64_t rows = 0, cols = 0, ld = 1;
  std::int64_t elements() const { return rows * cols; }
};
inline LocalPart local_part(std::int64_t rows, std::int64_t cols, std::int64_t block, ProcessGrid g, int rank) {
  LocalPart p;
  p.rows = local_count(rows, block, g.row_of(rank), g.rows);
  p.cols = local_count(cols, block, g.col_of(rank), g.cols);
  p.ld = std::max<std::int64_t>(p.rows, 1);
  return p;
}

// Copies between a whole column-major matrix (leading dimension ld) and rank's local part (column-major, part.ld),
// one contiguous run of at most `block` elements at a time. to_local picks the direction.
inline void copy_part(float* global, std::int64_t ld, float* local, const LocalPart& part, std::int64_t block,
                      ProcessGrid g, int rank, bool to_local) {
  const int prow = g.row_of(rank), pcol = g.col_of(rank);
  for (std::int64_t lj = 0; lj < part.cols; ++lj) {
    const std::int64_t gj = global_index(lj, block, pcol, g.cols);
    for (std::int64_t li = 0; li < part.rows; li += block) {
      const std::int64_t run = std::min(block, part.rows - li);
      float* g_run = global + gj * ld + global_index(li, block, prow, g.rows);
      float* l_run = local + lj * part.ld + li;
      if (to_local)
        std::memcpy(l_run, g_run, std::size_t(run) * sizeof(float));
      else
        std::memcpy(g_run, l_run, std::size_t(run) * sizeof(float));
    }
  }
}

}  // namespace matcompare::gpu::mp
