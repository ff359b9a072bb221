#include <stdexcept>

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
