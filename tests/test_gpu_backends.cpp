#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "../src/gpu/cutlass/cutlass_tf32.hpp"
#include "../src/gpu/hopper/tf32_passes.hpp"
#include "../src/gpu/runtime/gpu_runtime.hpp"
#include "../src/gpu/runtime/sm_clock.hpp"
#include "../src/gpu/simt/few_rows.hpp"
#include "../src/gpu/simt/simt_tuning.hpp"
#include "../src/gpu/vendor/cublaslt.hpp"
#include "backend_checks.hpp"

using namespace matcompare;

// CTest runs gpu/cublasmp-fp32's case as a test of its own (test_gpu_cublasmp, with
// MATCOMPARE_TEST_CUBLASMP set), skipped where cuBLASMp or its worker is missing.
std::string matcompare_test::skip_reason() {
  const Availability a = find_backend("gpu/cublas-fp32").availability();
  if (!a.available) return "GPU tests need a GPU: " + a.reason;
  const Availability mp = find_backend("gpu/cublasmp-fp32").availability();
  if (std::getenv("MATCOMPARE_TEST_CUBLASMP") && !mp.available) return "gpu/cublasmp-fp32 is unavailable: " + mp.reason;
  return "";
}

TEST_CASE("every GPU backend matches the float64 reference on odd shapes, any alpha and beta") {
  int checked = 0;
  for (const Backend* backend : all_backends()) {
    if (backend->info().device != DeviceKind::gpu) continue;
    if (backend->info().name == "gpu/cublasmp-fp32") continue;  // its own case below: a few processes per gemm
    if (backend->info().name == "gpu/cutlass-tf32") continue;   // its own case below: every kernel, or not built
    REQUIRE_MESSAGE(backend->availability().available, (backend->info().name + ": " + backend->availability().reason));
    SUBCASE(backend->info().name.c_str()) { matcompare_test::check_backend(*backend); }
    ++checked;
  }
  CHECK(checked >= 22);
}

// The variants and their override exist only in the CUDA build; without it this suite is skipped anyway.
#if MATCOMPARE_HAVE_CUDA
namespace {
// Forces gpu/simt-tuned's choice for one scope and gives the table back on leaving it, also when a REQUIRE fails.
struct ForcedSimtChoice {
  explicit ForcedSimtChoice(const gpu::SimtChoice& choice) { gpu::force_simt_choice(choice); }
  ~ForcedSimtChoice() { gpu::force_simt_choice({}); }
  ForcedSimtChoice(const ForcedSimtChoice&) = delete;
  ForcedSimtChoice& operator=(const ForcedSimtChoice&) = delete;
};
}  // namespace

TEST_CASE("every variant of gpu/simt-tuned is correct, whichever the tuning table picks") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  REQUIRE(gpu::simt_variants().size() >= 10);
  REQUIRE(tuned.info().all_layouts);
  int every_layout = 0;
  for (const gpu::SimtVariant& v : gpu::simt_variants()) {
    std::vector<Layout> layouts;
    for (Layout layout : matcompare_test::all_layouts())
      if (v.takes(layout)) layouts.push_back(layout);
    every_layout += layouts.size() == 4;
    SUBCASE(v.name.c_str()) {
      REQUIRE(v.takes(Layout::nn));
      const ForcedSimtChoice forced({v.name, 3});  // a group that does not divide the block rows
      matcompare_test::check_backend_in(tuned, layouts);
      if (layouts.size() < 4) {  // a layout it lacks is a clear error, never another layout's kernel
        const MatrixF a(17, 65), b(33, 65);  // NT's stored shapes
        MatrixF c(17, 33);
        CHECK_THROWS_WITH_AS(tuned.gemm(1.0f, a, b, 0.0f, c, Layout::nt),
                             ("gpu/simt-tuned: the variant " + v.name + " is built for NN alone, not NT").c_str(),
                             std::runtime_error);
      }
    }
  }
  CHECK(every_layout >= 7);
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
        const ForcedSimtChoice forced({name, 3, slots});
        for (const matcompare_test::Scaling scaling : {matcompare_test::Scaling{0.5f, 2.0f}, {1.0f, 0.0f}})
          matcompare_test::check_against_reference(tuned, {1000, 1001, 999}, scaling);
        matcompare_test::check_against_reference(tuned, {300, 515, 1203}, {-1.5f, 0.0f});
        matcompare_test::check_repeatable(tuned, {700, 333, 517});
        if (variant->takes(Layout::tt))  // the layouts' loaders at the head's and the tail's k bounds
          for (Layout layout : {Layout::nt, Layout::tn, Layout::tt})
            matcompare_test::check_against_reference(tuned, {1000, 1001, 999, layout}, {0.5f, 2.0f});
      }
    }
}

// Environment and workspace helpers of the cases below.
namespace {
// MATCOMPARE_FEW_ROWS set for one scope.
struct FewRowsSet : matcompare_test::ScopedVariable {
  explicit FewRowsSet(const char* value) : ScopedVariable(gpu::kFewRowsVariable, value) {}
};

std::string kernel_for(const Backend& backend, const GemmShape& shape) {
  auto ws = backend.prepare(shape);
  ws->upload(MatrixF::random(stored_a_rows(shape), stored_a_cols(shape), 3),
             MatrixF::random(stored_b_rows(shape), stored_b_cols(shape), 4));
  return ws->kernel();
}
}  // namespace

