// The inputs of a measurement: fresh random operands per shape, the float64 reference (of all of C, or of a sample
// of its rows), and whether the host has the memory for them.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "argument_checks.hpp"
#include "host_memory.hpp"
#include "matcompare/benchmark.hpp"
#include "number_text.hpp"

namespace matcompare {
namespace {

// Mixes the user's seed with the shape and the operand so every matrix of a run is fresh.
std::uint64_t derive_seed(std::uint64_t seed, const GemmShape& s, std::uint64_t operand) {
  std::uint64_t x = seed ^ (std::uint64_t(s.m) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(s.n) << 21) ^
                    (std::uint64_t(s.k) << 42) ^ (operand * 0xBF58476D1CE4E5B9ull);
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 29);
}

}  // namespace

std::vector<std::int64_t> sampled_rows(std::int64_t m, std::int64_t wanted) {
  if (m < 1) throw std::invalid_argument("sampled_rows: m must be >= 1, got " + std::to_string(m));
  if (wanted < 1) throw std::invalid_argument("sampled_rows: count must be >= 1, got " + std::to_string(wanted));
  const std::int64_t count = std::min(m, wanted);
  std::vector<std::int64_t> rows;
  for (std::int64_t s = 0; s < count; ++s) rows.push_back(count == 1 ? 0 : s * (m - 1) / (count - 1));
  return rows;
}

std::string describe_sample(std::int64_t rows, std::int64_t m) {
  if (m < 1) throw std::invalid_argument("describe_sample: m must be >= 1, got " + std::to_string(m));
  if (rows < 1 || rows > m)
    throw std::invalid_argument("describe_sample: rows must be from 1 to m = " + std::to_string(m) + ", got " +
                                std::to_string(rows));
  return std::to_string(rows) + " rows of " + std::to_string(m) + ", evenly spread from row 0 to row " +
         std::to_string(m - 1) + " (row floor(s*(M-1)/" + std::to_string(std::max<std::int64_t>(1, rows - 1)) +
         ") for s = 0.." + std::to_string(rows - 1) + ")";
}

bool verified_on_sample(const GemmShape& shape, const BenchmarkOptions& options) {
  check_shape(shape, "verified_on_sample");
  if (!std::isfinite(options.full_reference_max_flops) || options.full_reference_max_flops < 0)
    throw std::invalid_argument("verified_on_sample: BenchmarkOptions::full_reference_max_flops must be finite and "
                                ">= 0, got " + format("%g", options.full_reference_max_flops));
  return shape.flops() > options.full_reference_max_flops;
}

std::int64_t sampled_row_count(const GemmShape& shape, const BenchmarkOptions& options) {
  verified_on_sample(shape, options);  // the shape's and the option's checks
  if (shape.m <= kSampledRows) return shape.m;
  // Rows floor(s*(M-1)/(S-1)) are at most ceil((M-1)/(S-1)) apart.
  const std::int64_t for_spacing = (shape.m - 1 + kSampledRowSpacing - 1) / kSampledRowSpacing + 1;
  const double affordable = options.full_reference_max_flops / (4.0 * double(shape.n) * double(shape.k));
  const std::int64_t rows = std::min<std::int64_t>(for_spacing, std::int64_t(std::min(affordable, 1e15)));
  return std::min(shape.m, std::max(kSampledRows, rows));
}

double host_bytes_needed(const GemmShape& shape, float beta, const BenchmarkOptions& options) {
  check_shape(shape, "host_bytes_needed");
  const double m = double(shape.m), n = double(shape.n), k = double(shape.k);
  if (!verified_on_sample(shape, options))
    // float operands, their float64 copies for the reference, the reference and its error scale,
    // one workspace's copies and the result being checked.
    return 4 * (m * k + k * n + m * n) + 8 * (m * k + k * n) + 16 * m * n + 4 * (m * k + k * n + m * n) + 8 * m * n;
  // A and B, C when beta reads it, one C-sized buffer at a time (a host-resident workspace's C or the target of
  // an end-to-end download), the sampled rows' reference and a float64 panel of B.
  const double rows = double(sampled_row_count(shape, options));
  return 4 * (m * k + k * n) + (beta != 0.0f ? 4 * m * n : 0.0) + 4 * m * n + rows * (16 * n + 16 * k) +
         16 * k * 256;
}

void check_host_memory(const GemmShape& shape, float beta, const BenchmarkOptions& options) {
  check_shape(shape, "check_host_memory");
  const double need = host_bytes_needed(shape, beta, options);
  const double have = host_memory_bytes();
  if (need > have)
    throw std::runtime_error("a " + to_string(shape) + " problem needs about " + format("%.1f", need / (1ull << 30)) +
                             " GiB of host memory but this machine has " + format("%.1f", have / (1ull << 30)) +
                             " GiB (" + kHostMemoryOverrideVariable + " overrides)");
}

