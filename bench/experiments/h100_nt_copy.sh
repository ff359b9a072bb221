#!/usr/bin/env bash
# Issue 30, 2026-11-27's sixth session: gpu/simt-tuned copies B stored N×K to K×N first from 512 rows of C on. Build,
# the GPU backends' and tuning table's tests, memcheck and racecheck on the copy's path, the shapes either side of the
# threshold and the prefill layers (bench/shapes/prefill_nt_copy.txt) on the FP32 rows, then the deep-K shapes where
# 3xTF32 was noisy (bench/shapes/deep_k_3xtf32.txt) with the GPU's clock, power and throttle reasons logged.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_nt_copy.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
for t in test_gpu_backends test_tuning_table; do
  build/tests/$t --test-case-exclude="*cublasmp*" > "$out/logs/$t.log" 2>&1
  log "$t exit $?: $(grep -E 'assertions:' "$out/logs/$t.log")"
done
sanitize memcheck 600 257 333 simt-tuned 60
sanitize racecheck 600 257 333 simt-tuned 120
timeout 150 $cli --shapes bench/shapes/prefill_nt_copy.txt --budget 70 --filter simt-tuned,cublas-fp32,cublaslt-fp32 \
  --format json --out "$out/results/${gpu_tag}_prefill_nt_copy.json" 2>> "$out/logs/runs.log"
log "prefill NT copy exit $?"
reasons=clocks_event_reasons.active
nvidia-smi --help-query-gpu | grep -q "$reasons" || reasons=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,$reasons --format=csv -lms 250 > "$out/logs/gpu_clock_deep_k.csv" 2>&1 &
smi=$!
timeout 150 $cli --shapes bench/shapes/deep_k_3xtf32.txt --budget 70 \
  --filter tensor-core-3xtf32,tensor-core-tf32-ws,cublas-fp32,cublaslt-tf32 --format json \
  --out "$out/results/${gpu_tag}_deep_k_3xtf32.json" 2>> "$out/logs/runs.log"
log "deep K exit $?"
kill $smi
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
