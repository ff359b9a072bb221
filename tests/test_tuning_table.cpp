// The committed tuning table of gpu/simt-tuned against the variants this build has, and the wave-aware choices
// among a class's candidates and among the TF32 engine's tiles (no GPU needed: the hardware is described by hand), and
// the table's text as matcompare-tune rewrites it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../src/gpu/hopper/tf32_passes.hpp"
#include "../src/gpu/hopper/three_pass_choice.hpp"
#include "../src/gpu/simt/few_rows.hpp"
#include "../apps/tuning_table_file.hpp"
#include "../src/gpu/simt/simt_tuning.hpp"

using namespace matcompare;

namespace {

constexpr const char* k256x128 = "256x128x16_w64x64_l4x8_s2_colA_b1";
constexpr const char* k128x128 = "128x128x16_w64x32_l8x4_s2_colA_b2";

// An H100-like GPU where a variant holds as many blocks per SM as its name's "_bN" asks for.
gpu::SimtHardware hopper_like() {
  return {90, 132, [](const std::string& name) { return std::stoi(name.substr(name.rfind("_b") + 2)); }};
}

}  // namespace

TEST_CASE("every row of the tuning table names a variant this build has") {
  REQUIRE_FALSE(gpu::simt_table().empty());
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    bool found = false;
    for (const gpu::SimtVariant& v : gpu::simt_variants()) found = found || v.name == row.variant;
    INFO(row.variant);
    CHECK(found);
    // built for every layout (simt_variants_every_layout.cu, _short_c.cu): each class keeps its choice in every layout
    for (const gpu::SimtVariant& v : gpu::simt_variants())
      if (v.name == row.variant)
        for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) CHECK(v.takes(layout));
    CHECK(row.group >= 1);
    CHECK(row.tuned.m >= 1);
    CHECK(row.tuned.n >= 1);
    CHECK(row.tuned.k >= 1);
    if (row.max_mn == gpu::kShortCClass) CHECK(row.tuned.m <= gpu::kShortRows);
    CHECK(row.tuned_ms > 0);
  }
}

TEST_CASE("the table's classes cover every shape, and an unknown GPU gets the default") {
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    gpu::SimtHardware hardware = hopper_like();
    hardware.compute_capability = row.compute_capability;
    const gpu::SimtChoice huge = gpu::simt_choice(gpu::simt_table(), hardware, {1 << 20, 1 << 20, 4});
    CHECK_FALSE(huge.variant.empty());
  }
  gpu::SimtHardware unknown_gpu = hopper_like();
  unknown_gpu.compute_capability = 11;
  const gpu::SimtChoice unknown = gpu::simt_choice(gpu::simt_table(), unknown_gpu, {64, 64, 64});
  bool known = false;
  for (const gpu::SimtVariant& v : gpu::simt_variants()) known = known || v.name == unknown.variant;
  CHECK(known);
}

TEST_CASE("in every layout the choice is a variant built for that layout, the default where no candidate is") {
  for (const gpu::SimtTableRow& row : gpu::simt_table())
    for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) {
      const GemmShape shape{row.tuned.m, row.tuned.n, row.tuned.k, layout};
      const gpu::SimtChoice choice = gpu::simt_choice(gpu::simt_table(), hopper_like(), shape);
      bool takes = false;
      for (const gpu::SimtVariant& v : gpu::simt_variants())
        takes = takes || (v.name == choice.variant && v.takes(layout));
      CHECK_MESSAGE(takes, choice.variant, " for ", to_string(shape));
    }
  // A table of NN-only candidates leaves the other layouts to the default, which takes them all.
  const std::vector<gpu::SimtTableRow> nn_only = {
      {90, 1 << 30, "256x128x16_w64x64_l4x8_s3_colA_b1", 8, {4096, 4096, 4096}, 2.7}};
  CHECK(gpu::simt_choice(nn_only, hopper_like(), {4096, 4096, 4096}).variant == "256x128x16_w64x64_l4x8_s3_colA_b1");
  CHECK(gpu::simt_choice(nn_only, hopper_like(), {4096, 4096, 4096, Layout::tn}).variant == k128x128);
}

