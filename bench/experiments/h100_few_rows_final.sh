#!/usr/bin/env bash
# Issue 30's few-rows kernels, fourth GPU run (2026-11-27), on the kept kernels (the third run's prefetch and last-block
# sum lost: bench/experiments/few_rows_prefetch_last_block.patch): build and the whole CTest suite with the CPU vendor
# plugins carried, memcheck, both decode suites on the fast rows and the vendors, then racecheck.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_few_rows_final.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
rows=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32
for shape in "5 257 1100" "40 129 600" "1 33 65"; do MATCOMPARE_FEW_ROWS=64 sanitize memcheck $shape $rows 60; done
suite() { local name=$1 budget=$2; timeout $((budget + 40)) $cli --suite "$name" --budget "$budget" \
  --filter $rows,cublas-fp32,cublas-tf32,cublaslt,cutlass --format json --out "$out/results/h100_$name.json" \
  2>> "$out/logs/runs.log"; log "$name exit $?"; }
suite llama-3.1-8b-decode 100
suite llama-3.1-70b-decode 90
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
for shape in "3 33 1100" "20 17 1100"; do MATCOMPARE_FEW_ROWS=64 sanitize racecheck $shape $rows 60; done
