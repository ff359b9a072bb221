#include "best_vendor.hpp"

#include <map>
#include <string>
#include <utility>

namespace matcompare {

void set_best_vendors(std::vector<BenchmarkResult>& shape_results) {
  struct Best {
    double speed = 0;  // against the precision's baseline vendor
    std::string name;
  };
  std::map<std::pair<DeviceKind, Precision>, Best> best;
  for (const BenchmarkResult& r : shape_results) {
    if (!competes_for_best_vendor(r)) continue;
    const double speed = r.vs_precision_vendor;
    Best& b = best[{r.backend.device, r.backend.precision}];
    if (speed > b.speed) b = {speed, r.backend.name};
  }
  for (BenchmarkResult& r : shape_results) {
    const auto found = best.find({r.backend.device, r.backend.precision});
    if (found == best.end() || r.backend.multi_gpu) continue;
    // A ratio timed against this very vendor stands; one against another (or none) composes through the baseline.
    if (r.vs_best_vendor > 0 && r.best_vendor == found->second.name) continue;
    r.vs_best_vendor = 0;
    r.best_vendor.clear();
    r.vs_best_vendor_pairs = 0;
    const double speed = r.vs_precision_vendor;
    if (speed <= 0) continue;
    r.vs_best_vendor = speed / found->second.speed;
    r.best_vendor = found->second.name;
  }
}

}  // namespace matcompare
