#pragma once
// Whether gpu/tensor-core-3xtf32 runs its three TF32 passes on a shape or hands it to FP32 SIMT (gpu/simt-tuned), as
// plain C++: a roofline estimate of each from the GPU's peaks. The passes read both operands' parts, split into
// scratch first, so they move five times the operands' bytes where SIMT moves them once; they win where arithmetic
// decides and lose where the operands' bytes do: a product of a few dozen rows, or of a few dozen columns
// (bench/NOTES.md, "3xTF32 where B's bytes decide").
#include <algorithm>

#include "matcompare/backend.hpp"

namespace matcompare::gpu {

// The ceilings the estimates run at, per second: memory bytes, FP32 flops on the SIMT lanes, dense TF32 flops.
struct RooflineRates {
  double bytes, simt_flops, tensor_flops;
};

struct ThreePassEstimate {
  double three_passes_s, simt_s;
};

// The split reads each operand element and writes its two parts (12 bytes), then the passes read the parts (8 bytes)
// while the tensor cores do three products; C is read and written once either way (8 bytes an element). SIMT reads
// the operands once and does one product at the FP32 rate. Each side takes the longer of its bytes and its flops.
inline ThreePassEstimate estimate_three_passes(const GemmShape& s, const RooflineRates& r) {
  const double operands = double(s.m) * double(s.k) + double(s.n) * double(s.k), c = double(s.m) * double(s.n);
  const double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  const double split_s = 12 * operands / r.bytes;
  const double passes_s = std::max((8 * operands + 8 * c) / r.bytes, 3 * flops / r.tensor_flops);
  const double simt_s = std::max((4 * operands + 8 * c) / r.bytes, flops / r.simt_flops);
  return {split_s + passes_s, simt_s};
}

// Rates it cannot use (a GPU whose peaks are unknown: 0) leave the three passes, the row's own method, in place.
inline bool three_passes_pay(const GemmShape& s, const RooflineRates& r) {
  if (!(r.bytes > 0 && r.simt_flops > 0 && r.tensor_flops > 0)) return true;
  const ThreePassEstimate e = estimate_three_passes(s, r);
  return e.three_passes_s <= e.simt_s;
}

}  // namespace matcompare::gpu
