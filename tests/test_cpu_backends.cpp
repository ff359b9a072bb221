#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

#include "../src/cpu/blis/blis.hpp"
#include "../src/cpu/blis/block_sizes.hpp"
#include "../src/cpu/openblas_settings.hpp"
#include "../src/cpu/worker_team.hpp"
#include "backend_checks.hpp"

using namespace matcompare;

TEST_CASE("every CPU backend matches the float64 reference on odd shapes, any alpha and beta") {
  int checked = 0;
  for (const Backend* backend : all_backends()) {
    if (backend->info().device != DeviceKind::cpu) continue;
    // A vendor library this build has no plugin for (test_cpu_vendors insists on those it has).
    const Availability availability = backend->availability();
    if (!availability.available) {
      MESSAGE(backend->info().name, " skipped: ", availability.reason);
      continue;
    }
    SUBCASE(backend->info().name.c_str()) { matcompare_test::check_backend(*backend); }
    ++checked;
  }
  CHECK(checked >= 14);
}

namespace {

// cpu/blis's problem for host matrices stored as `layout` says: a transposed operand is read as stored, its row stride
// its own width.
cpu::HostGemm host_gemm(Layout layout, float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
  return {std::int64_t(c.rows()), std::int64_t(c.cols()), std::int64_t(a_transposed(layout) ? a.rows() : a.cols()),
          alpha, beta, a.data(), std::int64_t(a.cols()), b.data(), std::int64_t(b.cols()), c.data(),
          std::int64_t(c.cols()), a_transposed(layout), b_transposed(layout)};
}

}  // namespace

TEST_CASE("every micro-kernel of cpu/blis this CPU can run matches the reference; the others say why not") {
  int ran = 0;
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels()) {
    if (!kernel.unsupported.empty()) {
      MESSAGE("micro-kernel ", kernel.name, " skipped: ", kernel.unsupported);
      continue;
    }
    const std::string name = "cpu/blis with " + kernel.name;
    for (Layout layout : matcompare_test::all_layouts()) {
      auto gemm = [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
        cpu::blis::gemm_with(host_gemm(layout, alpha, a, b, beta, c), kernel);
      };
      for (auto shape : matcompare_test::odd_shapes()) {
        shape.layout = layout;
        for (const auto& scaling : matcompare_test::scalings())
          matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, shape, scaling);
      }
      // Several blocks in every loop: more than KC deep, more than MC and NC wide; under a sanitizer, blocks small
      // enough that a small problem has several of each.
      if (matcompare_test::kSanitized) {
        const matcompare_test::ScopedVariable blocks("MATCOMPARE_BLIS_BLOCKS", "40,24,160,64");
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {130, 700, 129, layout},
                                                      {0.5f, 2.0f});
      } else {
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {1000, 4201, 1100, layout},
                                                      {0.5f, 2.0f});
      }
    }
    ++ran;
  }
  CHECK(ran >= 1);  // the portable kernel runs anywhere
  CHECK_FALSE(cpu::blis::configuration().empty());
}

TEST_CASE("cpu/blis is right on any team size and any cut of its work into units") {
  const Backend& blis = find_backend("cpu/blis");
  // 1, 2 and 3 threads divide some of these panel counts and not others; the third shape has fewer panels than 7 or
  // 16 threads (the team shrinks to one panel each); the fourth is one B micro-panel wide, so each row block is one
  // unit and its taker packs it (as one thread always does). The small blocks make many k and column blocks, and
  // units of two micro-panels and a few B micro-panels, the last ones ragged; the last blocks also cut a unit's
  // columns into sub-blocks of 64 (two AVX-512 micro-panels, four 16-wide ones), the last one ragged, and K into
  // equal blocks of at most 40 (129 deep: 36, 36, 36 and 21), some not a multiple of the kernels' four k steps a trip.
  for (const char* blocks : {"", "64,24,96", "40,24,160,64"}) {
    setenv("MATCOMPARE_BLIS_BLOCKS", blocks, 1);
    for (int threads : {1, 2, 3, 7, 16}) {
      set_threads(threads);
      // Every layout too: a transposed operand is packed from its own strides at every block edge.
      for (GemmShape shape : {GemmShape{127, 253, 61}, GemmShape{300, 517, 129}, GemmShape{61, 1000, 40},
                              GemmShape{300, 20, 129}})
        for (Layout layout : matcompare_test::all_layouts()) {
          shape.layout = layout;
          matcompare_test::check_against_reference(blis, shape, {0.5f, 2.0f});
        }
    }
  }
  unsetenv("MATCOMPARE_BLIS_BLOCKS");
  set_threads(0);
}

