#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../src/gpu/hopper/tf32_passes.hpp"
#include "../src/gpu/runtime/gpu_runtime.hpp"
#include "../src/gpu/simt/simt_tuning.hpp"
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
    if (backend->info().name == "gpu/cublasmp-fp32") continue;  // its own case below: a few processes per gemm
    REQUIRE_MESSAGE(backend->availability().available, (backend->info().name + ": " + backend->availability().reason));
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

// A cut last round needs more tiles than the GPU runs at once; with fewer slots forced, the test shapes reach it,
// with one tail a block or several, and heads and tails on the edges of C.
TEST_CASE("gpu/simt-tuned's cut last round is correct and gives the same bits every time") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  for (const char* name : {"128x128x16_w64x64_l4x8_s3_colA_b2", "96x128x16_w48x64_l4x8_s3_colA_b3",
                           "64x128x16_w32x64_l4x8_s4_rowA_b3", "256x128x8_w64x64_l4x8_s3_colA_b1"})
    for (int slots : {3, 5, 7, 13}) {
      SUBCASE((std::string(name) + " on " + std::to_string(slots) + " slots").c_str()) {
        const gpu::SimtVariant* variant = nullptr;
        for (const gpu::SimtVariant& v : gpu::simt_variants())
          if (v.name == name) variant = &v;
        REQUIRE(variant != nullptr);
        const std::int64_t tiles = (1000 + variant->block_rows - 1) / variant->block_rows *
                                   ((1001 + variant->block_cols - 1) / variant->block_cols);
        REQUIRE(gpu::simt_schedule(tiles, 999 / variant->block_k, slots, true).head_k_tiles > 0);
        gpu::force_simt_choice({name, 3, slots});
        for (const matcompare_test::Scaling scaling : {matcompare_test::Scaling{0.5f, 2.0f}, {1.0f, 0.0f}})
          matcompare_test::check_against_reference(tuned, {1000, 1001, 999}, scaling);
        matcompare_test::check_against_reference(tuned, {300, 515, 1203}, {-1.5f, 0.0f});
        matcompare_test::check_repeatable(tuned, {700, 333, 517});
        gpu::force_simt_choice({});
      }
    }
}

// The shapes of the first case reach only some of the TF32 engine's tiles, and with at most 64 tiles they all
// split K. Each tile is forced here in turn, on those shapes and on one of more tiles than an H100 or H200 has SMs
// (144 to 288 tiles, 3 or 9 steps): no split, and blocks that walk several tiles through one ring.
namespace {
struct ForcedTf32Tile {
  explicit ForcedTf32Tile(const std::string& name) {
    if (const char* set = std::getenv("MATCOMPARE_TF32_TILE")) before = set, had = true;
    setenv("MATCOMPARE_TF32_TILE", name.c_str(), 1);
  }
  ~ForcedTf32Tile() {
    if (had)
      setenv("MATCOMPARE_TF32_TILE", before.c_str(), 1);
    else
      unsetenv("MATCOMPARE_TF32_TILE");
  }
  std::string before;
  bool had = false;
};
}  // namespace

TEST_CASE("every tile of the TF32 engine is correct, in one pass and in three, split or not") {
  for (const gpu::Tf32Tile& t : gpu::kTf32Tiles) {
    const std::string name = gpu::tf32_tile_name(t);
    SUBCASE(name.c_str()) {
      const ForcedTf32Tile forced(name);
      for (const char* step : {"gpu/tensor-core-tf32-ws", "gpu/tensor-core-3xtf32"}) {
        const Backend& backend = find_backend(step);
        matcompare_test::check_backend(backend);
        const GemmShape many_tiles{2000, 2200, 70};
        REQUIRE(gpu::tf32_plan(many_tiles, 1, 132, &t).splits == 1);
        matcompare_test::check_against_reference(backend, many_tiles, {0.5f, 2.0f});
        matcompare_test::check_against_reference(backend, many_tiles, {1.0f, 0.0f});
      }
    }
  }
}

TEST_CASE("a TF32 tile the engine does not have is a clear error") {
  const ForcedTf32Tile unknown("64x64");
  const MatrixF a = MatrixF::random(16, 16, 1), b = MatrixF::random(16, 16, 2);
  MatrixF c(16, 16);
  CHECK_THROWS_WITH_AS(find_backend("gpu/tensor-core-tf32-ws").gemm(1.0f, a, b, 0.0f, c),
                       "MATCOMPARE_TF32_TILE=64x64 is not one of 256x128, 128x256, 128x128", std::runtime_error);
}
#endif

// gpu/cublasmp-fp32 starts its worker processes (NCCL, NVSHMEM, cuBLASMp) for every gemm, so it gets a shorter
// list: the odd shapes with alpha/beta away from (1, 0), one GPU (world size 1) and, where there are two, two.
TEST_CASE("gpu/cublasmp-fp32 matches the float64 reference on odd shapes, on one GPU and on two") {
  const Backend& mp = find_backend("gpu/cublasmp-fp32");
  const Availability available = mp.availability();
  if (!available.available) {
    MESSAGE("gpu/cublasmp-fp32 not checked: " << available.reason);
    return;
  }
  std::vector<std::vector<int>> device_sets{{0}};
  if (gpu::device_count() >= 2) device_sets.push_back({0, 1});
  for (const std::vector<int>& devices : device_sets) {
    gpu::set_multi_devices(devices);
    INFO("GPUs: ", devices.size());
    for (const GemmShape& shape : matcompare_test::odd_shapes())
      for (const matcompare_test::Scaling scaling : {matcompare_test::Scaling{0.5f, 2.0f}, {-1.5f, 0.0f}})
        matcompare_test::check_against_reference(mp, shape, scaling);
    matcompare_test::check_against_reference(mp, {1000, 1001, 999}, {0.5f, 2.0f});
    matcompare_test::check_repeatable(mp, {127, 253, 61});
  }
  gpu::set_multi_devices({});
}

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
