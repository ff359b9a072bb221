#pragma once
// Samples taken at a lowered clock: which rounds to drop, and the clock the kept ones ran at.
//
// A GPU held at its power limit lowers its clock within a few hundred milliseconds of sustained tensor-core work
// (an H100 at 700 W: TF32 GEMMs back to back from 1980 to ~1450 MHz). A kernel timed between runs of a lighter one
// (a TF32 row paired with the FP32 vendor) keeps the high clock; the same kernel timed alone gets the low one. So
// that a figure does not depend on what it was paired with, rounds read at a lowered clock are dropped and the GPU
// is given time to recover, as nvbench does (its threshold is 75% of the clock; this one is tighter: a TF32 GEMM timed
// back to back on an H100 kept its samples at 1800–1950 MHz under a 90% rule and read 5–7% under the same call timed
// at the full 1980 MHz: bench/NOTES.md, "The clock under load").
// On a GPU whose clock under load sits 5% under its rated maximum (a hot card, clocks set lower) the guard gives up
// (kMaxThrottledInARow) and the result's reason says so.
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare {

constexpr double kThrottledClockFraction = 0.95;  // a clock under this share of the maximum is a lowered one
constexpr double kThrottleRecoveryMs = 50;       // the pause after a dropped round, for the clock to come back
// A device whose clock stays low (clocks locked below the maximum, a hot card) would drop every round: after this
// many in a row the guard gives up for the row, keeps what follows and says so in the result's reason.
constexpr int kMaxThrottledInARow = 20;

class ThrottleGuard {
 public:
  // After one round (the row's run and its partners'), with the clock read after each run: true when the round is
  // to be dropped, after pausing kThrottleRecoveryMs. Otherwise the row's reading is kept for the result's clock.
  bool drop(const ClockReading& row, const std::vector<ClockReading>& partners);
  int dropped() const { return dropped_; }
  bool gave_up() const { return gave_up_; }
  // The median of the kept rounds' clocks (0 when none was known) and the device's maximum.
  double median_mhz() const;
  double max_mhz() const { return max_mhz_; }

 private:
  std::vector<double> kept_mhz_;
  double max_mhz_ = 0;
  int dropped_ = 0, in_a_row_ = 0;
  bool gave_up_ = false;
};

}  // namespace matcompare
