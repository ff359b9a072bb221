#include "cublaslt_text.hpp"

#include <cstddef>

namespace matcompare::gpu {
namespace {

enum class LtIdKind { MATMUL_TILE, MATMUL_STAGES, CLUSTER_SHAPE };

struct LtIdName {
  LtIdKind kind;
  unsigned id;
  const char* name;
};

// Every "CUBLASLT_<kind>_<name> = <id>" of the cublasLt.h this library was built with (src/CMakeLists.txt).
constexpr LtIdName kLtIds[] = {
#include "cublaslt_ids.inc"
};

std::string id_name(LtIdKind kind, unsigned id) {
  for (const LtIdName& entry : kLtIds)
    if (entry.kind == kind && entry.id == id) return entry.name;
  return "#" + std::to_string(id);
}

}  // namespace

std::string lt_tile_name(unsigned tile) { return id_name(LtIdKind::MATMUL_TILE, tile); }
std::string lt_stages_name(unsigned stages) { return id_name(LtIdKind::MATMUL_STAGES, stages); }
std::string lt_cluster_name(unsigned cluster) {
  return cluster == 0 ? "auto" : id_name(LtIdKind::CLUSTER_SHAPE, cluster);
}

std::string lt_reduction_name(unsigned scheme) {
  switch (scheme) {  // cublasLtReductionScheme_t
    case 0: return "none";
    case 1: return "in-place";
    case 2: return "compute-type";
    case 4: return "output-type";
  }
  return "#" + std::to_string(scheme);
}

std::string describe_lt_algo(const LtAlgoConfig& c) {
  std::string text = "algo " + std::to_string(c.algo_id) + ", tile " + lt_tile_name(c.tile) + ", stages " +
                     lt_stages_name(c.stages) + ", split-K " + std::to_string(c.split_k) + ", reduction " +
                     lt_reduction_name(c.reduction) + ", swizzle " + std::to_string(c.swizzle) + ", cluster " +
                     lt_cluster_name(c.cluster);
  if (c.custom) text += ", custom " + std::to_string(c.custom);
  return text;
}

std::string describe_lt_choice(const LtAlgoConfig& chosen, int index, int candidates) {
  return "cuBLASLt " + describe_lt_algo(chosen) + "; candidate " + std::to_string(index + 1) + " of " +
         std::to_string(candidates);
}

int fastest_candidate(const std::vector<LtCandidate>& candidates) {
  int best = -1;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const LtCandidate& c = candidates[i];
    if (c.runs == 0 || !c.error.empty()) continue;
    if (best < 0 || c.median_ms < candidates[std::size_t(best)].median_ms) best = int(i);
  }
  return best;
}

}  // namespace matcompare::gpu
