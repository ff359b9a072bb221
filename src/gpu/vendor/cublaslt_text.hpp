#pragma once
// gpu/cublaslt-*'s plain parts, tested without a GPU (tests/test_cublaslt_text.cpp): what one algorithm search is
// kept under, how a candidate is named, and which candidate wins.
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace matcompare::gpu {

// One search per key in the process: the same shape on the same GPU, in the same precision and with the same
// leading dimensions (the runtime's padding and pitch) reuses the algorithm found first. The harness's few-row trials
// and the full problem's workspace are different shapes, so each is searched once, outside every timed sample.
struct LtSearchKey {
  int device = 0;
  int compute_type = 0;                    // cublasComputeType_t
  std::int64_t m = 0, n = 0, k = 0;        // the row-major problem C (m×n) = A (m×k) · B (k×n)
  std::int64_t lda = 0, ldb = 0, ldc = 0;  // row strides in floats
  bool a_transposed = false, b_transposed = false;  // the layout (matcompare/layout.hpp)

  auto tied() const { return std::tie(device, compute_type, m, n, k, lda, ldb, ldc, a_transposed, b_transposed); }
  bool operator<(const LtSearchKey& o) const { return tied() < o.tied(); }
  bool operator==(const LtSearchKey& o) const { return tied() == o.tied(); }
};

// An algorithm as cublasLtMatmulAlgoConfigGetAttribute reports it (the enumerations as their integer values).
struct LtAlgoConfig {
  int algo_id = 0;
  unsigned tile = 0;        // cublasLtMatmulTile_t
  unsigned stages = 0;      // cublasLtMatmulStages_t
  int split_k = 1;
  unsigned reduction = 0;   // cublasLtReductionScheme_t
  unsigned swizzle = 0;
  unsigned custom = 0;
  unsigned cluster = 0;     // cublasLtClusterShape_t
};

// The header's own spelling ("128x256", "64x4", "1x2x1"), or "#<id>" for an id the header did not list.
std::string lt_tile_name(unsigned tile);
std::string lt_stages_name(unsigned stages);
std::string lt_cluster_name(unsigned cluster);  // 0 reads "auto"
std::string lt_reduction_name(unsigned scheme);  // none, in-place, compute-type, output-type

// "algo 21, tile 128x128, stages 32x5, split-K 1, reduction none, swizzle 0, cluster 1x1x1" (", custom N" when set).
std::string describe_lt_algo(const LtAlgoConfig& c);
// Workspace::kernel() of a search's winner: its algorithm and where it stood among the heuristic's candidates,
// "cuBLASLt algo 21, …; candidate 2 of 8".
std::string describe_lt_choice(const LtAlgoConfig& chosen, int index, int candidates);

// One of the heuristic's candidates as the search timed it.
struct LtCandidate {
  std::string algo;        // describe_lt_algo
  double median_ms = 0;    // of its timed runs, cold L2 before each
  int runs = 0;            // timed runs; 0 when it could not run
  std::string error;       // why it could not run, "" when it ran
};

// A search's record: every candidate, the winner, and how long the whole search took (never in a sample).
struct LtChoice {
  std::vector<LtCandidate> candidates;
  int chosen = -1;
  std::string kernel;      // describe_lt_choice of the winner
  double search_ms = 0;    // wall time of the search, heuristic query included
};

// The fastest candidate that ran (the first of equals, in the heuristic's order), or -1 when none ran.
int fastest_candidate(const std::vector<LtCandidate>& candidates);

}  // namespace matcompare::gpu
