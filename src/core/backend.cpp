#include "matcompare/backend.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>
#include <string>

#include "argument_checks.hpp"
#include "workspace_checks.hpp"

namespace matcompare {

std::string to_string(DeviceKind d) {
  if (d != DeviceKind::cpu && d != DeviceKind::gpu)
    throw std::invalid_argument("to_string: DeviceKind " + std::to_string(static_cast<int>(d)) +
                                " is neither cpu nor gpu");
  return d == DeviceKind::cpu ? "cpu" : "gpu";
}

std::string to_string(const GemmShape& s) {
  const std::string mnk = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  return s.layout == Layout::nn ? mnk : mnk + " " + to_string(s.layout);
}

std::int64_t stored_a_rows(const GemmShape& s) { return a_transposed(s.layout) ? s.k : s.m; }
std::int64_t stored_a_cols(const GemmShape& s) { return a_transposed(s.layout) ? s.m : s.k; }
std::int64_t stored_b_rows(const GemmShape& s) { return b_transposed(s.layout) ? s.n : s.k; }
std::int64_t stored_b_cols(const GemmShape& s) { return b_transposed(s.layout) ? s.k : s.n; }

GemmShape check_gemm_shapes(const MatrixF& a, const MatrixF& b, const MatrixF& c, Layout layout) {
  auto dims = [](const MatrixF& x) { return std::to_string(x.rows()) + "x" + std::to_string(x.cols()); };
  if (a.empty() || b.empty() || c.empty())
    throw std::invalid_argument("gemm needs M, N, K >= 1 (A is " + dims(a) + ", B is " + dims(b) + ", C is " +
                                dims(c) + ")");
  const bool ta = a_transposed(layout), tb = b_transposed(layout);
  const std::size_t m = ta ? a.cols() : a.rows(), k = ta ? a.rows() : a.cols();
  const std::size_t b_k = tb ? b.cols() : b.rows(), n = tb ? b.rows() : b.cols();
  if (k != b_k || c.rows() != m || c.cols() != n)
    throw std::invalid_argument("gemm shapes do not match for layout " + to_string(layout) + ": A is " + dims(a) +
                                ", B is " + dims(b) + ", C is " + dims(c) + " (need " + (ta ? "KxM" : "MxK") + ", " +
                                (tb ? "NxK" : "KxN") + ", MxN)");
  return {std::int64_t(m), std::int64_t(n), std::int64_t(k), layout};
}

namespace {

bool same(const GemmShape& x, const GemmShape& y) { return x.m == y.m && x.n == y.n && x.k == y.k; }

// The rows and the target, against the rows and columns of C that `shape` says the workspace holds.
void check_rows_and_target(const std::vector<std::int64_t>& rows, const GemmShape& shape, const MatrixF& out) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i] < 0 || rows[i] >= shape.m)
      throw std::out_of_range("download_rows: rows[" + std::to_string(i) + "] = " + std::to_string(rows[i]) +
                              " is outside the workspace's " + std::to_string(shape.m) + " rows (0 to " +
                              std::to_string(shape.m - 1) + ")");
  if (out.rows() != rows.size() || std::int64_t(out.cols()) != shape.n)
    throw std::invalid_argument("download_rows: out is " + std::to_string(out.rows()) + "x" +
                                std::to_string(out.cols()) + " but must be rows.size() x N = " +
                                std::to_string(rows.size()) + "x" + std::to_string(shape.n));
}

}  // namespace

void check_download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, const GemmShape& held,
                         const MatrixF& out) {
  if (!same(shape, held))
    throw std::invalid_argument("download_rows: shape " + to_string(shape) + " is not the workspace's shape " +
                                to_string(held));
  check_rows_and_target(rows, held, out);
}

void Workspace::poison_output(const GemmShape& shape) {
  check_shape(shape, "poison_output");
  set_output(MatrixF(std::size_t(shape.m), std::size_t(shape.n), std::numeric_limits<float>::quiet_NaN()));
}

// Knows the workspace's shape only through download(), which refuses a target of any other M x N.
void Workspace::download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) {
  check_shape(shape, "download_rows");
  check_rows_and_target(rows, shape, out);
  MatrixF all(std::size_t(shape.m), std::size_t(shape.n));
  try {
    download(all);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("download_rows: shape " + to_string(shape) + " is not the workspace's shape (" +
                                e.what() + ")");
  }
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::copy_n(&all(std::size_t(rows[i]), 0), std::size_t(shape.n), &out(i, 0));
}

Availability Backend::availability(Layout layout) const {
  Availability here = availability();
  if (here.available && layout != Layout::nn && !info().all_layouts) {
    // A source document's step names the document it follows ("003 Gold", "001 v3"): its kernel is the document's.
    const bool document_step = !info().seed.empty() && std::isdigit(static_cast<unsigned char>(info().seed[0]));
    return {false, std::string(document_step ? "the source document's kernel" : "this row's kernel") +
                       " takes A and B untransposed (layout NN only)"};
  }
  return here;
}

void check_layout(const BackendInfo& info, const GemmShape& shape) {
  if (shape.layout != Layout::nn && !info.all_layouts)
    throw std::invalid_argument(info.name + " computes layout NN only, not " + to_string(shape.layout));
}

void Backend::gemm(float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c, Layout layout) const {
  const GemmShape shape = check_gemm_shapes(a, b, c, layout);
  const Availability avail = availability(layout);
  if (!avail.available) throw std::runtime_error(info().name + " is unavailable: " + avail.reason);
  auto workspace = prepare(shape);
  workspace->upload(a, b);
  // With β = 0 the caller's C is not read, so the workspace's C is poisoned instead: a kernel that reads it anyway,
  // or leaves an element unwritten, returns NaN there, as it does in the harness.
  if (beta != 0.0f)
    workspace->set_output(c);
  else
    workspace->poison_output(shape);
  workspace->compute(alpha, beta);
  workspace->download(c);
}

}  // namespace matcompare