// Tiles that fill at most half the GPU with deep K split K (SimtSchedule::splits): each variant the table names, and
// the default, on such shapes in every layout, repeatable, and named so in the result.
TEST_CASE("gpu/simt-tuned splits K when its tiles are few: correct in every layout and the same bits every time") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  for (const char* name : {"64x128x16_w32x64_l4x8_s4_rowA_b3", "128x64x16_w64x32_l8x4_s4_rowA_b3",
                           "96x128x16_w48x64_l4x8_s3_colA_b3", "128x128x16_w64x32_l8x4_s2_colA_b2"}) {
    SUBCASE(name) {
      const gpu::SimtVariant* variant = nullptr;
      for (const gpu::SimtVariant& v : gpu::simt_variants())
        if (v.name == name) variant = &v;
      REQUIRE(variant != nullptr);
      const ForcedSimtChoice forced({name, 3});
      for (const GemmShape shape : {GemmShape{100, 130, 3000}, GemmShape{33, 300, 999}, GemmShape{200, 70, 2049}}) {
        const std::int64_t slots = std::int64_t(gpu::multiprocessor_count()) * variant->resident_blocks();
        REQUIRE(gpu::simt_schedule_for(shape, variant->block_rows, variant->block_cols, variant->block_k, slots)
                    .splits > 1);
        for (Layout layout : matcompare_test::all_layouts()) {
          if (!variant->takes(layout)) continue;
          const GemmShape laid{shape.m, shape.n, shape.k, layout};
          matcompare_test::check_against_reference(tuned, laid, {0.5f, 2.0f});
          matcompare_test::check_against_reference(tuned, laid, {1.0f, 0.0f});
        }
        matcompare_test::check_repeatable(tuned, shape);
        CHECK(kernel_for(tuned, shape).find(", K split ") != std::string::npos);
      }
    }
  }
}

// From kSimtCopyBRows rows of C on, B stored N×K is copied K×N and the kernel runs its NN or TN instance: correct with
// the table's choice, with a K split after the copy in scratch, and with a variant built for NN alone; named so in the
// result, and not below those rows.
TEST_CASE("gpu/simt-tuned copies B stored N×K to K×N from kSimtCopyBRows rows of C on") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  const int rows = int(gpu::kSimtCopyBRows);
  for (Layout layout : {Layout::nt, Layout::tt}) {
    INFO(to_string(layout));
    for (const GemmShape shape : {GemmShape{rows, 257, 333, layout}, GemmShape{rows + 3, 70, 3001, layout}}) {
      matcompare_test::check_against_reference(tuned, shape, {0.5f, 2.0f});
      matcompare_test::check_against_reference(tuned, shape, {1.0f, 0.0f});
      CHECK(kernel_for(tuned, shape).find(", B copied KxN first") != std::string::npos);
    }
    CHECK(kernel_for(tuned, {rows + 3, 70, 3001, layout}).find(", K split ") != std::string::npos);
    CHECK(kernel_for(tuned, {rows - 1, 257, 333, layout}).find("B copied") == std::string::npos);
  }
  // gpu/tensor-core-3xtf32 hands K below 8 to gpu/simt-tuned: its scratch holds the copy too.
  const Backend& three = find_backend("gpu/tensor-core-3xtf32");
  for (Layout layout : {Layout::nt, Layout::tt}) {
    const GemmShape shallow{rows, 257, 7, layout};
    matcompare_test::check_against_reference(three, shallow, {0.5f, 2.0f});
    CHECK(kernel_for(three, shallow).find(", B copied KxN first") != std::string::npos);
  }
  const ForcedSimtChoice nn_only({"128x128x16_w64x32_l8x4_s3_rowA_b1", 3});
  matcompare_test::check_against_reference(tuned, {rows, 257, 333, Layout::nt}, {0.5f, 2.0f});
}

