// Where one thread of cpu/blis loses to OpenBLAS (issue 8), in four modes (bench/NOTES.md has what each found):
//   parts ROUNDS           the core's AVX-512 FMA ceiling, then the micro-kernel, the macro-kernel (loop orders,
//                          huge pages, a prefetch of the next B panel) and the packing, each as a share of the ceiling
//   pairs SIZE ROUNDS CFG  whole products, cpu/blis under block sizes CFG... against OpenBLAS, in alternation
//   packb ROUNDS           the library's B packing against packing by groups of rows
//   packa ROUNDS           the library's A packing of one k block from cold sources, at KC 256 and 768
// Built against the library's internals:
//   g++ -O2 -std=c++17 -fopenmp -Isrc -Iinclude bench/experiments/blis_probe.cpp -Lbuild/src -lmatcompare -lopenblas
#include <cblas.h>
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/mman.h>
#include <random>
#include <string>
#include <vector>

#include "cpu/blis/blis.hpp"
#include "cpu/blis/microkernel.hpp"
#include "cpu/blis/packing.hpp"

extern "C" char* openblas_get_corename();

namespace {

using Clock = std::chrono::steady_clock;
namespace blis = matcompare::cpu::blis;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// 24 independent FMA chains on registers: what the two FMA ports give at this core's AVX-512 clock.
__attribute__((target("avx512f"), noinline)) double fma_ceiling_gflops(long trips) {
#define PROBE_FMA(r) "vfmadd231ps %%zmm0, %%zmm1, %%zmm" #r "\n\t"
  const auto t = Clock::now();
  long n = trips;
  asm volatile(
      "vxorps %%xmm0, %%xmm0, %%xmm0\n\t"
      "vxorps %%xmm1, %%xmm1, %%xmm1\n\t"
      "1:\n\t" PROBE_FMA(8) PROBE_FMA(9) PROBE_FMA(10) PROBE_FMA(11) PROBE_FMA(12) PROBE_FMA(13) PROBE_FMA(14)
      PROBE_FMA(15) PROBE_FMA(16) PROBE_FMA(17) PROBE_FMA(18) PROBE_FMA(19) PROBE_FMA(20) PROBE_FMA(21)
      PROBE_FMA(22) PROBE_FMA(23) PROBE_FMA(24) PROBE_FMA(25) PROBE_FMA(26) PROBE_FMA(27) PROBE_FMA(28)
      PROBE_FMA(29) PROBE_FMA(30) PROBE_FMA(31)
      "decq %[n]\n\t"
      "jnz 1b\n\t"
      : [n] "+r"(n)
      :
      : "xmm0", "xmm1", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",
        "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",
        "xmm30", "xmm31", "cc");
#undef PROBE_FMA
  return 24.0 * 32.0 * double(trips) / seconds_since(t) / 1e9;
}

// The packed panels must be 64-byte aligned (the kernel's aligned loads), as the library's own buffers are.
template <class T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U>
  Aligned64(const Aligned64<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64)); }
  void deallocate(T* p, std::size_t) { std::free(p); }
  bool operator==(const Aligned64&) const { return true; }
  bool operator!=(const Aligned64&) const { return false; }
};
using Floats = std::vector<float, Aligned64<float>>;

Floats random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  Floats v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

// The micro-kernel alone on one pair of micro-panels of depth kc, again and again into one C tile.
double kernel_gflops(const blis::MicroKernel& k, std::int64_t kc, long calls) {
  auto a = random_floats(std::size_t(k.mr * kc), 1), b = random_floats(std::size_t(k.nr * kc), 2);
  Floats c(std::size_t(k.mr * k.nr), 0.f);
  const auto t = Clock::now();
  for (long i = 0; i < calls; ++i) k.run(kc, a.data(), b.data(), c.data(), k.nr, 1.0f);
  return 2.0 * k.mr * k.nr * double(kc) * double(calls) / seconds_since(t) / 1e9;
}

