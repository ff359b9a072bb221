#pragma once
// A CUDA device's SM clock, now and at most, read through NVML. NVML comes with the driver, not the toolkit, so it
// is loaded at run time: the library still loads on a machine without one, and the clock is then unknown.
#include "matcompare/backend.hpp"

namespace matcompare {

// {0, 0} when NVML or the device cannot be read (no driver, no permission, a device NVML does not list).
ClockReading read_sm_clock(int cuda_device);

}  // namespace matcompare