// Below kSimtCopyBRows rows a C with fewer rows than columns and B stored N×K runs turned around (C^T = B·op(A)^T, NN,
// C written transposed): correct in NT and TT with and without beta on the three ways a schedule runs (K split, whole
// tiles, the last round cut), repeatable, named so, and in gpu/tensor-core-3xtf32 where it hands the product to SIMT.
TEST_CASE("gpu/simt-tuned turns a C of fewer rows than columns around where B is stored N×K") {
  const Backend& tuned = find_backend("gpu/simt-tuned");
  const gpu::SimtVariant* variant = nullptr;
  for (const gpu::SimtVariant& v : gpu::simt_variants())
    if (v.name == gpu::kTurnedVariant) variant = &v;
  REQUIRE(variant != nullptr);
  REQUIRE(bool(variant->launch_turned));
  const FewRowsSet row_defaults("");  // 33 rows: the few-rows kernels stop at 32 unless the variable says otherwise
  const std::int64_t slots = std::int64_t(gpu::multiprocessor_count()) * variant->resident_blocks();
  // C^T's tiles: 128 of C's columns by 64 of its rows. Few tiles and deep K split; just over half as many tiles as
  // slots and deep K split into more parts than slots (rounds of parts); fewer tiles than slots run whole; a few more
  // tiles than slots cut the last round (K deep enough that it gains). The first split and the cut have two tile
  // columns of C^T (C's 100 rows), the cut's last tile row part-empty (N 3 short of a whole tile).
  const int rounds_n = int(128 * (slots / 2 + 1)), whole_n = int(128 * (slots / 2 + 10)),
            cut_n = int(128 * ((slots + 5) / 2) - 3);
  const std::string split = ", K split ", cut = ", last round cut in k", whole;
  struct Case {
    GemmShape shape;
    std::string note;
  };
  for (const Case& each : {Case{{100, 1001, 3000}, split}, Case{{64, rounds_n, 1024}, split},
                           Case{{33, whole_n, 100}, whole}, Case{{100, 777, 130}, whole},
                           Case{{100, cut_n, 1000}, cut}}) {
    const gpu::SimtSchedule plan = gpu::simt_schedule_for(gpu::simt_turned_shape(each.shape), variant->block_rows,
                                                          variant->block_cols, variant->block_k, slots);
    INFO(to_string(each.shape), " splits ", plan.splits, " head ", plan.head_k_tiles);
    REQUIRE((plan.splits > 1) == (each.note == split));
    REQUIRE((plan.head_k_tiles > 0) == (each.note == cut));
    if (each.shape.n == rounds_n) REQUIRE(plan.splits * plan.tiles > slots);
    for (Layout layout : {Layout::nt, Layout::tt}) {
      const GemmShape laid{each.shape.m, each.shape.n, each.shape.k, layout};
      matcompare_test::check_against_reference(tuned, laid, {0.5f, 2.0f});
      matcompare_test::check_against_reference(tuned, laid, {1.0f, 0.0f});
      const std::string kernel = kernel_for(tuned, laid);
      CHECK(kernel.find(std::string(gpu::kTurnedVariant) + " on C^T") == 0);
      CHECK((kernel.find(", A copied KxM first") != std::string::npos) == (layout == Layout::nt));
      if (each.note != whole) CHECK(kernel.find(each.note) != std::string::npos);
      matcompare_test::check_repeatable(tuned, laid);
    }
  }
  // Not turned: as many rows as columns, B stored K×N, or a variant forced.
  CHECK(kernel_for(tuned, {100, 100, 130, Layout::nt}).find("on C^T") == std::string::npos);
  CHECK(kernel_for(tuned, {100, 777, 130, Layout::tn}).find("on C^T") == std::string::npos);
  {
    const ForcedSimtChoice forced({"64x128x16_w32x64_l4x8_s4_rowA_b3", 3});
    CHECK(kernel_for(tuned, {100, 777, 130, Layout::nt}).find("on C^T") == std::string::npos);
  }
  const Backend& three = find_backend("gpu/tensor-core-3xtf32");
  const GemmShape decode{64, 4096, 1024, Layout::nt};
  matcompare_test::check_against_reference(three, decode, {0.5f, 2.0f});
  CHECK(kernel_for(three, decode).find(std::string("gpu/simt-tuned ") + gpu::kTurnedVariant + " on C^T") == 0);
}

// The shapes of the first case reach only some of the TF32 engine's tiles, and with at most 64 tiles they all
// split K. Each tile is forced here in turn, on those shapes and on one of more tiles than an H100 or H200 has SMs
// (144 to 288 tiles, 3 or 9 steps): no split, and blocks that walk several tiles through one ring.
namespace {
// MATCOMPARE_TF32_TILE set for one scope.
struct ForcedTf32Tile : matcompare_test::ScopedVariable {
  explicit ForcedTf32Tile(const std::string& name) : ScopedVariable(gpu::kTf32TileVariable, name) {}
};
}  // namespace

// A C of at most 64 rows takes the engine's 64-row tile (a wgmma of 64 rows of C), K split up to eight ways: correct
// in every layout with and without beta, in one pass and three, named so; 65 rows take another tile. The shapes split
// K several ways, as many as this GPU runs every tile's cluster at once: on an H200 8, 8, 5, 6 and 4.
TEST_CASE("the TF32 engine runs a C of at most 64 rows on its 64-row tile") {
  const FewRowsSet row_defaults("");
  for (const char* step : {"gpu/tensor-core-tf32-ws", "gpu/tensor-core-3xtf32"}) {
    const Backend& backend = find_backend(step);
    const std::string engine = std::string(step) == "gpu/tensor-core-3xtf32" ? "3xTF32 " : "TF32 ";
    for (const GemmShape shape : {GemmShape{64, 2000, 2048}, GemmShape{33, 777, 1000}, GemmShape{40, 3000, 130},
                                  GemmShape{16, 4096, 2048}, GemmShape{64, 6144, 512}}) {
      const gpu::Tf32Plan plan = gpu::tf32_plan_here(shape);
      INFO(step, " ", to_string(shape), " splits ", plan.splits);
      REQUIRE(plan.tile.rows == 64);
      for (Layout layout : matcompare_test::all_layouts()) {
        const GemmShape laid{shape.m, shape.n, shape.k, layout};
        matcompare_test::check_against_reference(backend, laid, {0.5f, 2.0f});
        matcompare_test::check_against_reference(backend, laid, {1.0f, 0.0f});
        const std::string kernel = kernel_for(backend, laid);
        if (kernel.rfind(engine, 0) == 0) CHECK(kernel.find("64x256") != std::string::npos);
      }
      if (engine == "TF32 ") CHECK(kernel_for(backend, shape) == "TF32 " + gpu::tf32_plan_name(plan));
    }
  }
  CHECK(gpu::tf32_plan({64, 2000, 2048}, 132).splits == 8);
  CHECK(gpu::tf32_plan({65, 2000, 2048}, 132).tile.rows != 64);
  // Held to three passes, 3xTF32 runs the 64-row tile with K split too.
  const ForcedTf32Tile forced("64x256");
  const Backend& three = find_backend("gpu/tensor-core-3xtf32");
  matcompare_test::check_against_reference(three, {64, 2000, 2048, Layout::nt}, {0.5f, 2.0f});
  CHECK(kernel_for(three, {64, 2000, 2048, Layout::nt}) == "3xTF32 64x256, K split 8 ways");
}