TEST_CASE("cpu/blis's few-rows path: every layout, column blocks cut anywhere, any team, alpha and beta") {
  const Backend& blis = find_backend("cpu/blis");
  // Up to kFewRows rows take the streaming path; one more takes the five loops. Columns that cut the blocks of 16 and
  // of 2048 anywhere; a B that one thread reads alone (under 2 MiB: up to 1300 x 301), one that two threads share
  // where three are allowed (2000 x 301, 2.3 MiB: a team of one thread per MiB) and one the whole team takes (4100 x
  // 301; a B stored K x N split by its rows, unevenly among 2 and 3 threads); depths that cut the four-row passes of
  // a B stored K x N and the vectors of a transposed one. (Every row count and more depths, per instruction set, in
  // the next case.)
  for (int threads : {1, 2, 3}) {
    set_threads(threads);
    for (std::int64_t m : {std::int64_t(1), std::int64_t(2), cpu::blis::kFewRows, cpu::blis::kFewRows + 1})
      for (std::int64_t n : {1, 511, 512, 513, 1300, 2000, 4100})
        for (std::int64_t k : {1, 7, 301})
          for (Layout layout : matcompare_test::all_layouts())
            for (const auto& scaling : matcompare_test::scalings())
              matcompare_test::check_against_reference(blis, {m, n, k, layout}, scaling);
  }
  set_threads(0);
}

TEST_CASE("cpu/blis's few rows with K split among a team give the same bits on every call") {
  // 301 x 4100 floats of B (4.7 MiB) stored K x N: a team of every thread allowed, each summing a slice of K
  // (few_rows.cpp); the threads finish in any order from call to call, and the slices' partial sums must still be
  // added in one order. (Slices taken from a shared counter were tried; bench/NOTES.md, "K slices taken as threads
  // come".)
  const std::uint64_t seed = matcompare_test::fresh_seed();
  for (int threads : {2, 3}) {
    set_threads(threads);
    for (std::int64_t m : {std::int64_t(1), std::int64_t(3)}) {
      const MatrixF a = MatrixF::random(std::size_t(m), 301, seed), b = MatrixF::random(301, 4100, seed + 1);
      MatrixF first(std::size_t(m), 4100), c(std::size_t(m), 4100);
      cpu::blis::gemm_few_rows(host_gemm(Layout::nn, 1.0f, a, b, 0.0f, first), cpu::blis::select_microkernel());
      int differing_calls = 0;
      for (int call = 0; call < 40; ++call) {
        cpu::blis::gemm_few_rows(host_gemm(Layout::nn, 1.0f, a, b, 0.0f, c), cpu::blis::select_microkernel());
        differing_calls += std::memcmp(c.data(), first.data(), c.size() * sizeof(float)) != 0;
      }
      INFO("threads ", threads, " m ", m, " seed ", seed);
      CHECK(differing_calls == 0);
    }
  }
  set_threads(0);
}

