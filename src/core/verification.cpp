// Verification of a result against the float64 reference, and the ratios of a row against its vendors.
#include <algorithm>
#include <limits>
#include <string>

#include "measurement.hpp"
#include "number_text.hpp"
#include "statistics.hpp"

namespace matcompare {

std::vector<const Backend*> Partners::distinct() const {
  std::vector<const Backend*> list;
  if (vendor) list.push_back(vendor);
  if (precision_vendor && precision_vendor != vendor) list.push_back(precision_vendor);
  if (best_vendor && best_vendor != vendor && best_vendor != precision_vendor) list.push_back(best_vendor);
  return list;
}

void set_ratios(BenchmarkResult& r, const Partners& partners, const std::vector<std::vector<double>>& partner_ms,
                const std::vector<double>& row_ms, bool paired) {
  auto ratio = [&](std::size_t partner) {
    if (partner >= partner_ms.size() || partner_ms[partner].empty()) return PairedRatio{};
    if (paired) return paired_ratio(partner_ms[partner], row_ms);
    PairedRatio unpaired;
    unpaired.median = median(partner_ms[partner]) / row_ms.front();
    return unpaired;
  };
  if (!partners.vendor) return;
  const std::vector<const Backend*> timed = partners.distinct();
  auto ratio_to = [&](const Backend* partner) {
    const auto at = std::find(timed.begin(), timed.end(), partner);
    return ratio(std::size_t(at - timed.begin()));
  };
  const PairedRatio device = ratio(0);
  r.vs_vendor = device.median;
  r.vs_vendor_q1 = device.q1;
  r.vs_vendor_q3 = device.q3;
  r.vs_vendor_pairs = device.pairs;
  if (partners.precision_vendor) r.vs_precision_vendor = ratio_to(partners.precision_vendor).median;
  if (partners.best_vendor) {
    const PairedRatio best = ratio_to(partners.best_vendor);
    if (best.median > 0) {
      r.vs_best_vendor = best.median;
      r.best_vendor = partners.best_vendor->info().name;
      r.vs_best_vendor_pairs = best.pairs;
    }
  }
}

void verify(Workspace& ws, const Problem& p, BenchmarkResult& r) {
  if (p.sampled()) {
    MatrixF rows(p.verified_rows.size(), std::size_t(p.shape.n), std::numeric_limits<float>::quiet_NaN());
    ws.download_rows(p.verified_rows, p.shape, rows);
    r.errors = compare_to_reference(rows, p.reference, r.backend.precision);
    r.verified_rows = std::int64_t(p.verified_rows.size());
    r.verification_sample = describe_sample(r.verified_rows, p.shape.m);
  } else {
    MatrixF out(std::size_t(p.shape.m), std::size_t(p.shape.n), std::numeric_limits<float>::quiet_NaN());
    ws.download(out);
    r.errors = compare_to_reference(out, p.reference, r.backend.precision);
    r.verified_rows = p.shape.m;
  }
  r.verified = true;
}

std::string verification_failure(const BenchmarkResult& r, std::int64_t k) {
  return !r.errors.finite ? std::string("NaN or Inf in the result")
                          : format("differs from the float64 reference: blas ratio %.3g", r.errors.blas_ratio) +
                                format(" > %.3g", blas_ratio_threshold(r.backend.precision, k));
}

}  // namespace matcompare