TEST_CASE("B stored N×K is copied K×N from kSimtCopyBRows rows of C on, and the kernel runs NN or TN") {
  for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) {
    INFO(to_string(layout));
    const GemmShape below{gpu::kSimtCopyBRows - 1, 1001, 999, layout}, at{gpu::kSimtCopyBRows, 1001, 999, layout};
    CHECK(gpu::simt_kernel_shape(below).layout == layout);
    CHECK(gpu::simt_copy_b_bytes(below) == 0);
    const GemmShape kernel = gpu::simt_kernel_shape(at);
    CHECK(kernel.m == at.m);
    CHECK(kernel.n == at.n);
    CHECK(kernel.k == at.k);
    CHECK(kernel.layout == (b_transposed(layout) ? (a_transposed(layout) ? Layout::tn : Layout::nn) : layout));
    // K and N rounded up to 4 (the NN kernel's float4 copies): 1000 x 1004 floats
    CHECK(gpu::simt_copy_b_bytes(at) == (b_transposed(layout) ? std::size_t(1000) * 1004 * sizeof(float) : 0));
  }
}

TEST_CASE("below kSimtCopyBRows rows, a C of fewer rows than columns with B stored N×K is turned around") {
  const std::int64_t rows = gpu::kSimtCopyBRows;
  for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) {
    INFO(to_string(layout));
    const bool b_nk = b_transposed(layout);
    CHECK(gpu::simt_turns({64, 57344, 8192, layout}) == b_nk);
    CHECK(gpu::simt_turns({rows - 1, rows, 999, layout}) == b_nk);
    CHECK_FALSE(gpu::simt_turns({rows, rows + 1, 999, layout}));  // B is copied K×N there instead
    CHECK_FALSE(gpu::simt_turns({100, 100, 999, layout}));
    CHECK_FALSE(gpu::simt_turns({200, 100, 999, layout}));
    // C^T: N rows, M columns, NN; A (M×K, NT) copied K×M with K and M rounded up to 4; TT's A is C^T's B as stored.
    const GemmShape turned = gpu::simt_turned_shape({61, 1001, 999, layout});
    CHECK(turned.m == 1001);
    CHECK(turned.n == 61);
    CHECK(turned.k == 999);
    CHECK(turned.layout == Layout::nn);
    CHECK(gpu::simt_turned_copy_bytes({61, 1001, 999, layout}) ==
          (layout == Layout::nt ? std::size_t(1000) * 64 * sizeof(float) : 0));
  }
  CHECK(gpu::simt_turned_copy_bytes({100, 100, 999, Layout::nt}) == 0);
}

TEST_CASE("the schedule: whole rounds one block per tile, a part-empty last round cut where it gains") {
  // 4096^2 in 128x128 tiles, two blocks on each of 132 SMs: three whole rounds, then 232 tiles and 32 idle slots.
  // Each idle slot runs the tails of 8 tiles in turn, so the heads are ~8/9 of the 256 k tiles.
  const gpu::SimtSchedule square = gpu::simt_schedule_for({4096, 4096, 4096}, 128, 128, 16, 132 * 2);
  CHECK(square.tiles == 1024);
  CHECK(square.whole_tiles == 792);
  CHECK(square.tails_per_slot == 8);
  CHECK(square.head_k_tiles > 224);
  CHECK(square.head_k_tiles < 236);
  CHECK(square.rounds > 3.85);
  CHECK(square.rounds < 3.96);
  // No whole round before the part-empty one (256 tiles, 264 slots): one block per tile.
  const gpu::SimtSchedule one_round = gpu::simt_schedule_for({2048, 2048, 2048}, 128, 128, 16, 132 * 2);
  CHECK(one_round.whole_tiles == 256);
  CHECK(one_round.head_k_tiles == 0);
  CHECK(one_round.rounds == 1.0);
  // 33 x 24 = 792 tiles fill three rounds exactly.
  const gpu::SimtSchedule full = gpu::simt_schedule_for({4097, 3001, 2049}, 128, 128, 16, 132 * 2);
  CHECK(full.head_k_tiles == 0);
  CHECK(full.rounds == 3.0);
  // Four k tiles a tile: what a cut costs outweighs the round it saves.
  const gpu::SimtSchedule shallow = gpu::simt_schedule_for({4096, 4096, 64}, 128, 128, 16, 132 * 2);
  CHECK(shallow.head_k_tiles == 0);
  CHECK(shallow.rounds == 4.0);
  CHECK(gpu::simt_schedule_for({1, 1, 1}, 256, 128, 8, 132 * 1).rounds == 1.0);
}

