#!/usr/bin/env bash
# Issue 30's first GPU run of the layouts (2026-11-27): build, the GPU tests (every layout of every GPU row that
# takes them), memcheck and racecheck on those rows in NT, TN and TT, then the transformer suites and the layouts at
# 4096 and the odd shape on the fast rows and the vendors. Logs and JSON under OUT; a summary printed. As run, the
# JSON did not come back (the device tool returns at most 8 files, and the logs took them): the printed summary is
# kept in bench/data/h100_layouts_first/; h100_suites.sh packs its files instead. Both suites here outran their
# 150 s (no --budget), so it is h100_suites.sh that runs them.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_layouts.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out/logs" "$out/results"
log() { echo "$(date +%T) $*" | tee -a "$out/logs/steps.txt"; }
source bench/gpu_build.sh
log build
gpu_build "$commit" "$out/logs" || exit 1
log built
timeout 240 build/tests/test_gpu_backends > "$out/logs/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(tail -n 3 "$out/logs/test_gpu_backends.log" | tr '\n' ' ')"
cli=build/apps/matcompare
rows=$($cli --list --filter gpu/ | awk 'NR > 1 && $1 !~ /cublasmp|cublasxt/ {print $1}' | paste -sd,)
for tool in memcheck racecheck; do
  timeout -s INT 100 compute-sanitizer --tool $tool --error-exitcode 9 --target-processes all \
    $cli --m 67 --n 45 --k 33 --layout NT,TN,TT --alpha 0.5 --beta 2 --filter "$rows" --repetitions 1 --min-time 0 \
    --no-flush --format csv > "$out/logs/sanitizer_$tool.log" 2>&1
  log "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/logs/sanitizer_$tool.log" | tail -1);" \
    "rows passed: $(grep -c ',passed,' "$out/logs/sanitizer_$tool.log")"
done
fast=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass
run() { local name=$1; shift; timeout 150 $cli "$@" --filter $fast --format json --out "$out/results/$name.json" \
  2>> "$out/logs/runs.log"; log "$name exit $?"; }
run h100_layouts_4096 --size 4096 --layout NN,NT,TN,TT
run h100_layouts_odd --m 4097 --n 3001 --k 2049 --layout NN,NT,TN,TT
run h100_llama8b_prefill --suite llama-3.1-8b-prefill
run h100_llama8b_decode --suite llama-3.1-8b-decode
python3 bench/suite_summary.py "$out/results"/*.json 2>&1 | tee "$out/logs/summary.txt"