TEST_CASE("a half-width micro-kernel writes the tile's first NR/2 columns, + beta C, and nothing else") {
  // The edges call it with beta 0 into a buffer (loops.cpp); its contract, a MicroKernelFn's, includes beta.
  int ran = 0;
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels()) {
    if (!kernel.unsupported.empty() || !kernel.run_half) continue;
    INFO(kernel.name);
    const int mr = kernel.mr, nr = kernel.nr, ldc = nr + 3;
    const std::int64_t kc = 37;
    std::vector<float> a(std::size_t(kc * mr)), c(std::size_t(mr * ldc));
    alignas(64) static float b[37 * 32];
    REQUIRE(std::size_t(kc * nr) <= sizeof(b) / sizeof(float));
    std::uint32_t state = 7;
    auto next = [&state] { return float((state = state * 1664525u + 1013904223u) >> 8) / float(1u << 24) - 0.5f; };
    for (float& x : a) x = next();
    for (std::int64_t i = 0; i < kc * nr; ++i) b[i] = next();
    for (float& x : c) x = next();
    const std::vector<float> before = c;
    for (const float beta : {0.0f, 0.5f}) {
      c = before;
      // With beta 0, C is not read (an edge tile's buffer is not initialised): NaN there must not reach the sums.
      if (beta == 0.0f)
        for (int i = 0; i < mr; ++i) std::fill_n(c.begin() + i * ldc, nr / 2, std::numeric_limits<float>::quiet_NaN());
      kernel.run_half(kc, a.data(), b, c.data(), ldc, beta);
      for (int i = 0; i < mr; ++i)
        for (int j = 0; j < ldc; ++j) {
          double want = before[std::size_t(i * ldc + j)];
          if (j < nr / 2) {
            double sum = 0;
            for (std::int64_t p = 0; p < kc; ++p) sum += double(a[std::size_t(p * mr + i)]) * b[p * nr + j];
            want = sum + beta * want;
          }
          INFO("beta ", beta, " row ", i, " column ", j);
          CHECK(c[std::size_t(i * ldc + j)] == doctest::Approx(want).epsilon(1e-5));
        }
    }
    ++ran;
  }
  if (ran == 0) MESSAGE("no micro-kernel with a half-width twin runs on this CPU");
}

TEST_CASE("cpu/blis's few-rows loops are correct for every instruction set this CPU runs") {
  // Each micro-kernel's instruction set brings its own few-rows loops; cpu/blis runs those of the one it selected.
  int ran = 0;
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels()) {
    if (!kernel.unsupported.empty()) continue;
    const std::string name = "cpu/blis's few-rows loops with " + kernel.name;
    for (Layout layout : matcompare_test::all_layouts()) {
      auto gemm = [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
        cpu::blis::gemm_few_rows(host_gemm(layout, alpha, a, b, beta, c), kernel);
      };
      for (std::int64_t m = 1; m <= cpu::blis::kFewRows; ++m) {
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {m, 517, 61, layout}, {0.5f, 2.0f});
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {m, 70, 1030, layout},
                                                      {-1.5f, 0.0f});
        // Narrow enough for the sums to stay in registers with every instruction set, some columns past the last
        // whole vector, and an odd K (one row of B left after the pairs).
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {m, 21, 1031, layout},
                                                      {1.0f, -1.0f});
        // A square A: stored transposed, its rows are as far apart as untransposed ones (lda = K), so only the
        // layout tells the loops that it must be gathered rather than read where it lies.
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {m, 40, m, layout}, {1.0f, 0.5f});
      }
    }
    ++ran;
  }
  CHECK(ran >= 1);
}

TEST_CASE("the few-rows loop for B stored K x N reads a block of columns out of a wider B, its sums kept or not") {
  // What a team does with a wide B (few_rows.cpp): each thread a block of columns whose rows lie ldb apart. Widths
  // that stay in registers with each instruction set (some past the last whole vector) and one that does not; K odd.
  int ran = 0;
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels()) {
    if (!kernel.unsupported.empty()) continue;
    const std::int64_t k = 203, ldb = 700, first = 37;
    const std::uint64_t seed = matcompare_test::fresh_seed();
    const MatrixF b = MatrixF::random(k, ldb, seed), a = MatrixF::random(cpu::blis::kFewRows, k, seed + 1);
    for (std::int64_t m = 1; m <= cpu::blis::kFewRows; ++m)
      for (std::int64_t width : {8, 21, 64, 70, 600}) {
        const std::int64_t acc_ld = width + 3;
        std::vector<float> acc(std::size_t(m * acc_ld), 0.5f);
        kernel.few_rows.untransposed(m, k, a.data(), b.data() + first, ldb, width, acc.data(), acc_ld);
        int wrong = 0;
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < acc_ld; ++j) {
            // The loop adds to acc, and leaves the columns past `width` alone; FP32's bound over K + 1 additions.
            double want = 0.5, scale = 0.5;
            if (j < width)
              for (std::int64_t p = 0; p < k; ++p) {
                const double term =
                    double(a(std::size_t(i), std::size_t(p))) * b(std::size_t(p), std::size_t(first + j));
                want += term;
                scale += std::abs(term);
              }
            wrong += std::abs(acc[std::size_t(i * acc_ld + j)] - want) > double(k + 2) * std::ldexp(1.0, -24) * scale;
          }
        INFO(kernel.name, " m=", m, " width=", width, " seed=", seed);
        CHECK(wrong == 0);
      }
    ++ran;
  }
  CHECK(ran >= 1);
}

