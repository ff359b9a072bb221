#!/usr/bin/env bash
# Issue 30, sixth GPU run (2026-11-27): gpu/simt-tuned's tiled kernels split K where their tiles fill at most half the
# GPU. Build, the GPU backends' test, memcheck on split shapes, the few-rows kernels against the split tiled kernels
# at 24 to 64 rows (bench/shapes/simt_split_k.txt, MATCOMPARE_FEW_ROWS=64 then the defaults), a mutation of the
# splits' sum (the last split dropped: the test must fail), then both decode suites.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_simt_split_k.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
build/tests/test_gpu_backends --test-case-exclude="*cublasmp*" > "$out/logs/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(tail -2 "$out/logs/test_gpu_backends.log" | head -1)"
for shape in "100 130 3000" "33 300 999"; do sanitize memcheck $shape simt-tuned 60; done
fast=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass
for limit in 64 ""; do
  MATCOMPARE_FEW_ROWS=$limit timeout 80 $cli --shapes bench/shapes/simt_split_k.txt --budget 50 \
    --filter simt-tuned,cublas-fp32,cublaslt-fp32 --format json \
    --out "$out/results/h100_split_k_few_rows_${limit:-default}.json" 2>> "$out/logs/runs.log"
  log "split-k shapes MATCOMPARE_FEW_ROWS=${limit:-default} exit $?"
done
mutate src/gpu/simt/simt_tuned.cuh \
  's/    for (int s = 1; s < splits; ++s) {/    for (int s = 1; s < splits - 1; ++s) {/' "*splits K*" "last split dropped"
suite() { local name=$1 budget=$2; timeout $((budget + 150)) $cli --suite "$name" --budget "$budget" --filter $fast \
  --format json --out "$out/results/h100_$name.json" 2>> "$out/logs/runs.log"; log "$name exit $?"; }
suite llama-3.1-8b-decode 90
suite llama-3.1-70b-decode 80
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