// The macro-kernel on a packed mc x kc block of A and kc x nc block of B into C (mc x nc), jr outer (BLIS, the
// library's order until c4f7843: B micro-panel reused across the A panels) or ir outer over the whole block (A
// micro-panel reused across B's; the library now does this over L2-sized sub-blocks of B, loops.cpp).
// 2 MiB-aligned floats on transparent huge pages where the kernel grants them: one physically contiguous run, so
// a 1 MiB block spreads over L2's sets evenly, where 4 KiB pages land on its sets' colours at random.
struct HugeFloats {
  float* p = nullptr;
  std::size_t bytes = 0;
  explicit HugeFloats(std::size_t count) {
    bytes = (count * sizeof(float) + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    p = static_cast<float*>(std::aligned_alloc(2u << 20, bytes));
    madvise(p, bytes, MADV_HUGEPAGE);
    std::memset(p, 0, bytes);
  }
  ~HugeFloats() { std::free(p); }
  float* data() { return p; }
};

long anon_huge_kib() {
  std::ifstream f("/proc/self/smaps_rollup");
  std::string key;
  long value = 0;
  while (f >> key) {
    if (key == "AnonHugePages:") {
      f >> value;
      return value;
    }
  }
  return -1;
}

double macro_gflops(const blis::MicroKernel& k, std::int64_t mc, std::int64_t nc, std::int64_t kc, bool jr_outer,
                    int repeats, bool huge = false, bool prefetch_next_b = false) {
  auto a = random_floats(std::size_t(mc * kc), 3), b = random_floats(std::size_t(kc * nc), 4);
  Floats pa_small(huge ? 0 : std::size_t(mc * kc)), pb_small(huge ? 0 : std::size_t(kc * nc)),
      c(std::size_t(mc * nc), 0.f);
  HugeFloats pa_huge(huge ? std::size_t(mc * kc) : 0), pb_huge(huge ? std::size_t(kc * nc) : 0);
  float* const pa = huge ? pa_huge.data() : pa_small.data();
  float* const pb = huge ? pb_huge.data() : pb_small.data();
  blis::pack_a_block(k.mr, mc, kc, a.data(), kc, false, 1.0f, pa);
  blis::pack_b_block(k.nr, kc, nc, b.data(), nc, false, pb);
  const auto t = Clock::now();
  for (int r = 0; r < repeats; ++r) {
    if (jr_outer && prefetch_next_b) {
      // The next B micro-panel on its way to L2 in even slices, one before each kernel call of this one.
      const std::int64_t panel_lines = kc * k.nr * 4 / 64, calls = (mc + k.mr - 1) / k.mr;
      const std::int64_t lines_per_call = (panel_lines + calls - 1) / calls;
      for (std::int64_t jr = 0; jr < nc; jr += k.nr) {
        const char* next = reinterpret_cast<const char*>(pb + std::min(jr + k.nr, nc - k.nr) * kc);
        for (std::int64_t ir = 0, call = 0; ir < mc; ir += k.mr, ++call) {
          const std::int64_t first = call * lines_per_call, last = std::min(panel_lines, first + lines_per_call);
          for (std::int64_t line = first; line < last; ++line) _mm_prefetch(next + line * 64, _MM_HINT_T1);
          k.run(kc, pa + ir * kc, pb + jr * kc, c.data() + ir * nc + jr, nc, 1.0f);
        }
      }
    } else if (jr_outer) {
      for (std::int64_t jr = 0; jr < nc; jr += k.nr)
        for (std::int64_t ir = 0; ir < mc; ir += k.mr)
          k.run(kc, pa + ir * kc, pb + jr * kc, c.data() + ir * nc + jr, nc, 1.0f);
    } else {
      for (std::int64_t ir = 0; ir < mc; ir += k.mr)
        for (std::int64_t jr = 0; jr < nc; jr += k.nr)
          k.run(kc, pa + ir * kc, pb + jr * kc, c.data() + ir * nc + jr, nc, 1.0f);
    }
  }
  return 2.0 * double(mc) * double(nc) * double(kc) * repeats / seconds_since(t) / 1e9;
}

struct Product {
  std::int64_t m, n, k;
  Floats a, b, c, flush;
  Product(std::int64_t m_, std::int64_t n_, std::int64_t k_)
      : m(m_), n(n_), k(k_), a(random_floats(std::size_t(m * k), 5)), b(random_floats(std::size_t(k * n), 6)),
        c(std::size_t(m * n)), flush(flush_floats()) {}
  // 256 MiB of floats, or PROBE_FLUSH_MIB (the harness writes 600 MiB a thread).
  static std::size_t flush_floats() {
    const char* mib = std::getenv("PROBE_FLUSH_MIB");
    return (mib && std::atoi(mib) > 0 ? std::size_t(std::atoi(mib)) : 256) << 18;
  }
  void evict() {
    for (std::size_t i = 0; i < flush.size(); i += 16) flush[i] += 1.0f;
  }
  double blis_gflops(const blis::MicroKernel& kern) {
    evict();
    const matcompare::cpu::HostGemm g{m, n, k, 1.0f, 0.0f, a.data(), k, b.data(), n, c.data(), n};
    const auto t = Clock::now();
    blis::gemm_with(g, kern);
    return 2.0 * double(m) * double(n) * double(k) / seconds_since(t) / 1e9;
  }
  double openblas_gflops() {
    evict();
    const auto t = Clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, a.data(), int(k), b.data(),
                int(n), 0.0f, c.data(), int(n));
    return 2.0 * double(m) * double(n) * double(k) / seconds_since(t) / 1e9;
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

// `pairs SIZE ROUNDS CFG...`: every CFG ("default" or "KC,MC,NC") and OpenBLAS in turn, cold, ROUNDS times; each
// CFG's ratio to the OpenBLAS sample just before it, median and quartiles.
int pairs(int argc, char** argv, const blis::MicroKernel& kern) {
  const std::int64_t size = std::atoll(argv[2]);
  const int rounds = std::atoi(argv[3]);
  std::vector<std::string> configs(argv + 4, argv + argc);
  std::vector<std::vector<double>> ratio(configs.size()), gflops(configs.size());
  std::vector<double> vendor;
  Product p(size, size, size);
  for (int r = 0; r < rounds; ++r)
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const double theirs = p.openblas_gflops();
      if (configs[c] == "default")
        unsetenv("MATCOMPARE_BLIS_BLOCKS");
      else
        setenv("MATCOMPARE_BLIS_BLOCKS", configs[c].c_str(), 1);
      const double ours = p.blis_gflops(kern);
      vendor.push_back(theirs);
      gflops[c].push_back(ours);
      ratio[c].push_back(ours / theirs);
    }
  std::sort(vendor.begin(), vendor.end());
  std::printf("size %ld, %d rounds; OpenBLAS %.1f [%.1f-%.1f] GFLOP/s\n", long(size), rounds, vendor[vendor.size() / 2],
              vendor[vendor.size() / 4], vendor[vendor.size() * 3 / 4]);
  for (std::size_t c = 0; c < configs.size(); ++c) {
    auto& v = ratio[c];
    std::sort(v.begin(), v.end());
    std::printf("  %-16s %7.1f GFLOP/s  x%.3f [%.3f-%.3f]\n", configs[c].c_str(), median(gflops[c]), v[v.size() / 2],
                v[v.size() / 4], v[v.size() * 3 / 4]);
  }
  return 0;
}

// B packed in groups of rows: for each group of `group` rows, each panel's slice of those rows (contiguous in the
// packed block) in turn, so the writes go to one place at a time while the rows are read as `group` streams.
void pack_b_grouped(int group, std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb, float* packed) {
  constexpr int nr = 32;
  const std::int64_t panels = nc / nr;
  for (std::int64_t p0 = 0; p0 < kc; p0 += group) {
    const std::int64_t p1 = std::min<std::int64_t>(kc, p0 + group);
    for (std::int64_t j = 0; j < panels; ++j) {
      float* out = packed + j * kc * nr;
      for (std::int64_t p = p0; p < p1; ++p) std::memcpy(out + p * nr, b + p * ldb + j * nr, nr * sizeof(float));
    }
  }
}

// The same with the rows `ahead` groups later on their way to L2 while this group is copied.
void pack_b_grouped_prefetch(int group, int ahead, std::int64_t kc, std::int64_t nc, const float* b, std::int64_t ldb,
                             float* packed) {
  constexpr int nr = 32;
  const std::int64_t panels = nc / nr;
  for (std::int64_t p0 = 0; p0 < kc; p0 += group) {
    const std::int64_t p1 = std::min<std::int64_t>(kc, p0 + group);
    const std::int64_t f0 = p0 + std::int64_t(ahead) * group, f1 = std::min<std::int64_t>(kc, f0 + group);
    for (std::int64_t j = 0; j < panels; ++j) {
      for (std::int64_t p = f0; p < f1; ++p) {
        _mm_prefetch(reinterpret_cast<const char*>(b + p * ldb + j * nr), _MM_HINT_T1);
        _mm_prefetch(reinterpret_cast<const char*>(b + p * ldb + j * nr + 16), _MM_HINT_T1);
      }
      float* out = packed + j * kc * nr;
      for (std::int64_t p = p0; p < p1; ++p) std::memcpy(out + p * nr, b + p * ldb + j * nr, nr * sizeof(float));
    }
  }
}

// `packb ROUNDS`: the library's B packing against grouped ones, cold, KC 768 x NC 2048 from a 4096-wide B.
int packb(int rounds, const blis::MicroKernel& kern) {
  const std::int64_t n = 4096, kc = 768, nc = 2048;
  auto b = random_floats(std::size_t(n * n), 9);
  Floats ref(std::size_t(kc * nc)), out(std::size_t(kc * nc)), flush(std::size_t(64) << 20);
  const int groups[] = {0, 4, 8, 16, 32, -8, -16};  // negative: with the prefetch two groups ahead
  std::vector<std::vector<double>> gbs(7);
  for (int r = 0; r < rounds; ++r)
    for (int g = 0; g < 7; ++g) {
      for (std::size_t i = 0; i < flush.size(); i += 16) flush[i] += 1.0f;
      const std::int64_t offset = (r % 2) * nc;  // the other half of B's columns every other round
      const auto t = Clock::now();
      if (groups[g] == 0)
        blis::pack_b_block(kern.nr, kc, nc, b.data() + offset, n, false, ref.data());
      else if (groups[g] > 0)
        pack_b_grouped(groups[g], kc, nc, b.data() + offset, n, out.data());
      else
        pack_b_grouped_prefetch(-groups[g], 2, kc, nc, b.data() + offset, n, out.data());
      gbs[g].push_back(double(kc * nc * 4) / seconds_since(t) / 1e9);
      if (groups[g] != 0 && std::memcmp(ref.data(), out.data(), ref.size() * 4) != 0) {
        std::printf("group %d packs differently\n", groups[g]);
        return 1;
      }
    }
  for (int g = 0; g < 7; ++g)
    std::printf("  pack B %-10s %6.2f GB/s read (median of %d)\n", groups[g] ? ("rows " + std::to_string(groups[g])).c_str() : "library",
                median(gbs[g]), rounds);
  return 0;
}

// `packa ROUNDS`: the library's A packing of one k block of a 2048 x 2048 A from cold sources, all its rows in blocks
// of MC as a one-thread product packs them, at KC 256 (MC 336) and KC 768 (MC 336).
int packa(int rounds, const blis::MicroKernel& kern) {
  const std::int64_t n = 2048, mc = 336;
  auto a = random_floats(std::size_t(n * n), 10);
  Floats out(std::size_t(mc * 768)), flush(std::size_t(64) << 20);
  const std::int64_t depths[] = {256, 768};
  std::vector<std::vector<double>> gbs(2);
  for (int r = 0; r < rounds; ++r)
    for (int d = 0; d < 2; ++d) {
      for (std::size_t i = 0; i < flush.size(); i += 16) flush[i] += 1.0f;
      const std::int64_t kc = depths[d], pc = (r % 2) * 1024;  // another k block every other round
      const auto t = Clock::now();
      for (std::int64_t ic = 0; ic < n; ic += mc)
        blis::pack_a_block(kern.mr, std::min(mc, n - ic), kc, a.data() + ic * n + pc, n, false, 1.0f, out.data());
      gbs[d].push_back(double(n * kc * 4) / seconds_since(t) / 1e9);
    }
  for (int d = 0; d < 2; ++d)
    std::printf("  pack A kc %-4ld %6.2f GB/s read (median of %d)\n", long(depths[d]), median(gbs[d]), rounds);
  return 0;
}

int main(int argc, char** argv) {
  omp_set_num_threads(1);
  openblas_set_num_threads(1);
  const blis::MicroKernel& kern = blis::select_microkernel();
  std::printf("kernel %s %dx%d; OpenBLAS core %s; %s\n", kern.name.c_str(), kern.mr, kern.nr, openblas_get_corename(),
              blis::configuration().c_str());
  if (argc > 4 && std::string(argv[1]) == "pairs") return pairs(argc, argv, kern);
  if (argc > 2 && std::string(argv[1]) == "packb") return packb(std::atoi(argv[2]), kern);
  if (argc > 2 && std::string(argv[1]) == "packa") return packa(std::atoi(argv[2]), kern);
  if (argc < 2 || std::string(argv[1]) != "parts") {
    std::fprintf(stderr, "usage: blis_probe parts ROUNDS | pairs SIZE ROUNDS CFG... | packb ROUNDS | packa ROUNDS\n");
    return 2;
  }
  // `parts ROUNDS`: each round the FMA ceiling, then the kernel, the macro-kernel and the packing of one 1-thread
  // product at 4096 (KC 768, MC 336, NC 2048: 2 x 6 k blocks, 13 A blocks each), each as a share of that ceiling.
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 9;
  const std::int64_t n = 4096, kc = 768, mc = 336, nc = 2048;
  auto a = random_floats(std::size_t(n * n), 7), b = random_floats(std::size_t(n * n), 8);
  Floats pa(std::size_t(mc * kc)), pb(std::size_t(kc * nc)), flush(std::size_t(64) << 20);
  std::vector<std::vector<double>> share(12);
  const char* names[12] = {"kernel kc 64 (L1)",          "kernel kc 768 (B 96 KiB)",    "macro kc 768 mc 336 jr outer",
                           "macro kc 384 mc 672 jr outer", "macro kc 256 mc 1008 jr outer", "macro kc 768 mc 336 ir outer",
                           "pack A, product's share",      "pack B, product's share",
                           "macro kc 768 mc 336, huge",    "macro kc 384 mc 672, huge",
                           "macro kc 768 mc 336, next B",  "macro kc 384 mc 672, next B"};
  for (int r = 0; r < rounds; ++r) {
    const double ceiling = fma_ceiling_gflops(20000000);
    share[0].push_back(kernel_gflops(kern, 64, 300000) / ceiling);
    share[1].push_back(kernel_gflops(kern, 768, 30000) / ceiling);
    share[2].push_back(macro_gflops(kern, 336, 2048, 768, true, 2) / ceiling);
    share[3].push_back(macro_gflops(kern, 672, 2048, 384, true, 2) / ceiling);
    share[4].push_back(macro_gflops(kern, 1008, 2048, 256, true, 2) / ceiling);
    share[5].push_back(macro_gflops(kern, 336, 2048, 768, false, 2) / ceiling);
    share[8].push_back(macro_gflops(kern, 336, 2048, 768, true, 2, true) / ceiling);
    share[9].push_back(macro_gflops(kern, 672, 2048, 384, true, 2, true) / ceiling);
    share[10].push_back(macro_gflops(kern, 336, 2048, 768, true, 2, false, true) / ceiling);
    share[11].push_back(macro_gflops(kern, 672, 2048, 384, true, 2, false, true) / ceiling);
    if (r == 0) std::printf("AnonHugePages after the huge blocks: %ld KiB\n", anon_huge_kib());
    // Packing from cold sources, as in the product: every A block of one k block, then one B block.
    for (std::size_t i = 0; i < flush.size(); i += 16) flush[i] += 1.0f;
    auto t = Clock::now();
    for (std::int64_t ic = 0; ic < n; ic += mc)
      blis::pack_a_block(kern.mr, std::min(mc, n - ic), kc, a.data() + ic * n, n, false, 1.0f, pa.data());
    const double a_seconds = seconds_since(t);
    t = Clock::now();
    blis::pack_b_block(kern.nr, kc, nc, b.data(), n, false, pb.data());
    const double b_seconds = seconds_since(t);
    // The product at the ceiling would take 2 n^3 / ceiling; it packs A 2 x 6 times over and B 2 x 6 blocks.
    const double ideal_seconds = 2.0 * double(n) * n * n / (ceiling * 1e9);
    const double k_blocks = double((n + kc - 1) / kc) * double(n / nc);
    share[6].push_back(a_seconds * k_blocks / ideal_seconds);
    share[7].push_back(b_seconds * k_blocks / ideal_seconds);
    std::printf("round %d: ceiling %.1f GFLOP/s\n", r, ceiling);
  }
  for (int i = 0; i < 12; ++i) {
    auto& v = share[i];
    std::sort(v.begin(), v.end());
    std::printf("  %-32s %.3f [%.3f-%.3f] of the ceiling\n", names[i], v[v.size() / 2], v[v.size() / 4], v[v.size() * 3 / 4]);
  }
  return 0;
}