TEST_CASE("the units of a k block cover it once, in blocks no longer than MC") {
  for (std::int64_t panels : {1, 5, 43, 171, 342})
    for (std::int64_t b_panels : {1, 3, 64, 128})
      for (int team : {1, 2, 7, 16})
        for (std::int64_t max_panels : {1, 2, 28, 42}) {
          const cpu::blis::UnitGrid grid = cpu::blis::unit_grid(panels, b_panels, team, max_panels);
          INFO("panels=", panels, " b_panels=", b_panels, " team=", team, " max=", max_panels);
          CHECK(grid.unit_panels >= 1);
          CHECK(grid.unit_panels <= max_panels);
          CHECK(grid.row_blocks * grid.unit_panels >= panels);
          CHECK((grid.row_blocks - 1) * grid.unit_panels < panels);
          CHECK(grid.col_blocks * grid.unit_b_panels >= b_panels);
          CHECK((grid.col_blocks - 1) * grid.unit_b_panels < b_panels);
          if (team == 1) CHECK(grid.col_blocks == 1);
          // Row blocks of four micro-panels or more that make ~8 units a thread alone: no column blocks, so every
          // unit packs its own A.
          if ((panels + 8 * team - 1) / (8 * team) >= 4) CHECK(grid.col_blocks == 1);
          if (team > 1 && panels >= 2 * team * max_panels) CHECK(grid.count() >= 2 * team);
        }
}

TEST_CASE("block sizes follow the caches: multiples of the register tile, inside their bounds") {
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels())
    for (const cpu::blis::CacheSizes caches : {cpu::blis::CacheSizes{32 << 10, 512 << 10, 8 << 20},
                                               cpu::blis::CacheSizes{48 << 10, 2 << 20, 105 << 20},
                                               cpu::blis::CacheSizes{1, 1, 1}})
      for (const int threads : {1, 2, 16}) {
        const cpu::blis::BlockSizes s = cpu::blis::block_sizes(kernel, caches, threads);
        INFO(cpu::blis::describe(kernel, s, caches));
        CHECK(s.mr == kernel.mr);
        CHECK(s.nr == kernel.nr);
        CHECK(s.mc % kernel.mr == 0);
        CHECK(s.nc % kernel.nr == 0);
        CHECK(s.kc % 16 == 0);
        CHECK(s.mc >= kernel.mr);
        CHECK(s.nc >= kernel.nr);
        const std::int64_t b_panel_budget = kernel.mr >= 12 ? 2 * caches.l1d : caches.l1d / 2;
        CHECK(s.kc * kernel.nr * 4 <= std::max<std::int64_t>(b_panel_budget, 128 * kernel.nr * 4));
        CHECK(s.kc <= 768);
        // One thread: either both micro-panels fit 15/16 of L1d, or no KC of 256 or more would let them.
        if (threads == 1)
          CHECK((s.kc * (kernel.mr + kernel.nr) * 4 <= caches.l1d * 15 / 16 ||
                 256 * (kernel.mr + kernel.nr) * 4 > caches.l1d * 15 / 16));
        // More threads: the deep block alone, never shallower than one thread's.
        if (threads > 1) CHECK(s.kc >= cpu::blis::block_sizes(kernel, caches, 1).kc);
        CHECK(s.nb % kernel.nr == 0);
        CHECK(s.nb >= kernel.nr);
        const std::int64_t sub_block_bytes = std::int64_t(s.kc) * s.nb * 4;
        CHECK(sub_block_bytes <= std::max<std::int64_t>(caches.l2 / 4, std::int64_t(kernel.nr) * s.kc * 4));
        const std::int64_t pass_bytes = (std::int64_t(s.mc) * s.kc + std::int64_t(s.mc) * s.nb) * 4 + sub_block_bytes;
        if (s.mc > kernel.mr) CHECK(pass_bytes <= caches.l2 * 3 / 4);
        const std::int64_t b_block_bytes = std::int64_t(s.kc) * s.nc * 4;
        CHECK(b_block_bytes <= std::max<std::int64_t>(std::min<std::int64_t>(caches.l3 / 2, 4 * caches.l2 * threads),
                                                      std::int64_t(kernel.nr) * s.kc * 4));
        CHECK(s.nc <= 4096);
      }
}

