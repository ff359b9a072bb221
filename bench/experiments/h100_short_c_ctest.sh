#!/usr/bin/env bash
# Issue 30, first GPU run of 2026-11-27's fifth session: gpu/simt-tuned takes the smallest class's 64-row tiles for a
# short C (up to 64 rows, however wide). Build, the whole CTest suite, racecheck on the split-K kernels, memcheck on a
# short wide C, the short-C shapes (bench/shapes/short_c.txt) on the FP32 rows and vendors, then DeepBench's two
# inference suites on the fast rows and the vendors.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_short_c_ctest.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize racecheck 100 130 3000 simt-tuned 120
sanitize memcheck 64 3000 300 simt-tuned 60
timeout 150 $cli --shapes bench/shapes/short_c.txt --budget 90 \
  --filter simt-tuned,tensor-core-3xtf32,cublas-fp32,cublaslt-fp32 --format json \
  --out "$out/results/h100_short_c.json" 2>> "$out/logs/runs.log"
log "short-C shapes exit $?"
suite deepbench-inference-device 50
suite deepbench-inference-server 130
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