TEST_CASE("a cut round: every cut tile has a head and a tail, and the idle slots run the tails") {
  for (std::int64_t tiles : {1, 2, 5, 15, 64, 100, 1024})
    for (std::int64_t k_tiles : {1, 2, 3, 9, 63, 256})
      for (std::int64_t slots : {1, 3, 7, 11, 264}) {
        const gpu::SimtSchedule plan = gpu::simt_schedule(tiles, k_tiles, slots, true);
        INFO("tiles=", tiles, " k_tiles=", k_tiles, " slots=", slots);
        if (tiles % slots == 0 || k_tiles == 1) {
          CHECK(plan.head_k_tiles == 0);
          CHECK(plan.whole_tiles == tiles);
          continue;
        }
        CHECK(plan.whole_tiles % slots == 0);
        CHECK(plan.cut_tiles() == tiles % slots);
        CHECK(plan.head_k_tiles >= 1);
        CHECK(plan.head_k_tiles < k_tiles);
        const std::int64_t idle = slots - plan.cut_tiles();
        CHECK(std::int64_t(plan.tails_per_slot) * idle >= plan.cut_tiles());
        CHECK(std::int64_t(plan.tails_per_slot - 1) * idle < plan.cut_tiles());
        CHECK(gpu::simt_scratch_bytes(plan, 16384) >= std::size_t(plan.cut_tiles()) * 2 * 16384 * sizeof(float));
      }
}

TEST_CASE("a schedule splits K where there are fewer tiles than slots, K is deep and it gains; never a cut") {
  for (std::int64_t tiles : {1, 2, 5, 32, 64, 100, 132, 133, 199, 224, 263, 264, 395})
    for (std::int64_t k_tiles : {1, 8, 15, 16, 63, 64, 256, 4096})
      for (std::int64_t slots : {132, 264, 396}) {
        const gpu::SimtSchedule plan = gpu::simt_schedule(tiles, k_tiles, slots);
        INFO("tiles=", tiles, " k_tiles=", k_tiles, " slots=", slots);
        if (tiles >= slots || k_tiles < 16) CHECK(plan.splits == 1);
        if (2 * tiles <= slots && k_tiles >= 63) CHECK(plan.splits > 1);  // deep: what a split costs is small beside it
        if (plan.splits == 1) continue;
        CHECK(plan.head_k_tiles == 0);
        CHECK(plan.whole_tiles == tiles);
        CHECK(plan.splits <= 16);
        CHECK(std::int64_t(plan.splits) * plan.split_k_tiles >= k_tiles);   // K covered
        CHECK(std::int64_t(plan.splits - 1) * plan.split_k_tiles < k_tiles);  // no split empty
        CHECK(plan.split_k_tiles >= 8);
        CHECK(gpu::simt_scratch_bytes(plan, 8192) == std::size_t(plan.splits) * tiles * 8192 * sizeof(float));
        CHECK(plan.rounds < 0.99);
        // No other number of ways is estimated faster.
        for (std::int64_t ways = 2; ways <= std::min<std::int64_t>(16, k_tiles / 8); ++ways) {
          const std::int64_t run = (k_tiles + ways - 1) / ways, splits = (k_tiles + run - 1) / run;
          const double part_rounds = double(tiles * splits) / double(slots);
          CHECK(plan.rounds <= (std::ceil(part_rounds) * double(run + 2) + 7 * std::max(1.0, part_rounds)) /
                                   double(k_tiles) + 1e-12);
        }
        CHECK(gpu::simt_schedule(tiles, k_tiles, slots, true).splits == 1);  // forced slots cut, never split
      }
  // 64 x 4096 in 64x128 tiles, three blocks on each of 132 SMs: 32 tiles, 256 k tiles split 12 ways in one round.
  const gpu::SimtSchedule decode = gpu::simt_schedule_for({64, 4096, 4096}, 64, 128, 16, 132 * 3);
  CHECK(decode.splits == 12);
  CHECK(decode.split_k_tiles == 22);
  // A turned 64 x 28672 x 4096 (C^T in 128x64 tiles): 224 tiles fill 57% of 396 slots; 5 ways make 1120 parts, three
  // rounds of a fifth of K each.
  const gpu::SimtSchedule wide = gpu::simt_schedule_for({28672, 64, 4096}, 128, 64, 16, 132 * 3);
  CHECK(wide.splits == 5);
  CHECK(wide.split_k_tiles == 52);
  CHECK(wide.rounds > 0.70);
  CHECK(wide.rounds < 0.72);
  // 2048^2 in 128x128 tiles on 264 slots: 256 tiles nearly fill the one round, and no split gains.
  CHECK(gpu::simt_schedule_for({2048, 2048, 2048}, 128, 128, 16, 132 * 2).splits == 1);
}

