// Block sizes of the BLIS-style CPU GEMM from the cache sizes the machine reports (the table is in
// block_sizes.hpp).
#include "block_sizes.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <fstream>

namespace matcompare::cpu::blis {
namespace {

// "48K", "2048K", "32M" as /sys writes them.
std::int64_t parse_size(const std::string& text) {
  if (text.empty()) return 0;
  const std::int64_t value = std::atoll(text.c_str());
  switch (text.back()) {
    case 'K': return value << 10;
    case 'M': return value << 20;
    default: return value;
  }
}

// The size of cpu0's cache of this level (and type, "Data" or "Unified") from /sys, or 0.
std::int64_t sys_cache(int level, bool data_only) {
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int found_level = 0;
    std::string type, size;
    if (!(level_file >> found_level) || !(type_file >> type) || !(size_file >> size)) continue;
    if (found_level == level && (type == "Unified" || (data_only && type == "Data"))) return parse_size(size);
  }
  return 0;
}

std::int64_t first_positive(std::int64_t a, std::int64_t b, std::int64_t fallback) {
  return a > 0 ? a : b > 0 ? b : fallback;
}

int fit(std::int64_t budget_bytes, std::int64_t bytes_per_unit, int multiple, int low, int high) {
  const std::int64_t units = budget_bytes / bytes_per_unit / multiple * multiple;
  return int(std::clamp<std::int64_t>(units, low, high));
}

// KC x NB x 4 B <= 1/4 of L2; then (MC x KC + KC x NB + MC x NB) x 4 B <= 3/4 of L2 (the table).
void fit_nb_and_mc(const MicroKernel& kernel, const CacheSizes& caches, BlockSizes& s) {
  s.nb = fit(caches.l2 / 4, std::int64_t(s.kc) * 4, kernel.nr, kernel.nr, 4096 / kernel.nr * kernel.nr);
  const std::int64_t a_and_c_budget = caches.l2 * 3 / 4 - std::int64_t(s.kc) * s.nb * 4;
  s.mc = fit(a_and_c_budget, (std::int64_t(s.kc) + s.nb) * 4, kernel.mr, kernel.mr, 512 / kernel.mr * kernel.mr);
}

}  // namespace

CacheSizes this_cpu_caches() {
  static const CacheSizes caches{first_positive(sysconf(_SC_LEVEL1_DCACHE_SIZE), sys_cache(1, true), 32 << 10),
                                 first_positive(sysconf(_SC_LEVEL2_CACHE_SIZE), sys_cache(2, false), 512 << 10),
                                 first_positive(sysconf(_SC_LEVEL3_CACHE_SIZE), sys_cache(3, false), 8 << 20)};
  return caches;
}

BlockSizes block_sizes(const MicroKernel& kernel, const CacheSizes& caches, int threads) {
  BlockSizes s{kernel.mr, kernel.nr, 0, 0, 0, 0};
  const std::int64_t b_panel_budget = kernel.mr >= 12 ? 2 * caches.l1d : caches.l1d / 2;
  s.kc = fit(b_panel_budget, std::int64_t(kernel.nr) * 4, 16, 128, 768);
  if (threads <= 1) {
    const int both_panels_in_l1 = fit(caches.l1d * 15 / 16, std::int64_t(kernel.mr + kernel.nr) * 4, 16, 16, 768);
    if (both_panels_in_l1 >= 256) s.kc = std::min(s.kc, both_panels_in_l1);
  }
  fit_nb_and_mc(kernel, caches, s);
  const std::int64_t b_block_budget = std::min(caches.l3 / 2, 4 * caches.l2 * std::max(1, threads));
  s.nc = fit(b_block_budget, std::int64_t(s.kc) * 4, kernel.nr, kernel.nr, 4096 / kernel.nr * kernel.nr);
  return s;
}

std::optional<BlockOverride> blocks_override() {
  const char* text = std::getenv(kBlisBlocksVariable);
  if (!text || !*text) return std::nullopt;
  long kc = 0, mc = 0, nc = 0, nb = 0;
  int used = 0, used_nb = 0;
  bool ok = std::sscanf(text, "%ld,%ld,%ld%n", &kc, &mc, &nc, &used) == 3;
  const bool with_nb = ok && text[used] == ',';
  if (with_nb)
    ok = std::sscanf(text + used + 1, "%ld%n", &nb, &used_nb) == 1 && !text[used + 1 + used_nb];
  else
    ok = ok && !text[used];
  if (!ok || kc < 1 || mc < 1 || nc < 1 || (with_nb && nb < 1) || kc > 65536 || mc > 65536 || nc > 1 << 20 ||
      nb > 1 << 20)
    throw std::invalid_argument(std::string(kBlisBlocksVariable) + " must be KC,MC,NC or KC,MC,NC,NB (whole numbers, " +
                                "KC and MC 1 to 65536, NC and NB 1 to 1048576), got '" + text + "'");
  return BlockOverride{kc, mc, nc, with_nb ? nb : 0};
}

BlockSizes blocks_in_use(const MicroKernel& kernel, int threads) {
  BlockSizes s = block_sizes(kernel, this_cpu_caches(), threads);
  const std::optional<BlockOverride> forced = blocks_override();
  if (!forced) return s;
  auto round_to = [](long x, int multiple) { return int(std::max<long>(multiple, x / multiple * multiple)); };
  s.kc = int(forced->kc);
  fit_nb_and_mc(kernel, this_cpu_caches(), s);
  s.mc = round_to(forced->mc, kernel.mr);
  s.nc = round_to(forced->nc, kernel.nr);
  if (forced->nb > 0) s.nb = round_to(forced->nb, kernel.nr);
  return s;
}

std::string describe(const MicroKernel& kernel, const BlockSizes& s, const CacheSizes& caches) {
  return kernel.name + " " + std::to_string(s.mr) + "x" + std::to_string(s.nr) + ", KC " + std::to_string(s.kc) +
         " MC " + std::to_string(s.mc) + " NC " + std::to_string(s.nc) + " NB " + std::to_string(s.nb) + " (L1d " +
         std::to_string(caches.l1d >> 10) + " KiB, L2 " + std::to_string(caches.l2 >> 10) + " KiB, L3 " +
         std::to_string(caches.l3 >> 20) + " MiB)";
}

}  // namespace matcompare::cpu::blis