TEST_CASE("MATCOMPARE_BLIS_BLOCKS takes three or four positive sizes and rejects anything else with a message") {
  const cpu::blis::MicroKernel& kernel = cpu::blis::select_microkernel();
  setenv("MATCOMPARE_BLIS_BLOCKS", "256,336,2720", 1);
  cpu::blis::BlockSizes s = cpu::blis::blocks_in_use(kernel, 1);
  CHECK(s.kc == 256);
  CHECK(s.mc == 336 / kernel.mr * kernel.mr);
  const std::int64_t nb_from_kc = cpu::blis::this_cpu_caches().l2 / 4 / (256 * 4) / kernel.nr * kernel.nr;
  CHECK(s.nb == std::clamp<std::int64_t>(nb_from_kc, kernel.nr, 4096 / kernel.nr * kernel.nr));
  setenv("MATCOMPARE_BLIS_BLOCKS", "256,336,2720,512", 1);
  s = cpu::blis::blocks_in_use(kernel, 1);
  CHECK(s.nb == 512 / kernel.nr * kernel.nr);
  for (const char* bad : {"256,336", "256,336,2720,", "256,336,2720x", "256,336,2720,512,1", "0,336,2720",
                          "256,336,2720,0", "a,b,c"}) {
    setenv("MATCOMPARE_BLIS_BLOCKS", bad, 1);
    CHECK_THROWS_WITH_AS(cpu::blis::blocks_in_use(kernel, 1), doctest::Contains("MATCOMPARE_BLIS_BLOCKS must be"),
                         std::invalid_argument);
  }
  unsetenv("MATCOMPARE_BLIS_BLOCKS");
}

TEST_CASE("gemm rejects mismatched shapes with a message") {
  const Backend& gold = find_backend("cpu/gold");
  MatrixF a(3, 4), b(5, 2), c(3, 2);
  CHECK_THROWS_AS(gold.gemm(1, a, b, 0, c), std::invalid_argument);
  MatrixF b_ok(4, 2), c_bad(2, 2);
  CHECK_THROWS_AS(gold.gemm(1, a, b_ok, 0, c_bad), std::invalid_argument);
  MatrixF empty;
  CHECK_THROWS_AS(gold.gemm(1, empty, b_ok, 0, c), std::invalid_argument);
}

TEST_CASE("backends are found by exact name and selected by patterns") {
  CHECK(find_backend("cpu/openblas").info().vendor);
  CHECK_THROWS_WITH_AS(find_backend("cpu/nope"), doctest::Contains("no backend named"), std::invalid_argument);
  const auto loops = select_backends("cpu/loop-*");
  CHECK(loops.size() == 6);
  CHECK(select_backends("").size() == all_backends().size());
  CHECK(select_backends("zzz").empty());
  CHECK(select_backends("gold,openblas").size() == 3);
  CHECK(select_backends("loop-k*j").size() == 2);  // a * inside a pattern: loop-kij and loop-kji
  CHECK(select_backends("smem*a").size() >= 1);
  for (const Backend* b : all_backends()) {
    CHECK_FALSE(b->info().seed.empty());
    CHECK_FALSE(b->info().idea.empty());
  }
}

TEST_CASE("OpenBLAS is restarted on the kernels the CPU can run best, unless the user chose") {
  const bool avx512 = true, avx2_fma = true;
  CHECK(std::string(openblas_core_for("Prescott", avx512, avx2_fma)) == "SkylakeX");  // generic fallback
  CHECK(std::string(openblas_core_for("Prescott", !avx512, avx2_fma)) == "Haswell");
  CHECK(openblas_core_for("Prescott", !avx512, !avx2_fma) == nullptr);                // nothing better to pick
  CHECK(std::string(openblas_core_for("Haswell", avx512, avx2_fma)) == "SkylakeX");   // Zen 4/5 on AVX2 kernels
  CHECK(std::string(openblas_core_for("Zen", avx512, avx2_fma)) == "SkylakeX");
  CHECK(openblas_core_for("Haswell", !avx512, avx2_fma) == nullptr);                  // the right core already
  CHECK(openblas_core_for("Zen", !avx512, avx2_fma) == nullptr);
  CHECK(openblas_core_for("SkylakeX", avx512, avx2_fma) == nullptr);
  CHECK(openblas_core_for("Cooperlake", avx512, avx2_fma) == nullptr);
  CHECK(openblas_core_for("SapphireRapids", avx512, avx2_fma) == nullptr);
}