TEST_CASE("the choice follows the tuned times on the tuned shape and the waves elsewhere") {
  const std::vector<gpu::SimtTableRow> table = {
      {90, 1000, k128x128, 4, {16, 16, 16}, 0.001},
      {90, INT64_MAX, k256x128, 1, {4096, 4096, 4096}, 2.80},
      {90, INT64_MAX, k128x128, 8, {4096, 4096, 4096}, 2.95},
  };
  const gpu::SimtChoice square = gpu::simt_choice(table, hopper_like(), {4096, 4096, 4096});
  CHECK(square.variant == k256x128);
  CHECK(square.group == 1);
  // 256x128 needs a fourth wave for 24 blocks; 128x128 fills three waves exactly.
  const gpu::SimtChoice ragged = gpu::simt_choice(table, hopper_like(), {4097, 3001, 2049});
  CHECK(ragged.variant == k128x128);
  CHECK(ragged.group == 8);
  // The small class has a single candidate, whatever its waves; a short C takes it however wide.
  CHECK(gpu::simt_choice(table, hopper_like(), {10, 10, 10}).group == 4);
  CHECK(gpu::simt_choice(table, hopper_like(), {64, 128256, 4096}).group == 4);
  CHECK(gpu::simt_choice(table, hopper_like(), {65, 128256, 4096}).group != 4);
}

TEST_CASE("a C of at most kShortRows rows takes the short-C class, weighed on its tuned shape's rounds") {
  constexpr const char* k64x256 = "64x256x16_w32x64_l4x8_s3_colA_b2";
  constexpr const char* k64x128 = "64x128x16_w64x32_l8x4_s3_colA_b3";
  const std::vector<gpu::SimtTableRow> table = {
      {90, gpu::kShortCClass, k64x256, 8, {64, 28672, 4096}, 0.40},
      {90, gpu::kShortCClass, k64x128, 16, {64, 28672, 4096}, 0.42},
      {90, 1000, k128x128, 4, {16, 16, 16}, 0.001},
      {90, INT64_MAX, k256x128, 1, {4096, 4096, 4096}, 2.80},
  };
  // On its tuned shape the faster candidate: 112 tiles of 64x256 split K 2 ways in 264 slots, 224 of 64x128 5 ways
  // in 396.
  CHECK(gpu::simt_choice(table, hopper_like(), {64, 28672, 4096, Layout::nt}).variant == k64x256);
  CHECK(gpu::simt_choice(table, hopper_like(), {1, 28672, 4096}).variant == k64x256);
  // Three times as wide, 336 tiles of 64x256 take a round and a cut one (0.40 / 0.535 * 1.53 rounds = 1.14 ms
  // estimated), where 64x128's 672 tiles take 1.79 rounds of a time per round measured split 5 ways (0.42 / 0.71 *
  // 1.79 = 1.06 ms).
  CHECK(gpu::simt_choice(table, hopper_like(), {64, 86016, 4096}).variant == k64x128);
  CHECK(gpu::simt_choice(table, hopper_like(), {65, 28672, 4096}).variant == k256x128);
  // Without short-C rows, a short C takes the smallest class's candidates, as before the class existed.
  const std::vector<gpu::SimtTableRow> squares(table.begin() + 2, table.end());
  CHECK(gpu::simt_choice(squares, hopper_like(), {64, 28672, 4096}).group == 4);
}

