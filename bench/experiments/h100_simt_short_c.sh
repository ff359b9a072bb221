#!/usr/bin/env bash
# Issue 30, seventh GPU run (2026-11-27): gpu/simt-tuned takes the smallest class's tiles up to 64 rows of C, however
# wide (the sixth run's 64 x 128256 products ran 128-row tiles half empty). Build, the GPU backends' test, both
# decode suites. Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_simt_short_c.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
build/tests/test_gpu_backends --test-case-exclude="*cublasmp*" > "$out/logs/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(tail -2 "$out/logs/test_gpu_backends.log" | head -1)"
fast=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass
for name in llama-3.1-8b-decode llama-3.1-70b-decode; do
  timeout 200 $cli --suite "$name" --budget 80 --filter $fast --format json --out "$out/results/h100_$name.json" \
    2>> "$out/logs/runs.log"
  log "$name exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