// Where this GPU cannot run every tile's cluster of a split at once, the tiles larger than 64 rows keep their splits
// and a second kernel adds their sums from planes (on an H100 or H200, 120 blocks at once in clusters of 4: both
// shapes have 32 tiles split 4 ways). Correct in every layout with and without beta, in one pass and three, and named
// so; the planes sit in the scratch after what each row keeps there (A copied K-major, the split parts).
TEST_CASE("the TF32 engine sums a split in planes where its clusters would not all fit") {
  int planned = 0;
  for (const GemmShape shape : {GemmShape{1000, 1001, 999}, GemmShape{127, 4000, 1100}}) {
    const gpu::Tf32Plan plan = gpu::tf32_plan_here(shape);
    INFO(to_string(shape), ": ", gpu::tf32_plan_name(plan));
    if (!plan.sums_in_planes) continue;
    ++planned;
    const ForcedTf32Tile forced(gpu::tf32_tile_name(plan.tile));  // 3xTF32 would hand the 127-row one to SIMT
    for (const char* step : {"gpu/tensor-core-tf32-ws", "gpu/tensor-core-3xtf32"}) {
      const Backend& backend = find_backend(step);
      const std::string engine = std::string(step) == "gpu/tensor-core-3xtf32" ? "3xTF32 " : "TF32 ";
      for (Layout layout : matcompare_test::all_layouts()) {
        const GemmShape laid{shape.m, shape.n, shape.k, layout};
        INFO(step, " ", to_string(laid));
        matcompare_test::check_against_reference(backend, laid, {0.5f, 2.0f});
        matcompare_test::check_against_reference(backend, laid, {1.0f, 0.0f});
        CHECK(kernel_for(backend, laid) == engine + gpu::tf32_plan_name(plan));
      }
    }
  }
  if (planned == 0) MESSAGE("no shape here sums in planes: this GPU runs every cluster of their splits at once");
  if (gpu::multiprocessor_count() == 132) CHECK(planned == 2);
}

// A split tile's blocks run as one cluster unless they sum in planes. This GPU runs clusters of every size the plan
// may take, whole ones, at most one block an SM; the slots are printed, since the plan's splits follow them.
TEST_CASE("the TF32 engine's clusters of every size up to eight run on this GPU") {
  const int sms = gpu::multiprocessor_count();
  for (const gpu::Tf32Tile& t : gpu::kTf32Tiles) {
    std::string slots;
    for (int size = 2; size <= gpu::kTf32MaxSplits; ++size) {
      const int n = gpu::tf32_cluster_slots(t, size);
      INFO(gpu::tf32_tile_name(t), " in clusters of ", size, ": ", n, " blocks at once");
      CHECK(n >= size);
      CHECK(n <= sms);
      slots += " " + std::to_string(n);
    }
    MESSAGE(gpu::tf32_tile_name(t), " blocks at once in clusters of 2..8 on ", sms, " SMs:", slots);
  }
}

TEST_CASE("every tile of the TF32 engine is correct, in one pass and in three, split or not") {
  for (const gpu::Tf32Tile& t : gpu::kTf32Tiles) {
    const std::string name = gpu::tf32_tile_name(t);
    SUBCASE(name.c_str()) {
      const ForcedTf32Tile forced(name);
      for (const char* step : {"gpu/tensor-core-tf32-ws", "gpu/tensor-core-3xtf32"}) {
        const Backend& backend = find_backend(step);
        matcompare_test::check_backend(backend);
        const GemmShape many_tiles{2000, 2200, 70};
        REQUIRE(gpu::tf32_plan(many_tiles, 132, &t).splits == 1);
        // A forced tile runs the engine on shapes that 3xTF32 would otherwise hand to FP32 SIMT.
        const std::string engine = std::string(step) == "gpu/tensor-core-3xtf32" ? "3xTF32 " : "TF32 ";
        for (const GemmShape shape : {GemmShape{127, 253, 61}, many_tiles})
          CHECK(kernel_for(backend, shape).rfind(engine, 0) == 0);
        // Every tile's 144 or 288 tiles of many_tiles are more than one wave: both engines keep their waves in step.
        if (gpu::multiprocessor_count() < 144)
          CHECK(kernel_for(backend, many_tiles) ==
                engine + gpu::tf32_plan_name(gpu::tf32_plan_here(many_tiles)) + ", waves in step");
        matcompare_test::check_against_reference(backend, many_tiles, {0.5f, 2.0f});
        matcompare_test::check_against_reference(backend, many_tiles, {1.0f, 0.0f});
        // A stored transposed: the TF32 row copies it K-major into its scratch, the wave count after it.
        matcompare_test::check_against_reference(backend, {2000, 2200, 70, Layout::tn}, {0.5f, 2.0f});
      }
    }
  }
}