TEST_CASE("matcompare-tune replaces this GPU's rows of the classes it tuned and keeps every other row") {
  const std::string old_text =
      "// an old header\n"
      "{80, 2097152, \"a\", 1, {1024, 1024, 1024}, 0.1},\n"
      "{80, 0, \"b\", 1, {64, 4096, 4096}, 0.2},\n"
      "{90, 2097152, \"c\", 1, {1024, 1024, 1024}, 0.3},  // a comment kept with its row\n"
      "{90, 20971520, \"d\", 1, {4096, 4096, 4096}, 0.4},\n"
      "{90, 0, \"e\", 1, {64, 4096, 4096}, 0.5},\n";
  const std::vector<std::string> own = {"{90, 0, \"f\", 4, {64, 28672, 4096}, 0.6},"};
  const std::string short_run = rewritten_tuning_table(old_text, 90, gpu::kShortCClass, true, own);
  const std::string square_run = rewritten_tuning_table(old_text, 90, gpu::kShortCClass, false, own);
  const auto has = [](const std::string& text, const std::string& variant) {
    return text.find("\"" + variant + "\"") != std::string::npos;
  };
  CHECK(short_run.rfind("// Written by matcompare-tune", 0) == 0);
  CHECK(short_run.find("an old header") == std::string::npos);
  for (const char* kept : {"a", "b", "c", "d", "f"}) CHECK_MESSAGE(has(short_run, kept), kept);
  CHECK_FALSE(has(short_run, "e"));  // this GPU's short-C row, replaced
  CHECK(short_run.find("a comment kept with its row") != std::string::npos);
  for (const char* kept : {"a", "b", "e", "f"}) CHECK_MESSAGE(has(square_run, kept), kept);
  CHECK_FALSE(has(square_run, "c"));  // this GPU's other classes, replaced
  CHECK_FALSE(has(square_run, "d"));
  // The new rows come last, after the kept ones, each on its own line.
  CHECK(short_run.substr(short_run.size() - own[0].size() - 1) == own[0] + "\n");
}

TEST_CASE("the TF32 engine's plan: the tile that leaves the last wave least empty, split K while SMs idle") {
  // One plan for one pass or three: a split takes a slice of K with every pass over it.
  auto plan = [](std::int64_t m, std::int64_t n, std::int64_t k, const gpu::Tf32Tile* only = nullptr) {
    const gpu::Tf32Plan p = gpu::tf32_plan({m, n, k}, 132, only);
    return gpu::tf32_tile_name(p.tile) + "/" + std::to_string(p.splits);
  };
  CHECK(plan(4096, 4096, 4096) == "256x128/1");  // 512 tiles of either large shape; the cheaper per area
  CHECK(plan(8192, 8192, 8192) == "256x128/1");
  CHECK(plan(2048, 2048, 2048) == "256x128/1");  // one wave of 128 tiles; 128x128 would need two
  CHECK(plan(4097, 3001, 2049) == "128x256/1");  // 33 x 12 = 396 tiles, 3.00 waves; 256x128 has 408, 3.09
  CHECK(plan(1024, 1024, 1024) == "256x128/4");  // 32 tiles, each shared by 4 blocks: 128 of 132 SMs busy
  CHECK(plan(1, 1, 2048) == "64x256/8");          // one tile of any shape: the 64-row one, split eight ways
  CHECK(plan(65, 1, 2048) == "128x128/4");        // past 64 rows, the smallest of the others
  CHECK(plan(1, 1, 1) == "128x128/1");           // one k tile cannot be split
  CHECK(plan(17, 33, 65) == "128x128/3");        // as many splits as k tiles
  CHECK(plan(4096, 4096, 4096, &gpu::kTf32Tiles[1]) == "128x256/1");
  // A C of at most 64 rows (decode) takes the 64-row tile, split up to eight ways while SMs idle; 65 rows do not.
  CHECK(plan(16, 6144, 4096) == "64x256/5");      // 24 tiles, 5 ways: 120 blocks
  CHECK(plan(64, 4096, 14336) == "64x256/8");
  CHECK(plan(64, 28672, 4096) == "64x256/1");     // 112 tiles: no split
  CHECK(plan(65, 4096, 4096) == "128x128/4");
  CHECK(plan(512, 512, 512) == "128x128/4");      // few tiles, but not a short C
  CHECK(plan(4096, 4096, 4096, &gpu::kTf32Tiles[3]) == "64x256/1");  // forced, whatever the rows
}

