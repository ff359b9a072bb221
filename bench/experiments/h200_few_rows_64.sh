#!/usr/bin/env bash
# Issue 30, prepared 2026-11-30 (nineteenth session): gpu/simt-tuned and 3xTF32 on every 64-row suite product
# (shapes/few_rows_64.txt) with their default kernels (tiled from 33 rows) and with the few-rows kernels forced
# (MATCOMPARE_FEW_ROWS=64), each run with the FP32 vendors beside it, twice alternated: four runs of at most BUDGET
# + 30 s (BUDGET 45 unless given), on the build/ a call before left where it was built from COMMIT (else built
# again); JSON in results/, the per-cell summary in logs/summary.txt (bench/NOTES.md, "Where the few-rows kernels
# stop"). Usage (device tool, .whl carried): h200_few_rows_64.sh OUT COMMIT [BUDGET]
set -uo pipefail
out=$1 commit=$2 budget=${3:-45}
source bench/device_out.sh
# build/ as a call before left it, if it was built from COMMIT (the device tool keeps build outputs between calls)
grep -q "MATCOMPARE_GIT_COMMIT:STRING=$commit\$" build/CMakeCache.txt 2>/dev/null && [ -x "$cli" ] || build_only "$commit"
for round in 1 2; do
  for rows in default 64; do
    env_value=$([ $rows = 64 ] && echo 64 || echo "")
    MATCOMPARE_FEW_ROWS=$env_value timeout $((budget + 30)) $cli --shapes bench/shapes/few_rows_64.txt \
      --filter simt-tuned,tensor-core-3xtf32,cublas-fp32,cublaslt-fp32 --budget "$budget" --format json \
      --out "$out/results/few_rows_${rows}_$round.json" 2>> "$out/logs/runs.log"
    log "round $round, few rows $rows: exit $?"
  done
done
python3 bench/suite_summary.py "$out/results"/*.json* > "$out/logs/summary.txt" 2>&1