// The few-rows kernels, FP32 throughout, forced on up to kFewRowsMaxM rows in all three fast rows: held here to FP32's
// bound whatever the row's precision, with B read along K (NT, TT) and along N (NN, TN), K whole and split across
// blocks, one chunk of rows or several; then each row's default and the kernel named in the result.

TEST_CASE("the few-rows kernels: every layout, 1 to 64 rows, K whole or split, FP32-accurate in every fast row") {
  const std::vector<GemmShape> shapes{{1, 1, 1},       {1, 4097, 3001}, {2, 33, 65},     {3, 127, 1000},
                                      {5, 1001, 4099}, {8, 64, 7},      {13, 131, 2049}, {16, 257, 1300},
                                      {16, 40, 20000}, {11, 3, 5000},   {17, 45, 33},    {40, 1000, 999},
                                      {64, 97, 2100}};
  for (const char* name : {"gpu/simt-tuned", "gpu/tensor-core-tf32-ws", "gpu/tensor-core-3xtf32"}) {
    SUBCASE(name) {
      const Backend& backend = find_backend(name);
      const int row_default = std::string(name) == "gpu/tensor-core-tf32-ws" ? gpu::kFewRowsTf32Rows
                                                                              : gpu::kFewRowsFp32Rows;
      const FewRowsSet all("64");  // every shape below, in every row
      int split = 0, chunked = 0;
      for (Layout layout : matcompare_test::all_layouts())
        for (GemmShape shape : shapes) {
          shape.layout = layout;
          REQUIRE(gpu::few_rows_takes(shape, 0));
          split += gpu::few_rows_plan_here(shape).slices > 1;
          chunked += gpu::few_rows_plan_here(shape).row_chunks > 1;
          for (const matcompare_test::Scaling scaling :
               {matcompare_test::Scaling{0.5f, 2.0f}, {1.0f, 0.0f}, {-1.5f, 0.0f}})
            matcompare_test::check_gemm_against_reference(
                name, Precision::fp32,
                [&](float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) {
                  backend.gemm(alpha, a, b, beta, c, shape.layout);
                },
                shape, scaling);
        }
      CHECK(split >= 16);
      CHECK(chunked == 12);
      for (Layout layout : matcompare_test::all_layouts()) {
        matcompare_test::check_repeatable(backend, {16, 1001, 4099, layout});
        matcompare_test::check_repeatable(backend, {40, 1001, 4099, layout});
      }
      CHECK(kernel_for(backend, {5, 1001, 4099, Layout::nt}).rfind("few-rows dot 8 rows, ", 0) == 0);
      CHECK(kernel_for(backend, {16, 1001, 4099, Layout::tn}).rfind("few-rows axpy 16 rows, ", 0) == 0);
      CHECK(kernel_for(backend, {64, 1001, 4099, Layout::nt}).rfind("few-rows dot 16 rows x 4, ", 0) == 0);
      CHECK(kernel_for(backend, {65, 1001, 4099, Layout::nt}).find("few-rows") == std::string::npos);
      {
        const FewRowsSet off("0");  // the tiled kernels take the same shapes again
        CHECK(kernel_for(backend, {5, 1001, 4099, Layout::nt}).find("few-rows") == std::string::npos);
        for (const GemmShape shape : {GemmShape{1, 1, 1}, GemmShape{5, 1001, 4099, Layout::nt}})
          matcompare_test::check_against_reference(backend, shape, {0.5f, 2.0f});
      }
      const FewRowsSet row_defaults("");
      const std::vector<std::pair<GemmShape, bool>> defaults{{{row_default, 1000, 9, Layout::nt}, true},
                                                             {{row_default + 1, 1000, 9, Layout::nt}, false},
                                                             {{65, 100, 9, Layout::nt}, false}};
      for (const auto& [shape, few_rows] : defaults) {
        INFO(to_string(shape));
        CHECK((kernel_for(backend, shape).rfind("few-rows dot", 0) == 0) == few_rows);
      }
    }
  }
}