// A split tile's blocks form one cluster, which a GPU keeps within one GPC: where the GPCs hold fewer clusters of a
// size than the SMs would, the 64-row tile (and any tile whose slices would be too shallow for planes) splits fewer
// ways, so that every tile's cluster runs at once.
TEST_CASE("the TF32 engine's plan splits K only as many ways as the GPU runs every tile's cluster at once") {
  const auto plan_name = [](const gpu::Tf32Plan& p) {
    return gpu::tf32_tile_name(p.tile) + "/" + std::to_string(p.splits);
  };
  // 16 tiles of 64x256 would split 8 ways on 132 SMs (128 blocks); GPCs that hold 14 clusters of 8 and 18 of 7
  // give 7 ways (112 blocks).
  const gpu::Tf32ClusterSlots fourteen_of_eight = [](const gpu::Tf32Tile&, int size) {
    return size == 8 ? 14 * 8 : 132 / size * size;
  };
  CHECK(plan_name(gpu::tf32_plan({16, 4096, 4096}, 132)) == "64x256/8");
  CHECK(plan_name(gpu::tf32_plan({16, 4096, 4096}, 132, nullptr, fourteen_of_eight)) == "64x256/7");
  // Where no cluster of two runs, the 64-row tile does not split; 128x128 keeps its four ways, in planes.
  const gpu::Tf32ClusterSlots no_clusters = [](const gpu::Tf32Tile&, int) { return 0; };
  CHECK(plan_name(gpu::tf32_plan({16, 4096, 4096}, 132, nullptr, no_clusters)) == "128x128/4");
  CHECK(gpu::tf32_plan({16, 4096, 4096}, 132, nullptr, no_clusters).sums_in_planes);
  CHECK(plan_name(gpu::tf32_plan({16, 4096, 4096}, 132, &gpu::kTf32Tiles[3], no_clusters)) == "64x256/1");
  // The slots are asked from the most splits the SMs allow down, until every cluster runs; not where no split fits.
  static std::vector<int> asked;
  const gpu::Tf32ClusterSlots recorded = [](const gpu::Tf32Tile&, int size) {
    asked.push_back(size);
    return size >= 4 ? 0 : 132 / size * size;
  };
  asked.clear();
  CHECK(gpu::tf32_plan({16, 6144, 4096}, 132, &gpu::kTf32Tiles[3], recorded).splits == 3);  // 24 tiles: 5 ways first
  CHECK(asked == std::vector<int>{5, 4, 3});
  asked.clear();
  CHECK(gpu::tf32_plan({64, 28672, 4096}, 132, &gpu::kTf32Tiles[3], recorded).splits == 1);  // 112 tiles
  CHECK(asked.empty());
}

// Where the slots cut a split, the 64-row tile splits fewer ways in its clusters and the others keep their splits and
// sum in planes (Tf32CutSplit); where every cluster fits, no planes. The slots are an H200's
// (cudaOccupancyMaxActiveClusters, blocks at once in clusters of 2 to 8).
TEST_CASE("the TF32 engine's plan: where clusters do not all fit, fewer ways for the 64-row tile, planes for others") {
  const gpu::Tf32ClusterSlots h200 = [](const gpu::Tf32Tile&, int size) {
    static const int slots[] = {132, 132, 132, 117, 120, 110, 102, 105, 120};
    return slots[size];
  };
  struct Case {
    std::int64_t m, n, k;
    const char* plan;
    bool planes;
  };
  for (const Case& c : {Case{1024, 1024, 1024, "256x128/4", true},  // 32 tiles x 4 = 128 blocks; 120 in clusters of 4
                        Case{1000, 1001, 999, "256x128/4", true}, Case{256, 4096, 4096, "256x128/4", true},
                        Case{128, 4096, 4096, "128x128/4", true},
                        Case{16, 4096, 4096, "64x256/6", false},  // 16 tiles: 8 ways are 128 blocks, 6 are 96 of 102
                        Case{16, 6144, 4096, "64x256/4", false},  // 24 tiles: 5 ways are 120 of 110, 4 are 96
                        Case{512, 512, 512, "128x128/4", false},  // 16 tiles x 4 = 64 blocks: every cluster fits
                        Case{1024, 1024, 128, "256x128/3", false},  // 4 k tiles: too shallow a slice for planes
                        Case{1024, 1024, 992, "256x128/3", false},  // 31 k tiles: one short of 8 a split
                        Case{127, 4000, 1100, "128x128/4", true},
                        Case{2048, 2048, 2048, "256x128/1", false}}) {
    const gpu::Tf32Plan p = gpu::tf32_plan({c.m, c.n, c.k}, 132, nullptr, h200);
    INFO(c.m, "x", c.n, "x", c.k);
    CHECK(gpu::tf32_tile_name(p.tile) + "/" + std::to_string(p.splits) == c.plan);
    CHECK(p.sums_in_planes == c.planes);
    // The planes are the scratch's: one m x n plane a split, rows of n rounded up to 4 floats.
    CHECK(gpu::tf32_partial_bytes({c.m, c.n, c.k}, p) ==
          (c.planes ? std::size_t(p.splits) * c.m * ((c.n + 3) / 4 * 4) * 4 : 0));
  }
  CHECK(gpu::tf32_plan_name(gpu::tf32_plan({1024, 1024, 1024}, 132, nullptr, h200)) ==
        "256x128, K split 4 ways, sums in planes");
  CHECK(gpu::tf32_plan_name(gpu::tf32_plan({16, 4096, 4096}, 132, nullptr, h200)) == "64x256, K split 6 ways");
}

