#include "matcompare/backend.hpp"

#include <stdexcept>
#include <string>

namespace matcompare {

std::string to_string(DeviceKind d) { return d == DeviceKind::cpu ? "cpu" : "gpu"; }

std::string to_string(const GemmShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

GemmShape check_gemm_shapes(const MatrixF& a, const MatrixF& b, const MatrixF& c) {
  auto dims = [](const MatrixF& x) { return std::to_string(x.rows()) + "x" + std::to_string(x.cols()); };
  if (a.empty() || b.empty() || c.empty())
    throw std::invalid_argument("gemm needs M, N, K >= 1 (A is " + dims(a) + ", B is " + dims(b) + ", C is " +
                                dims(c) + ")");
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
    throw std::invalid_argument("gemm shapes do not match: A is " + dims(a) + ", B is " + dims(b) + ", C is " +
                                dims(c) + " (need MxK, KxN, MxN)");
  return {std::int64_t(a.rows()), std::int64_t(b.cols()), std::int64_t(a.cols())};
}

void Backend::gemm(float alpha, const MatrixF& a, const MatrixF& b, float beta, MatrixF& c) const {
  const GemmShape shape = check_gemm_shapes(a, b, c);
  const Availability avail = availability();
  if (!avail.available) throw std::runtime_error(info().name + " is unavailable: " + avail.reason);
  auto workspace = prepare(shape);
  workspace->upload(a, b);
  if (beta != 0.0f) workspace->set_output(c);
  workspace->compute(alpha, beta);
  workspace->download(c);
}

}  // namespace matcompare
