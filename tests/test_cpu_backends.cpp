#include <stdexcept>

#include "../src/cpu/blis/blis.hpp"
#include "../src/cpu/blis/block_sizes.hpp"
#include "backend_checks.hpp"

using namespace matcompare;

TEST_CASE("every CPU backend matches the float64 reference on odd shapes, any alpha and beta") {
  int checked = 0;
  for (const Backend* backend : all_backends()) {
    if (backend->info().device != DeviceKind::cpu) continue;
    SUBCASE(backend->info().name.c_str()) { matcompare_test::check_backend(*backend); }
    ++checked;
  }
  CHECK(checked >= 14);
}

TEST_CASE("every micro-kernel of cpu/blis this CPU can run matches the reference; the others say why not") {
  int ran = 0;
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels()) {
    if (!kernel.unsupported.empty()) {
      MESSAGE("micro-kernel ", kernel.name, " skipped: ", kernel.unsupported);
      continue;
    }
    auto gemm = [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
      cpu::blis::gemm_with({std::int64_t(a.rows()), std::int64_t(b.cols()), std::int64_t(a.cols()), alpha, beta,
                            a.data(), std::int64_t(a.cols()), b.data(), std::int64_t(b.cols()), c.data(),
                            std::int64_t(c.cols())},
                           kernel);
    };
    const std::string name = "cpu/blis with " + kernel.name;
    for (const auto& shape : matcompare_test::odd_shapes())
      for (const auto& scaling : matcompare_test::scalings())
        matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, shape, scaling);
    // Several blocks in every loop: more than KC deep, more than MC and NC wide.
    matcompare_test::check_gemm_against_reference(name, Precision::fp32, gemm, {1000, 4201, 1100}, {0.5f, 2.0f});
    ++ran;
  }
  CHECK(ran >= 1);  // the portable kernel runs anywhere
  CHECK_FALSE(cpu::blis::configuration().empty());
}

TEST_CASE("cpu/blis is right on any team size, the rows that do not divide among the threads included") {
  const Backend& blis = find_backend("cpu/blis");
  // 1, 2 and 3 threads divide some of these panel counts and not others; 7 and 16 leave rows over on the first two
  // shapes (the left-over rows are packed for the team and split by columns), and the third has fewer panels than
  // 7 or 16 threads (the team shrinks to one panel each).
  for (int threads : {1, 2, 3, 7, 16}) {
    set_threads(threads);
    for (const GemmShape shape : {GemmShape{127, 253, 61}, GemmShape{300, 517, 129}, GemmShape{61, 1000, 40}})
      matcompare_test::check_against_reference(blis, shape, {0.5f, 2.0f});
  }
  set_threads(0);
}

TEST_CASE("block sizes follow the caches: multiples of the register tile, inside their bounds") {
  for (const cpu::blis::MicroKernel& kernel : cpu::blis::microkernels())
    for (const cpu::blis::CacheSizes caches : {cpu::blis::CacheSizes{32 << 10, 512 << 10, 8 << 20},
                                               cpu::blis::CacheSizes{48 << 10, 2 << 20, 105 << 20},
                                               cpu::blis::CacheSizes{1, 1, 1}}) {
      const cpu::blis::BlockSizes s = cpu::blis::block_sizes(kernel, caches);
      INFO(cpu::blis::describe(kernel, s, caches));
      CHECK(s.mr == kernel.mr);
      CHECK(s.nr == kernel.nr);
      CHECK(s.mc % kernel.mr == 0);
      CHECK(s.nc % kernel.nr == 0);
      CHECK(s.kc % 16 == 0);
      CHECK(s.mc >= kernel.mr);
      CHECK(s.nc >= kernel.nr);
      CHECK(s.kc * kernel.nr * 4 <= std::max<std::int64_t>(caches.l1d, 128 * kernel.nr * 4));
    }
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