TEST_CASE("the worker team runs each thread index once per call, at any team size, one call at a time") {
  for (const int team : {4, 1, 3, 3, 6, 2}) {
    for (int call = 0; call < 200; ++call) {
      std::vector<std::atomic<int>> runs(std::size_t(team) + 1);
      std::atomic<int> teams_seen{0};
      cpu::run_on_team(team, [&](int thread, int size) {
        runs[std::size_t(thread)].fetch_add(1);
        if (size == team) teams_seen.fetch_add(1);
      });
      for (int t = 0; t < team; ++t) REQUIRE_MESSAGE(runs[std::size_t(t)] == 1, "team ", team, " thread ", t);
      REQUIRE(runs[std::size_t(team)] == 0);
      REQUIRE(teams_seen == team);
    }
  }
  // Two callers at once: each call still sees its whole team, never a thread of the other's.
  std::atomic<int> wrong{0};
  auto caller = [&](int team) {
    for (int call = 0; call < 200; ++call) {
      std::atomic<int> ran{0};
      cpu::run_on_team(team, [&](int, int size) {
        if (size != team) wrong.fetch_add(1);
        ran.fetch_add(1);
      });
      if (ran != team) wrong.fetch_add(1);
    }
  };
  std::thread other(caller, 3);
  caller(2);
  other.join();
  CHECK(wrong == 0);
}

// The host cache flush calls the team with every thread and cpu/blis's few-rows path with one per MiB of B: a call of
// another size must not start new threads (it used to replace every worker, which cost more than the product).
TEST_CASE("the worker team keeps its threads across calls of different sizes") {
  auto threads_of = [](int team) {
    std::vector<std::thread::id> ids(static_cast<std::size_t>(team));
    cpu::run_on_team(team, [&](int thread, int) { ids[std::size_t(thread)] = std::this_thread::get_id(); });
    return ids;
  };
  const std::vector<std::thread::id> four = threads_of(4);
  const std::vector<std::thread::id> two = threads_of(2);
  const std::vector<std::thread::id> four_again = threads_of(4);
  CHECK(std::set<std::thread::id>(four.begin(), four.end()).size() == 4);  // four threads, the caller one of them
  CHECK(four[0] == std::this_thread::get_id());
  CHECK(two[1] == four[1]);
  CHECK(four_again == four);
}

// A child of fork() has none of its parent's worker threads: its calls run on a team of its own (else they would wait
// for ever on workers that do not exist there; the alarm ends such a child).
TEST_CASE("the worker team runs in a child of fork") {
  cpu::run_on_team(3, [](int, int) {});  // the parent's team has workers
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    alarm(10);
    std::atomic<int> ran{0};
    cpu::run_on_team(3, [&](int, int) { ran.fetch_add(1); });
    _exit(ran == 3 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("the library sets OpenBLAS's core and thread timeout itself where the user did not, and leaves the "
          "environment as it was") {
  const bool core_set = std::getenv("OPENBLAS_CORETYPE") != nullptr;
  const bool timeout_set = std::getenv("OPENBLAS_THREAD_TIMEOUT") != nullptr;
  cpu::adjust_openblas();
  CHECK((std::getenv("OPENBLAS_CORETYPE") != nullptr) == core_set);
  CHECK((std::getenv("OPENBLAS_THREAD_TIMEOUT") != nullptr) == timeout_set);
  if (!core_set) {
    // A DYNAMIC_ARCH OpenBLAS now runs the core this CPU should (Debian 12's picks Prescott on a Sapphire Rapids).
    INFO("OpenBLAS core: ", openblas_core_below_cpu() ? "below the CPU" : "fine", "; switched to ",
         cpu::openblas_core_chosen());
    CHECK(openblas_core_below_cpu() == nullptr);
  }
  if (!timeout_set && cpu::openblas_waits_shortened())
    CHECK(thread_wait_settings().find("OPENBLAS_THREAD_TIMEOUT=20 (set by matcompare") != std::string::npos);
  // OpenBLAS still computes right after the switch and the restart of its pool.
  matcompare_test::check_backend(find_backend("cpu/openblas"));
}
