#!/usr/bin/env bash
# Issue 30 (2026-11-27, fifth session): in both prefill suites gpu/cutlass-tf32 took 10-40 s on some NT shapes
# planned at 0.1-1.5 s (2048x4096x14336, 8192x8192x8192), so the suites overran their budgets and were stopped.
# Build, that row alone on 2048x4096x14336 NT timed whole (JSON: samples, clock, throttled rounds, spent time),
# again without the cache flush and with one repetition, then a sample of the 8B prefill layers without CUTLASS.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_cutlass_stall.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
stall() {  # LABEL, then the CLI's arguments
  local label=$1
  shift
  local start=$SECONDS
  timeout 40 $cli --m 2048 --n 4096 --k 14336 --layout NT --filter cutlass-tf32,cublas-tf32 --format json \
    --out "$out/results/cutlass_$label.json" "$@" 2>> "$out/logs/cutlass_$label.log"
  log "cutlass $label exit $? after $((SECONDS - start)) s"
}
stall budget30 --budget 30
stall no_flush --budget 30 --no-flush
stall one_run --repetitions 1 --min-time 0 --no-flush
timeout 100 $cli --shapes bench/shapes/prefill_sample.txt --budget 60 \
  --filter simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt --format json \
  --out "$out/results/${gpu_tag}_prefill_sample.json" 2>> "$out/logs/runs.log"
log "prefill sample exit $?"
python3 bench/suite_summary.py "$out/results/${gpu_tag}_prefill_sample.json" > "$out/logs/summary.txt" 2>&1
