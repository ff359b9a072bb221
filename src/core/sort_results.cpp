// --sort: the rows of each shape in the order of one figure (reporters.hpp: sort_results).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "matcompare/reporters.hpp"

namespace matcompare {
namespace {

bool same_shape(const GemmShape& a, const GemmShape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k && a.layout == b.layout;
}

bool has_figure(const BenchmarkResult& r) { return r.status == Status::ok || r.status == Status::estimated; }

// The figure a key sorts by, oriented so that smaller comes first; NAN where the row has none.
double sort_value(const BenchmarkResult& r, const std::string& key) {
  const double none = NAN;
  if (key == "time") return has_figure(r) ? r.compute.median_ms : none;
  if (key == "rate") return has_figure(r) ? -r.gflops : none;
  if (key == "vendor") return has_figure(r) && r.vs_vendor > 0 ? -r.vs_vendor : none;
  if (key == "best") return has_figure(r) && r.vs_best_vendor > 0 ? -r.vs_best_vendor : none;
  if (key == "error") return r.verified ? r.errors.rel_frobenius : none;
  return none;
}

}  // namespace

std::vector<std::string> sort_keys() { return {"registry", "backend", "time", "rate", "vendor", "best", "error"}; }

void sort_results(std::vector<BenchmarkResult>& results, const std::string& key) {
  const std::vector<std::string> keys = sort_keys();
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
    std::string known;
    for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown sort key '" + key + "' (known: " + known + ")");
  }
  if (key == "registry") return;
  // Each shape keeps the place of its first row; its rows gather there, in the key's order.
  std::vector<GemmShape> shapes;
  auto rank = [&](const GemmShape& shape) {
    for (std::size_t i = 0; i < shapes.size(); ++i)
      if (same_shape(shapes[i], shape)) return i;
    shapes.push_back(shape);
    return shapes.size() - 1;
  };
  for (const BenchmarkResult& r : results) rank(r.shape);
  std::stable_sort(results.begin(), results.end(), [&](const BenchmarkResult& a, const BenchmarkResult& b) {
    const std::size_t shape_a = rank(a.shape), shape_b = rank(b.shape);
    if (shape_a != shape_b) return shape_a < shape_b;
    if (key == "backend") return a.backend.name < b.backend.name;
    const double x = sort_value(a, key), y = sort_value(b, key);
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return x < y;
  });
}

}  // namespace matcompare