std::string to_string(InputValues v) {
  switch (v) {
    case InputValues::uniform: return "uniform";
    case InputValues::integers_1_100: return "integers-1-100";
    case InputValues::reals_1_100: return "reals-1-100";
  }
  unknown(v, "to_string");
}

std::string describe(InputValues v) {
  switch (v) {
    case InputValues::uniform: return "reals uniform in [-1, 1]";
    case InputValues::integers_1_100: return "integers uniform in 1..100 (source document 003)";
    case InputValues::reals_1_100: return "reals uniform in [1, 100] (source document 003)";
  }
  unknown(v, "describe");
}

InputValues parse_input_values(const std::string& name) {
  for (InputValues v : {InputValues::uniform, InputValues::integers_1_100, InputValues::reals_1_100})
    if (name == to_string(v)) return v;
  throw std::invalid_argument("unknown input values '" + name + "' (use uniform, integers-1-100 or reals-1-100)");
}

void check_problem(const Problem& p) {
  check_shape(p.shape, "check_problem");
  auto fail = [](const std::string& what) { throw std::invalid_argument("check_problem: Problem::" + what); };
  if (!std::isfinite(p.alpha)) fail("alpha must be finite, got " + format("%g", p.alpha));
  if (!std::isfinite(p.beta)) fail("beta must be finite, got " + format("%g", p.beta));
  auto dims = [&](const auto& x, std::int64_t rows, std::int64_t cols, const char* name) {
    if (std::int64_t(x.rows()) != rows || std::int64_t(x.cols()) != cols)
      fail(std::string(name) + " is " + std::to_string(x.rows()) + "x" + std::to_string(x.cols()) + " but must be " +
           std::to_string(rows) + "x" + std::to_string(cols) + " for the shape " + to_string(p.shape));
  };
  const GemmShape& s = p.shape;
  dims(p.a, stored_a_rows(s), stored_a_cols(s), "a");
  dims(p.b, stored_b_rows(s), stored_b_cols(s), "b");
  if (p.beta != 0.0f || !p.c.empty()) dims(p.c, s.m, s.n, "c");  // never read with beta = 0: it may be empty
  for (std::size_t i = 0; i < p.verified_rows.size(); ++i)
    if (p.verified_rows[i] < 0 || p.verified_rows[i] >= s.m)
      fail("verified_rows[" + std::to_string(i) + "] = " + std::to_string(p.verified_rows[i]) + " is outside the " +
           std::to_string(s.m) + " rows of C");
  const std::int64_t reference_rows = p.sampled() ? std::int64_t(p.verified_rows.size()) : s.m;
  dims(p.reference.value, reference_rows, s.n, "reference.value");
  dims(p.reference.scale, reference_rows, s.n, "reference.scale");
  if (p.reference.k != s.k)
    fail("reference.k is " + std::to_string(p.reference.k) + " but the shape's K is " + std::to_string(s.k));
}

Problem make_problem(const GemmShape& shape, float alpha, float beta, std::uint64_t seed, InputValues values,
                     const BenchmarkOptions& options) {
  if (!std::isfinite(alpha))
    throw std::invalid_argument("make_problem: alpha must be finite, got " + format("%g", alpha));
  if (!std::isfinite(beta)) throw std::invalid_argument("make_problem: beta must be finite, got " + format("%g", beta));
  check_known(values, "make_problem: values");
  check_host_memory(shape, beta, options);
  Problem p;
  p.shape = shape;
  p.alpha = alpha;
  p.beta = beta;
  auto draw = [&](std::int64_t rows, std::int64_t cols, std::uint64_t operand) {
    const std::uint64_t operand_seed = derive_seed(seed, shape, operand);
    switch (values) {
      case InputValues::integers_1_100: return MatrixF::random_integers(rows, cols, operand_seed, 1, 100);
      case InputValues::reals_1_100: return MatrixF::random_reals(rows, cols, operand_seed, 1.0, 100.0);
      case InputValues::uniform: break;
    }
    return MatrixF::random(rows, cols, operand_seed);
  };
  // Stored as the layout says: a transposed operand is drawn in its stored shape, not transposed from another.
  p.a = draw(stored_a_rows(shape), stored_a_cols(shape), 1);
  p.b = draw(stored_b_rows(shape), stored_b_cols(shape), 2);
  if (!verified_on_sample(shape, options)) {
    p.c = draw(shape.m, shape.n, 3);
    p.reference = compute_reference(alpha, p.a, p.b, beta, p.c, shape.layout);
    return p;
  }
  if (beta != 0.0f) p.c = draw(shape.m, shape.n, 3);  // never read with beta = 0: no memory for it
  p.verified_rows = sampled_rows(shape.m, sampled_row_count(shape, options));
  p.reference = compute_reference_rows(alpha, p.a, p.b, beta, p.c, p.verified_rows, shape.layout);
  return p;
}

}  // namespace matcompare
