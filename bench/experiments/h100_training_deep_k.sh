#!/usr/bin/env bash
# Issue 30, written at the end of 2026-11-27's sixth session for the next one (not yet run): DeepBench's training set,
# which stopped twice at --budget 300 and 345 (bench/NOTES.md, "The suites at 9f5f3f6"), with the budget its fixed
# costs need and its finished problems kept in the .partial file if it is stopped anyway; then Nsight Compute on
# gpu/tensor-core-3xtf32 at the deep-K shape where it read 48.6 TFLOP/s against 8192^3 NT (127.5): L2 hit rate and
# DRAM throughput tell the tiles drifting apart in k from address translation.
# Two calls, each within one 600-s call with the build (about 100 s cold): the suite (400 s of budget, stopped at 460 s),
# then the profiles (a warm machine rebuilds nothing).
# Usage (device tool, .whl/ and .vendors/ carried): h100_training_deep_k.sh OUT COMMIT training|deep-k
set -uo pipefail
out=$1 commit=$2 part=$3
source bench/device_out.sh
build_only "$commit"
if [ "$part" = training ]; then
  SUITE_MARGIN=60 suite deepbench-training 400
  ls "$out/results" >> "$out/logs/steps.txt"  # a .partial file when it was stopped
  python3 bench/suite_summary.py "$out/results"/*.json* > "$out/logs/summary.txt" 2>&1
  exit 0
fi
profile() {  # Nsight Compute on the first launches of KERNEL_REGEX by ROW at M N K LAYOUT
  local regex=$1 row=$2 m=$3 n=$4 k=$5 layout=$6
  timeout 90 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats -k regex:"$regex" -c 6 \
    $cli --m "$m" --n "$n" --k "$k" --layout "$layout" --filter "$row" --repetitions 1 --min-time 0 --no-flush \
    --format csv > "$out/logs/ncu_${row}_${m}x${n}x${k}_${layout}.txt" 2>&1
  log "ncu $row ${m}x${n}x${k} $layout exit $?"
}
profile tensor_core_tf32_ws tensor-core-3xtf32 8192 8192 8192 NT
profile tensor_core_tf32_ws tensor-core-3xtf32 8192 8192 28672 NT