// The TF32 engine, in one pass or three, keeps its waves in step where the unsplit tiles are more than the SMs:
// 8192^3's 2048 tiles, not 2048^3's 128 in one wave, nor a split plan's.
TEST_CASE("the TF32 engine keeps its grid's waves in step where its unsplit tiles are more than the SMs, and says so") {
  for (const GemmShape s : {GemmShape{8192, 8192, 8192}, GemmShape{2048, 2048, 2048}, GemmShape{1024, 1024, 1024}}) {
    const gpu::Tf32Plan p = gpu::tf32_plan(s, 132);
    INFO(to_string(s));
    CHECK(gpu::tf32_waves_in_step(s, p) == (s.m == 8192));
    for (const char* engine : {"TF32", "3xTF32"})
      CHECK(gpu::tf32_engine_name(engine, s, p) ==
            std::string(engine) + " " + gpu::tf32_plan_name(p) + (s.m == 8192 ? ", waves in step" : ""));
  }
  // 133 tiles of 256 x 128 are two waves on 132 SMs, 132 tiles one.
  CHECK(gpu::tf32_waves_in_step({256 * 7, 128 * 19, 4096}, {gpu::kTf32Tiles[0], 1, 132}));
  CHECK(!gpu::tf32_waves_in_step({256 * 12, 128 * 11, 4096}, {gpu::kTf32Tiles[0], 1, 132}));
}

// The peaks gpu_peak gives an H100 SXM and an H200 (132 SMs at 1980 MHz; 3352 and 4800 GB/s).
TEST_CASE("3xTF32's three passes where arithmetic decides, FP32 SIMT where the operands' bytes do") {
  const gpu::RooflineRates h100{3352e9, 66.9e12, 535.2e12}, h200{4800e9, 66.9e12, 535.2e12};
  for (const gpu::RooflineRates& rates : {h100, h200}) {
    INFO("bandwidth ", rates.bytes);
    // Compute-bound: squares, prefill, DeepBench's wide products, K of 128 under a wide C.
    for (const GemmShape s : {GemmShape{4096, 4096, 4096}, GemmShape{2048, 4096, 4096}, GemmShape{1000, 1001, 999},
                              GemmShape{512, 512, 4096}, GemmShape{1500, 3072, 128}, GemmShape{700, 5124, 2048}})
      CHECK_MESSAGE(gpu::three_passes_pay(s, rates), to_string(s));
    // A few dozen rows or columns: the split's and the passes' bytes outlast SIMT's arithmetic.
    for (const GemmShape s : {GemmShape{64, 128256, 4096}, GemmShape{64, 4096, 4096}, GemmShape{4096, 64, 4096},
                              GemmShape{700, 35, 2048}, GemmShape{1500, 128, 1280}, GemmShape{127, 253, 61}})
      CHECK_FALSE_MESSAGE(gpu::three_passes_pay(s, rates), to_string(s));
  }
  // 64 rows: SIMT's arithmetic decides (2.1 GFLOP at 66.9 TFLOP/s, 32 us); the passes move 20 bytes per operand
  // element, 17.0 M of them (102 us at 3352 GB/s), against their tensor work's 12 us.
  const gpu::ThreePassEstimate e = gpu::estimate_three_passes({64, 4096, 4096}, h100);
  CHECK(e.simt_s == doctest::Approx(2.0 * 64 * 4096 * 4096 / 66.9e12));
  CHECK(e.three_passes_s == doctest::Approx(20.0 * (64 + 4096) * 4096 / 3352e9 + 8.0 * 64 * 4096 / 3352e9));
  // Unknown peaks leave the row's own method.
  CHECK(gpu::three_passes_pay({64, 4096, 4096}, {0, 66.9e12, 535.2e12}));
  CHECK(gpu::three_passes_pay({64, 4096, 4096}, {3352e9, 66.9e12, 0}));
}

