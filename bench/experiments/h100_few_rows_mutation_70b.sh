#!/usr/bin/env bash
# Issue 30's few-rows kernels, fifth GPU run (2026-11-27): does the few-rows test catch a broken sum of the slices? The
# second kernel is made to drop slice 0, the library rebuilt and the test run (it must fail), then the kernel restored
# and rebuilt; then the 70B decode suite on the fast rows and the vendors, with room for its 4 GB operands.
# Usage (device tool, .whl/ carried): bench/experiments/h100_few_rows_mutation_70b.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
mutate src/gpu/simt/few_rows.cu 's/    float sum = part\[0\];/    float sum = 0.0f;/' "*few-rows*" \
  "slice 0 dropped"
timeout 300 $cli --suite llama-3.1-70b-decode --budget 90 \
  --filter simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass --format json \
  --out "$out/results/h100_llama-3.1-70b-decode.json" 2>> "$out/logs/runs.log"
log "llama-3.1-70b-decode exit $?"
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
