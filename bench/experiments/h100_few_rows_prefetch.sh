#!/usr/bin/env bash
# Issue 30's few-rows kernels, third GPU run (2026-11-27), after B's next step is loaded before this step's arithmetic
# and the last block of a tile adds the slices' sums (no second kernel): build and CTest (the failures' output kept),
# memcheck, the crossover shapes with the path on (MATCOMPARE_FEW_ROWS=64) and off (=0) in one run each, then
# racecheck with row chunks and split K.
# Usage (device tool, .whl/ carried): bench/experiments/h100_few_rows_prefetch.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
rows=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32
export MATCOMPARE_FEW_ROWS=64
for shape in "5 257 1100" "40 129 600" "1 33 65"; do sanitize memcheck $shape $rows 60; done
for limit in 64 0; do
  MATCOMPARE_FEW_ROWS=$limit timeout 80 $cli --shapes bench/shapes/few_rows_crossover.txt --budget 50 \
    --filter $rows,cublas-fp32,cublas-tf32,cublaslt,cutlass --format json \
    --out "$out/results/h100_crossover_few_rows_$limit.json" 2>> "$out/logs/runs.log"
  log "crossover MATCOMPARE_FEW_ROWS=$limit exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
for shape in "3 33 1100" "20 17 1100"; do sanitize racecheck $shape $rows 100; done