TEST_CASE("the few-rows plan: slices that cover K, A's share within shared memory, K split while SMs would idle") {
  for (std::int64_t m : {1, 2, 3, 5, 8, 9, 16, 17, 33, 64})
    for (std::int64_t n : {1, 33, 4096, 128256})
      for (std::int64_t k : {1, 7, 128, 129, 4099, 14336, 65536})
        for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt}) {
          const GemmShape s{m, n, k, layout};
          const gpu::FewRowsPlan p = gpu::few_rows_plan(s, 1056);
          INFO(to_string(s), ": ", gpu::few_rows_name(p));
          CHECK((p.rows & (p.rows - 1)) == 0);
          CHECK(p.rows <= gpu::kFewRowsChunk);
          CHECK(std::int64_t(p.rows) * p.row_chunks >= m);      // every row in a chunk
          CHECK(std::int64_t(p.rows) * (p.row_chunks - 1) < m);  // no chunk empty
          CHECK((p.row_chunks == 1 || p.rows == gpu::kFewRowsChunk));
          CHECK(p.b_k_contiguous == b_transposed(layout));
          CHECK(p.slice_k % gpu::kFewRowsKUnit == 0);
          CHECK(std::int64_t(p.rows) * p.slice_k * 4 <= gpu::kFewRowsSmemBytes);
          CHECK(std::int64_t(p.slices) * p.slice_k >= k);       // K covered
          CHECK(std::int64_t(p.slices - 1) * p.slice_k < k);    // no slice empty
          CHECK((p.slices == 1) == (gpu::few_rows_partial_bytes(s, p) == 0));
          // Past the slices A's share needs, a slice keeps kFewRowsSliceKPerRow k per row of C.
          const std::int64_t units = (k + gpu::kFewRowsKUnit - 1) / gpu::kFewRowsKUnit;
          const std::int64_t max_units = std::max<std::int64_t>(1, gpu::kFewRowsSmemBytes / (p.rows * 4 * gpu::kFewRowsKUnit));
          if (p.slices > (units + max_units - 1) / max_units) CHECK(p.slice_k >= gpu::kFewRowsSliceKPerRow * m);
        }
  auto plan = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    return gpu::few_rows_name(gpu::few_rows_plan({m, n, k, Layout::nt}, 1056));
  };
  CHECK(plan(1, 4096, 4096) == "few-rows dot 1 rows, 8 slices of K 512");     // 128 blocks a slice: split for SMs
  CHECK(plan(1, 128256, 4096) == "few-rows dot 1 rows, 1 slice of K 4096");  // 4008 blocks: no split needed
  CHECK(plan(16, 4096, 14336) == "few-rows dot 16 rows, 19 slices of K 768"); // A's 16 rows x 768 fill 48 KiB
  auto axpy_plan = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    return gpu::few_rows_name(gpu::few_rows_plan({m, n, k, Layout::nn}, 1056));
  };
  CHECK(axpy_plan(16, 4096, 4096) == "few-rows axpy 16 rows, 32 slices of K 128");  // 32 blocks a slice: 128 floor
  CHECK(axpy_plan(1, 3072, 1024) == "few-rows axpy 1 rows, 8 slices of K 128");    // 24 blocks a slice: 128 floor
  CHECK(axpy_plan(1, 64, 1216) == "few-rows axpy 1 rows, 5 slices of K 256");      // at most 1216 / 128 slices
  CHECK(axpy_plan(64, 512, 4096) == "few-rows axpy 16 rows x 4, 16 slices of K 256");  // 16 blocks a slice: 4 k a row
  CHECK(axpy_plan(64, 4096, 14336) == "few-rows axpy 16 rows x 4, 19 slices of K 768");  // A's share bounds the slice
  CHECK(plan(64, 4096, 4096) == "few-rows dot 16 rows x 4, 6 slices of K 768");  // 512 blocks a slice
  CHECK(gpu::few_rows_limit(nullptr, 8) == 8);
  CHECK(gpu::few_rows_limit("", 8) == 8);
  CHECK(gpu::few_rows_limit("0", 8) == 0);
  CHECK(gpu::few_rows_limit("64", 8) == 64);
  for (const char* bad : {"65", "-1", "abc", " 8", "1e1", "100"})
    CHECK_THROWS_WITH_AS(gpu::few_rows_limit(bad, 8),
                         (std::string("MATCOMPARE_FEW_ROWS=") + bad + " is not a number of rows from 0 to 64").c_str(),
                         std::invalid_argument);
}
