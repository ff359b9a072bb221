#!/usr/bin/env bash
# Issue 30's few-rows (decode) kernels on the GPU (2026-11-27): build, the whole CTest suite but the report's (CPU
# only) and cuBLASMp's (not built here), memcheck and racecheck on the three fast rows at few-rows shapes in every
# layout (K whole and split), then the decode suites of both model sizes on the fast rows and the vendors, each within
# a budget so that it writes its results. Logs and results come back as two archives (the device tool returns at most
# 8 files). Usage (device tool, .whl/ carried): bench/experiments/h100_few_rows.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
rows=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32
for tool in memcheck racecheck; do
  for shape in "5 1001 4099" "16 257 1300" "1 33 65"; do sanitize $tool $shape $rows 90; done
done
fast=$rows,cublas-fp32,cublas-tf32,cublaslt,cutlass
suite() { local name=$1 budget=$2; timeout $((budget + 40)) $cli --suite "$name" --budget "$budget" --filter $fast \
  --format json --out "$out/results/h100_$name.json" 2>> "$out/logs/runs.log"; log "$name exit $?"; }
suite llama-3.1-8b-decode 100
suite llama-3.1-70b-decode 90
python3 bench/suite_summary.py "$out/results"/*.json 2>&1 | tee "$out/logs/summary.txt"
