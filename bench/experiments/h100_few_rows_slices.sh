#!/usr/bin/env bash
# Issue 30, second GPU run of 2026-11-27's fifth session: the few-rows kernels split K down to 16 k a row of C (128 at
# one row) where the columns give too few blocks, for DeepBench's narrow M = 1..4 products. Build, the GPU backends'
# and the tuning table's tests, memcheck on the new splits, racecheck on gpu/simt-tuned's split-K kernels, both
# DeepBench inference suites on the fast rows and vendors, then Nsight Compute on the shapes still below goal.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_few_rows_slices.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
for t in test_gpu_backends test_tuning_table; do
  build/tests/$t --test-case-exclude="*cublasmp*" > "$out/logs/$t.log" 2>&1
  log "$t exit $?: $(grep -E '^\[doctest\] assertions' "$out/logs/$t.log")"
done
sanitize memcheck 1 64 1216 simt-tuned 60
sanitize memcheck 3 3072 1024 simt-tuned,tensor-core-3xtf32 60
sanitize racecheck 40 100 600 simt-tuned 150
suite deepbench-inference-device 50
suite deepbench-inference-server 130
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
profile() {  # Nsight Compute on the first two launches of KERNEL_REGEX by ROW at M N K LAYOUT
  local regex=$1 row=$2 m=$3 n=$4 k=$5 layout=$6
  timeout 60 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis -k regex:"$regex" -c 2 $cli --m "$m" --n "$n" --k "$k" --layout "$layout" \
    --filter "$row" --repetitions 1 --min-time 0 --no-flush --format csv \
    > "$out/logs/ncu_${row}_${m}x${n}x${k}_${layout}.txt" 2>&1
  log "ncu $row ${m}x${n}x${k} $layout exit $?"
}
profile few_rows simt-tuned 1 3072 1024 NN
profile simt simt-tuned 64 28672 4096 NT
profile simt simt-tuned 700 35 2048 NN
profile simt simt-tuned 6000 512 2048 NN
profile tf32 tensor-core-tf32-ws 1500 3072 1024 NN
