#!/usr/bin/env bash
# Issue 31, 2026-11-28 (third session): A rounded to TF32 by the copy engine (the TF32 rows' A maps) and the
# three-pass kernels no longer serialized by ptxas (C7515). The build; the GPU backends' and accuracy tests (the new
# TF32 case: within 1.1x cuBLAS TF32's error); issue 31's sweep at 1024-8192 on the tensor-core rows and the vendors;
# memcheck and racecheck on the three tensor-core rows in every layout; then the TF32 rows' A truncated again on
# purpose (a_values exact), which test_accuracy must fail.
# Usage (device tool, .whl/ and .vendors/ carried): h100_tf32_rounding.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
gpu_tests
timeout 230 $cli --sizes 1024,2048,4096,8192 --budget 170 --filter tensor-core,cublas-,cublaslt,cutlass \
  --format json --out "$out/results/${gpu_tag}_tensor_core_sizes.json" 2>> "$out/logs/runs.log"
log "sizes exit $?"
sanitize memcheck 100 130 600 tensor-core 60
sanitize racecheck 100 130 600 tensor-core 90
mutate_with test_accuracy src/gpu/hopper/tensor_core_tf32_ws.cu \
  's/kPasses == 1 ? TmaValues::rounded_to_tf32 : TmaValues::exact/TmaValues::exact/' "*TF32 row*" "A truncated"
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
