#!/usr/bin/env bash
# Issue 30's few-rows kernels, second GPU run (2026-11-27): build and CTest (the failures' output kept), memcheck and
# racecheck with row chunks and split K, where the few-rows path stops paying against each row's tiled kernels
# (bench/shapes/few_rows_crossover.txt with MATCOMPARE_FEW_ROWS=64, then =0, one run each), and Nsight Compute on the
# few-rows kernel at 1 and 16 rows.
# Usage (device tool, .whl/ carried): bench/experiments/h100_few_rows_crossover.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
rows=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32
export MATCOMPARE_FEW_ROWS=64
for tool in memcheck racecheck; do
  for shape in "5 257 1100" "40 129 600" "1 33 65"; do sanitize $tool $shape $rows 60; done
done
fast=$rows,cublas-fp32,cublas-tf32,cublaslt,cutlass
for limit in 64 0; do
  MATCOMPARE_FEW_ROWS=$limit timeout 110 $cli --shapes bench/shapes/few_rows_crossover.txt --budget 70 --filter $fast \
    --format json --out "$out/results/h100_crossover_few_rows_$limit.json" 2>> "$out/logs/runs.log"
  log "crossover MATCOMPARE_FEW_ROWS=$limit exit $?"
done
for m in 1 16; do
  timeout 60 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis -k regex:few_rows -c 2 $cli --m $m --n 4096 --k 4096 --layout NT \
    --filter gpu/simt-tuned --repetitions 1 --min-time 0 --no-flush --format csv \
    > "$out/logs/ncu_${m}x4096x4096.txt" 2>&1
  log "ncu ${m}x4096x4096 exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
