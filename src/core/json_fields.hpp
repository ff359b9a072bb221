#pragma once
// The JSON contract of a run (docs/json.md): the context and one object per
// result. The json reporter writes them; the csv reporter takes its figures from them, so both print the same values.
#include <nlohmann/json.hpp>

#include "matcompare/benchmark.hpp"
#include "matcompare/context.hpp"

namespace matcompare {

nlohmann::ordered_json context_json(const RunContext& c);
nlohmann::ordered_json result_json(const BenchmarkResult& r);

}  // namespace matcompare
