// The committed tuning table of gpu/simt-tuned against the variants this build has (no GPU needed).
#include <doctest/doctest.h>

#include <string>

#include "../src/gpu/simt_tuning.hpp"

using namespace matcompare;

TEST_CASE("every row of the tuning table names a variant this build has") {
  REQUIRE_FALSE(gpu::simt_table().empty());
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    bool found = false;
    for (const gpu::SimtVariant& v : gpu::simt_variants()) found = found || v.name == row.variant;
    INFO(row.variant);
    CHECK(found);
    CHECK(row.group >= 1);
  }
}

TEST_CASE("the table's classes cover every shape, and an unknown GPU gets the default") {
  for (const gpu::SimtTableRow& row : gpu::simt_table()) {
    const gpu::SimtChoice huge = gpu::simt_choice(row.compute_capability, {1 << 20, 1 << 20, 4});
    CHECK_FALSE(huge.variant.empty());
  }
  const gpu::SimtChoice unknown = gpu::simt_choice(11, {64, 64, 64});
  CHECK_FALSE(unknown.variant.empty());
  bool known = false;
  for (const gpu::SimtVariant& v : gpu::simt_variants()) known = known || v.name == unknown.variant;
  CHECK(known);
}