// 3xTF32 runs its three passes where arithmetic decides and hands products bound by their operands' bytes to FP32
// SIMT (three_pass_choice.hpp), saying so in the result; either way FP32-accurate.
TEST_CASE("gpu/tensor-core-3xtf32 takes FP32 SIMT where its split operands' bytes would decide, and says so") {
  const Backend& three = find_backend("gpu/tensor-core-3xtf32");
  const FewRowsSet row_defaults("");
  for (Layout layout : matcompare_test::all_layouts()) {
    INFO(to_string(layout));
    for (const GemmShape shape : {GemmShape{64, 4096, 4096, layout}, GemmShape{4096, 64, 4096, layout},
                                  GemmShape{700, 35, 2048, layout}}) {
      const std::string kernel = kernel_for(three, shape);
      INFO(to_string(shape), ": ", kernel);
      CHECK(kernel.rfind("gpu/simt-tuned ", 0) == 0);
      CHECK(kernel.find(" (three passes estimated ") != std::string::npos);
    }
    matcompare_test::check_against_reference(three, {64, 4096, 4096, layout}, {0.5f, 2.0f});
    matcompare_test::check_against_reference(three, {700, 35, 2048, layout}, {0.5f, 2.0f});  // B copied KxN in NT, TT
    CHECK(kernel_for(three, {2048, 2048, 2048, layout}).rfind("3xTF32 ", 0) == 0);
  }
}

TEST_CASE("a TF32 tile the engine does not have is a clear error") {
  const ForcedTf32Tile unknown("64x64");
  const MatrixF a = MatrixF::random(16, 16, 1), b = MatrixF::random(16, 16, 2);
  MatrixF c(16, 16);
  CHECK_THROWS_WITH_AS(find_backend("gpu/tensor-core-tf32-ws").gemm(1.0f, a, b, 0.0f, c),
                       "MATCOMPARE_TF32_TILE=64x64 is not one of 256x128, 128x256, 128x128, 64x256",
                       std::runtime_error);
}
#endif

