#!/usr/bin/env bash
# Issue 31, 2026-11-28 (third session): where 3xTF32's time goes. Nsight Compute on one launch of the engine at 4096³,
# three passes (gpu/tensor-core-3xtf32) and one (gpu/tensor-core-tf32-ws) for comparison: speed of light, warp
# states (what the consumers wait on), the scheduler's issue rate, and the source counters' stall reasons per line.
# Usage (device tool, .whl/ and .vendors/ carried): h100_3xtf32_profile.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
# The 256x128-tile kernels by their mangled names (<256, 1, B row-major, passes>): the first launches of the engine are
# smaller problems (a first call at 58abadd profiled a 128x128-tile launch of 83 us).
for row in tensor-core-3xtf32:3 tensor-core-tf32-ws:1; do
  passes=${row#*:} row=${row%:*}
  timeout 150 ncu --kernel-name-base mangled -k "regex:tensor_core_tf32_wsILi256ELi1ELb0ELi${passes}E" \
    --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section SourceCounters --import-source yes -o "$out/results/$row" \
    $cli --m 4096 --n 4096 --k 4096 --filter "$row" --repetitions 2 --min-time 0 --no-flush \
    > "$out/logs/ncu_$row.log" 2>&1
  log "ncu $row exit $?"
  ncu --import "$out/results/$row.ncu-rep" --page details > "$out/logs/details_$row.txt" 2>&1
  ncu --import "$out/results/$row.ncu-rep" --page source --csv --print-source sass > "$out/logs/sass_$row.csv" 2>&1
  log "report $row exit $?"
done
