#include <stdexcept>

#include "../src/gpu/simt_tuning.hpp"
#include "backend_checks.hpp"

using namespace matcompare;

std::string matcompare_test::skip_reason() {
  const Availability a = find_backend("gpu/cublas-fp32").availability();
  return a.available ? "" : "GPU tests need a GPU: " + a.reason;
}

TEST_CASE("every GPU backend matches the float64 reference on odd shapes, any alpha and beta") {
  int checked = 0;
  for (const Backend* backend : all_backends()) {
    if (backend->info().device != DeviceKind::gpu) continue;
    REQUIRE(backend->availability().available);
    SUBCASE(backend->info().name.c_str()) { matcompare_test::check_backend(*backend); }
    ++checked;
  }
  CHECK(checked >= 22);
}

// The variants and their override exist only in the CUDA build; without it this suite is skipped anyway.
#if MATCOMPARE_HAVE_CUDA
TEST_CASE("every variant of gpu/simt-tuned is correct, whichever the tuning table picks") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  REQUIRE(gpu::simt_variants().size() >= 10);
  for (const gpu::SimtVariant& v : gpu::simt_variants()) {
    SUBCASE(v.name.c_str()) {
      gpu::force_simt_choice({v.name, 3});  // a group that does not divide the block rows
      matcompare_test::check_backend(tuned);
      gpu::force_simt_choice({});
    }
  }
}
#endif

TEST_CASE("a shape too large for device memory is a clear error, not a crash") {
  const Backend& cublas = find_backend("gpu/cublas-fp32");
  CHECK_THROWS_WITH_AS(cublas.prepare({1 << 20, 1 << 20, 1 << 20}), doctest::Contains("of GPU memory"),
                       std::runtime_error);
}

TEST_CASE("the GPU context names the device and its clocks") {
  const RunContext c = collect_context("test", BenchmarkOptions{});
  REQUIRE(c.gpu.has_value());
  CHECK_FALSE(c.gpu->name.empty());
  CHECK(c.gpu->multiprocessors > 0);
  CHECK(c.gpu->sm_clock_observed_mhz > 100);
  CHECK_FALSE(c.gpu->cublas_version.empty());
}