// gpu/cublasmp-fp32 starts its worker processes (NCCL, NVSHMEM, cuBLASMp) for every gemm, so it gets a shorter
// list: the odd shapes with alpha/beta away from (1, 0), one GPU (world size 1) and, where there are two, two.
TEST_CASE("gpu/cublasmp-fp32 matches the float64 reference on odd shapes, on one GPU and on two") {
  const Backend& mp = find_backend("gpu/cublasmp-fp32");
  REQUIRE_MESSAGE(mp.availability().available, mp.availability().reason);
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

TEST_CASE("every single-GPU row reads the clock after its runs, so the guard against a lowered clock covers it") {
  // A workspace that wraps another (gpu/cutlass-tf32's) and forgets to pass clock() on leaves its row unguarded.
  if (!read_sm_clock(0).known()) {
    MESSAGE("NVML cannot read this GPU's clock: nothing to check");
    return;
  }
  BenchmarkOptions o;
  o.repetitions = 2;
  o.min_time_s = 0;
  const Problem p = make_problem({64, 48, 32}, 1.0f, 0.0f, matcompare_test::fresh_seed());
  for (const Backend* b : all_backends()) {
    const BackendInfo& info = b->info();
    if (info.device != DeviceKind::gpu || info.multi_gpu || !b->availability().available) continue;
    const BenchmarkResult r = measure(*b, p, o);
    REQUIRE_MESSAGE(r.status == Status::ok, info.name, ": ", r.reason);
    CHECK_MESSAGE(r.clock_mhz > 0, info.name, " recorded no clock");
    CHECK_MESSAGE(r.clock_max_mhz >= r.clock_mhz, info.name);
  }
}

TEST_CASE("a TF32 row brings the vendor of its precision, and its ratio is taken against it") {
  const auto selected = select_backends("gpu/tensor-core-tf32-ws");
  REQUIRE(selected.size() == 1);
  BenchmarkOptions o;
  o.repetitions = 2;
  o.min_time_s = 0.0;
  const auto results = run_benchmarks(selected, {{64, 64, 64}}, o);
  std::vector<std::string> names;
  for (const auto& r : results) names.push_back(r.backend.name);
  // The TF32 vendor libraries (gpu/cublaslt-tf32, gpu/cutlass-tf32, …) come along too, as candidates for the best
  // vendor, and are paired like every row.
  std::vector<std::string> baselines;
  for (const auto& r : results) {
    if (r.backend.name == "gpu/tensor-core-tf32-ws" || r.backend.vendor || r.backend.precision_vendor)
      baselines.push_back(r.backend.name);
    else
      CHECK_MESSAGE((r.backend.vendor_library && r.backend.precision == Precision::tf32), r.backend.name);
  }
  CHECK(baselines == std::vector<std::string>{"gpu/tensor-core-tf32-ws", "gpu/cublas-tf32", "gpu/cublas-fp32"});
  CHECK(std::find(names.begin(), names.end(), "gpu/cublaslt-tf32") != names.end());
  for (const auto& r : results) {
    INFO(r.backend.name, ": ", r.reason);
    REQUIRE(r.status == Status::ok);
    CHECK(r.vs_vendor > 0);
    CHECK(r.vs_precision_vendor > 0);
    if (r.backend.name == "gpu/cublas-fp32") CHECK(r.vs_vendor == 1.0);
    if (r.backend.name == "gpu/cublas-tf32") CHECK(r.vs_precision_vendor == 1.0);
    if (r.backend.name == "gpu/tensor-core-tf32-ws") CHECK(r.vs_vendor_pairs == r.compute.samples);
  }
}

TEST_CASE("cuBLASXt's row runs beside cuBLAS FP32 and carries its end-to-end speedup over it") {
  BenchmarkOptions o;
  o.repetitions = 1;
  o.min_time_s = 0;
  const auto results = run_benchmarks(select_backends("cublasxt"), {{256, 256, 256}}, o);
  REQUIRE(results.size() == 2);
  const BenchmarkResult& vendor = results[0];
  const BenchmarkResult& xt = results[1];
  REQUIRE(vendor.backend.name == "gpu/cublas-fp32");
  REQUIRE_MESSAGE(vendor.status == Status::ok, vendor.reason);
  REQUIRE_MESSAGE(xt.status == Status::ok, xt.reason);
  CHECK(xt.speedup_basis == "end-to-end");
  CHECK(xt.speedup == doctest::Approx(vendor.total.median_ms / xt.compute.median_ms));
  CHECK(xt.efficiency == doctest::Approx(xt.speedup / xt.devices));
}

TEST_CASE("a GPU workspace's poison fills every element of C, padding aside") {
  for (const char* name : {"gpu/cublas-fp32", "gpu/smem-tiled-pitched", "gpu/simt-tuned"}) {
    INFO(name);
    const GemmShape shape{17, 33, 65};
    auto ws = find_backend(name).prepare(shape);
    ws->poison_output(shape);
    MatrixF c(17, 33, 1.0f);
    ws->download(c);
    for (std::size_t i = 0; i < c.size(); ++i) CHECK(std::isnan(c.data()[i]));
  }
}


// gpu/cublaslt-fp32 and gpu/cublaslt-tf32 (issue 29): cublasLtMatmul with the algorithm its search keeps per shape.
// The search lives only in the CUDA build; without it this suite is skipped anyway.
#if MATCOMPARE_HAVE_CUDA
namespace {
struct LtRow {
  const char* name;
  Precision precision;
};
constexpr LtRow kLtRows[] = {{"gpu/cublaslt-fp32", Precision::fp32}, {"gpu/cublaslt-tf32", Precision::tf32}};
}  // namespace

TEST_CASE("gpu/cublaslt-*: vendor libraries of their precision, matching the float64 reference on odd shapes") {
  for (const LtRow& row : kLtRows) {
    SUBCASE(row.name) {
      const Backend& lt = find_backend(row.name);
      REQUIRE_MESSAGE(lt.availability().available, lt.availability().reason);
      CHECK(lt.info().vendor_library);
      CHECK_FALSE(lt.info().vendor);
      CHECK_FALSE(lt.info().precision_vendor);
      CHECK(lt.info().precision == row.precision);
      matcompare_test::check_backend(lt);
      // N and K far from the runtime's padding multiples, K long enough for split-K candidates.
      matcompare_test::check_against_reference(lt, {33, 1021, 4099}, {1.0f, 0.0f});
      matcompare_test::check_against_reference(lt, {33, 1021, 4099}, {-0.5f, 1.5f});
    }
  }
}

// gpu/cutlass-tf32 (issue 29): each CUTLASS kernel the build has, on the odd shapes with any alpha and beta (C
// poisoned with NaN when beta = 0, so a kernel that reads it fails), on 1000x1001x999, and on more tiles than an
// H100 or H200 has SMs, where persistent blocks walk several tiles. A build without CUTLASS says why instead.
TEST_CASE("gpu/cutlass-tf32 is correct with each of its kernels, or says why it was not built") {
  const Backend& row = find_backend("gpu/cutlass-tf32");
  const std::vector<std::string> kernels = gpu::cutlass_kernel_names();
  if (kernels.empty()) {
    CHECK_FALSE(row.availability().available);
    MESSAGE("gpu/cutlass-tf32 is not built here: ", row.availability().reason);
    return;
  }
  REQUIRE_MESSAGE(row.availability().available, row.availability().reason);
  CHECK(row.info().vendor_library);
  CHECK(std::string(gpu::cutlass_description()).rfind("CUTLASS ", 0) == 0);
  for (const std::string& name : kernels) {
    SUBCASE(name.c_str()) {
      const std::unique_ptr<Backend> backend = gpu::make_cutlass_backend(row.info(), name);
      matcompare_test::check_backend(*backend);
      matcompare_test::check_against_reference(*backend, {1000, 1001, 999}, {1.0f, 0.0f});
      for (const matcompare_test::Scaling scaling : {matcompare_test::Scaling{0.5f, 2.0f}, {-1.5f, 0.0f}})
        matcompare_test::check_against_reference(*backend, {2000, 2200, 70}, scaling);
      CHECK(backend->prepare({64, 64, 64})->kernel().rfind(name + ": CUTLASS ", 0) == 0);
    }
  }
}

TEST_CASE("gpu/cublaslt-*: the search runs at upload, keeps its fastest candidate, once per shape, named by kernel()") {
  for (const LtRow& row : kLtRows) {
    SUBCASE(row.name) {
      const Backend& lt = find_backend(row.name);
      const GemmShape shape{1111, 517, 263};  // no other case uses it: the search below is this case's own
      const MatrixF a = MatrixF::random(std::size_t(shape.m), std::size_t(shape.k), 11);
      const MatrixF b = MatrixF::random(std::size_t(shape.k), std::size_t(shape.n), 12);
      REQUIRE_FALSE(gpu::cublaslt_choice(row.precision, shape).has_value());
      auto ws = lt.prepare(shape);
      CHECK(ws->kernel().empty());  // nothing chosen before the inputs are resident
      ws->upload(a, b);
      const auto choice = gpu::cublaslt_choice(row.precision, shape);
      REQUIRE(choice.has_value());  // searched at upload: no compute, so no timed sample, pays for it
      REQUIRE(choice->chosen >= 0);
      REQUIRE(std::size_t(choice->chosen) < choice->candidates.size());
      CHECK(choice->candidates.size() <= 8);
      CHECK(choice->search_ms > 0);
      const gpu::LtCandidate& winner = choice->candidates[std::size_t(choice->chosen)];
      CHECK(gpu::fastest_candidate(choice->candidates) == choice->chosen);
      int ran = 0;
      for (const gpu::LtCandidate& c : choice->candidates) {
        INFO(c.algo, " ", c.error);
        if (!c.error.empty()) continue;
        ++ran;
        CHECK(c.runs >= 2);
        CHECK(c.median_ms > 0);
        CHECK(winner.median_ms <= c.median_ms);
      }
      CHECK(ran >= 1);
      MESSAGE(row.name, " ", to_string(shape), ": ", choice->kernel, " (", winner.median_ms, " ms of ", ran,
              " candidates that ran; search ", choice->search_ms, " ms)");
      CHECK(ws->kernel() == choice->kernel);
      CHECK(ws->kernel().rfind("cuBLASLt " + winner.algo + "; candidate ", 0) == 0);

      // Stable for the shape: computing does not change it, and another workspace of the shape reuses the search.
      ws->poison_output(shape);
      ws->compute(1.0f, 0.0f);
      ws->synchronize();
      CHECK(ws->kernel() == choice->kernel);
      auto again = lt.prepare(shape);
      again->upload(a, b);
      CHECK(again->kernel() == choice->kernel);
      CHECK(gpu::cublaslt_choice(row.precision, shape)->search_ms == choice->search_ms);
    }
  }
}

TEST_CASE("gpu/cublaslt-*: with beta = 0 a NaN-poisoned C is never read") {
  for (const LtRow& row : kLtRows) {
    for (const GemmShape shape : {GemmShape{67, 45, 33}, GemmShape{5, 7, 513}, GemmShape{33, 1021, 4099}}) {
      INFO(row.name, " ", to_string(shape));
      const Backend& lt = find_backend(row.name);
      const MatrixF a = MatrixF::random(std::size_t(shape.m), std::size_t(shape.k), 21);
      const MatrixF b = MatrixF::random(std::size_t(shape.k), std::size_t(shape.n), 22);
      auto ws = lt.prepare(shape);
      ws->upload(a, b);
      for (const float alpha : {1.0f, 0.0f}) {
        ws->poison_output(shape);
        ws->compute(alpha, 0.0f);
        MatrixF c(std::size_t(shape.m), std::size_t(shape.n), 1.0f);
        ws->download(c);
        std::size_t nan = 0;
        for (std::size_t i = 0; i < c.size(); ++i) nan += std::isnan(c.data()[i]) ? 1 : 0;
        CHECK_MESSAGE(nan == 0, "alpha ", alpha, ": ", nan, " NaN of ", c.size());
        if (alpha == 0.0f)
          for (std::size_t i = 0; i < c.size(); ++i) REQUIRE(c.data()[i] == 0.0f);
      }
    }
  }
}

TEST_CASE("gpu/cublaslt-*: a run pairs them with their precision's baseline and records the kernel each ran") {
  BenchmarkOptions o;
  o.repetitions = 2;
  o.min_time_s = 0.0;
  const auto results = run_benchmarks(select_backends("cublaslt-"), {{640, 384, 512}}, o);
  int lt_rows = 0;
  for (const auto& r : results) {
    INFO(r.backend.name, ": ", r.reason);
    REQUIRE(r.status == Status::ok);
    CHECK(r.vs_precision_vendor > 0);
    CHECK_FALSE(r.best_vendor.empty());
    if (r.backend.name.rfind("gpu/cublaslt-", 0) != 0) continue;
    ++lt_rows;
    CHECK(r.kernel.rfind("cuBLASLt algo ", 0) == 0);
    const auto choice = gpu::cublaslt_choice(r.backend.precision, r.shape);
    REQUIRE(choice.has_value());
    CHECK(r.kernel == choice->kernel);
  }
  CHECK(lt_rows == 2);
}
#endif

TEST_CASE("a CUTLASS kernel the build does not have is a clear error") {
  if (gpu::cutlass_kernel_names().empty()) return;  // the case above said why
  const auto backend = gpu::make_cutlass_backend(find_backend("gpu/cutlass-tf32").info(), "64x64");
  CHECK_THROWS_WITH_AS(backend->prepare({16, 16, 16}), doctest::Contains("the CUTLASS kernel 64x64 is not one of"),
                       std::runtime_error);
}
