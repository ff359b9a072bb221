#!/usr/bin/env bash
# Issue 30, 2026-11-30 (eighteenth session): the head after "The TF32 row's waves in step" and "The few-rows tile's
# last block" (bench/NOTES.md) on the H200, before the suites run on the same warm machine: the build; the GPU tests
# (test_gpu_backends: every TF32 tile, one pass and three, over two waves reads "…, waves in step" and is correct),
# test_tuning_table; memcheck and racecheck on the TF32 row's waves in step (2000x2200x70 on 256x128 tiles: 144 tiles,
# two waves on 132 SMs) in every layout; the β path of the few-rows last block broken on purpose (C's old values read
# as 0) must fail the few-rows test; the TF32 row and its vendors once over shapes/three_pass_large.txt, to see the
# change's speed named and kept. The suites follow in another call (h200_host_cpu_suite.sh, h200_suites.sh).
# Usage (device tool, .whl carried): h200_tf32_waves_check.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
gpu_tests
build/tests/test_tuning_table > "$out/logs/test_tuning_table.log" 2>&1
log "test_tuning_table exit $?: $(grep -E 'test cases:' "$out/logs/test_tuning_table.log")"
MATCOMPARE_TF32_TILE=256x128 sanitize memcheck 2000 2200 70 tensor-core-tf32-ws 100
MATCOMPARE_TF32_TILE=256x128 sanitize racecheck 2000 2200 70 tensor-core-tf32-ws 100
mutate src/gpu/simt/few_rows.cu 's/p.beta != 0.0f \&\& part\[j\]/false \&\& part[j]/' "*few-rows kernels*" \
  "the last block reads C as zeros"
timeout 120 $cli --shapes bench/shapes/three_pass_large.txt \
  --filter tensor-core-tf32-ws,cublas-tf32,cublaslt-tf32,cutlass-tf32 --budget 40 --format json \
  --out "$out/results/${gpu_tag}_tf32_large.json" 2>> "$out/logs/runs.log"
log "TF32 large products exit $?"
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
