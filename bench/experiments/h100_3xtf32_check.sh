#!/usr/bin/env bash
# Issue 31, 2026-11-28 (second session): the kept version of 3xTF32's promoted big pass (128-row pieces, one partial
# sum) with K split by slices, checked in what device time was left: the build, the GPU backends' and accuracy tests,
# the fast TF32/3xTF32 rows against the vendors at 4096 and 8192, memcheck on 3xTF32 in every layout.
# Usage (device tool, .whl/ and .vendors/ carried): h100_3xtf32_check.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
build/tests/test_gpu_backends --test-case-exclude="*cublasmp*" > "$out/logs/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(grep -E 'test cases:' "$out/logs/test_gpu_backends.log")"
build/tests/test_accuracy -s > "$out/logs/test_accuracy.log" 2>&1
log "test_accuracy exit $?: $(grep -E 'test cases:' "$out/logs/test_accuracy.log")"
timeout 60 $cli --sizes 4096,8192 --budget 35 \
  --filter tensor-core-3xtf32,tensor-core-tf32-ws,cublas-fp32,cublaslt-fp32,cublaslt-tf32 --format json \
  --out "$out/results/${gpu_tag}_3xtf32_sizes.json" 2>> "$out/logs/runs.log"
log "sizes exit $?"
sanitize memcheck 100 130 3000 tensor-core-3xtf32 40
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
