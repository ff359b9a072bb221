#!/usr/bin/env bash
# Issue 30's second GPU run (2026-11-27), on the tree that added the GPU layouts: build, the whole CTest suite but the
# report's (CPU only, passed at 9e8467d on this machine) and cuBLASMp's (not built here), memcheck on the rows whose
# NN path changed, then the transformer suites on the fast rows and the vendors, each within a budget so that it
# writes its results. Logs and results come back as two archives (the device tool returns at most 8 files).
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_suites.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
timeout -s INT 60 compute-sanitizer --tool memcheck --error-exitcode 9 --target-processes all $cli --m 67 --n 45 \
  --k 33 --alpha 0.5 --beta 2 --filter cutlass,simt-tuned,tensor-core-tf32-ws,3xtf32,cublas --repetitions 1 \
  --min-time 0 --no-flush --format csv > "$out/logs/sanitizer_memcheck_nn.log" 2>&1
log "memcheck NN exit $?: $(grep -E 'ERROR SUMMARY' "$out/logs/sanitizer_memcheck_nn.log" | tail -1);" \
  "rows passed: $(grep -c ',passed,' "$out/logs/sanitizer_memcheck_nn.log")"
fast=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass
suite() { local name=$1 budget=$2; timeout $((budget + 40)) $cli --suite "$name" --budget "$budget" --filter $fast \
  --format json --out "$out/results/h100_$name.json" 2>> "$out/logs/runs.log"; log "$name exit $?"; }
suite llama-3.1-8b-decode 100
suite llama-3.1-8b-prefill 130
suite llama-3.1-70b-decode 80
python3 bench/suite_summary.py "$out/results"/*.json 2>&1 | tee "$out/logs/summary.txt"
