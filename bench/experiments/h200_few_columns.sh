#!/usr/bin/env bash
# Issue 30, 2026-11-28 (fifth session): a C of few columns through the few-rows kernels turned around (C^T;
# bench/NOTES.md, "A C of few columns turned around"). The build and the whole CTest suite; memcheck and racecheck on
# the turned kernels in every layout; deepbench-inference-device; bench/shapes/few_columns_crossover.txt with the path
# at its defaults and off (MATCOMPARE_FEW_ROWS=0). Tried and not kept: the turned kernels were slower everywhere; the
# change is bench/experiments/few_columns_turned_around.patch (apply it to 4b4ccf8~1 to run this again).
# Usage (device tool, .whl/ and .vendors/ carried): h200_few_columns.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize memcheck 700 35 2048 simt-tuned 60
sanitize memcheck 129 17 3000 tensor-core-3xtf32 60
sanitize racecheck 300 40 1300 simt-tuned 90
SUITE_MARGIN=60 suite deepbench-inference-device 40
for limit in default 0; do
  if [ "$limit" = default ]; then unset MATCOMPARE_FEW_ROWS; else export MATCOMPARE_FEW_ROWS=$limit; fi
  timeout 100 $cli --shapes bench/shapes/few_columns_crossover.txt --budget 60 \
    --filter simt-tuned,tensor-core-3xtf32,cublas-fp32,cublaslt-fp32 \
    --format json --out "$out/results/${gpu_tag}_few_columns_$limit.json" 2>> "$out/logs/runs.log"
  log "few columns ($limit) exit $?"
done
unset MATCOMPARE_FEW_ROWS
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
