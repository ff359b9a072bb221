#!/usr/bin/env bash
# Issue 30, 2026-11-29 (eleventh session): the TF32 engine's 64-row tile for a C of at most 64 rows (bench/NOTES.md,
# "The TF32 engine's 64-row tile"). STAGES, comma-separated, in this order: `check`, the build and the whole CTest;
# `sanitize`, memcheck and racecheck on the TF32 and 3xTF32 rows at short-C shapes (the tile split and whole);
# `tiles`, the TF32 row's decode cells below 0.9 and two wide ones with each tile forced (MATCOMPARE_TF32_TILE) and
# with the plan's choice, beside the TF32 vendors, and 4096^3 on the 64-row tile forced (its relative cost against
# the plan's 256x128, 1.0); `suites`, the suites NAME:BUDGET given.
# Usage (device tool, .whl carried): h200_tf32_short_tile.sh OUT COMMIT STAGES [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stages=,$3,
shift 3
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,sanitize,* ]]; then
  sanitize memcheck 64 2000 2048 tensor-core-tf32-ws,tensor-core-3xtf32 90  # 64x256 split 8 ways
  sanitize racecheck 40 700 300 tensor-core-tf32-ws 120  # 3 tiles of 64x256, K split 8 ways
fi
if [[ $stages == *,tiles,* ]]; then
  shapes=(--m 16,16,64,16,64,64 --n 6144,4096,6144,10240,28672,57344 --k 4096,14336,4096,8192,4096,8192)
  for tile in "" 128x128 128x256; do  # "": the plan's choice, 64x256 at every one of these
    MATCOMPARE_TF32_TILE=$tile timeout 120 $cli "${shapes[@]}" --layout NT \
      --filter tensor-core-tf32-ws,cublaslt-tf32,cublas-tf32 --budget 30 --format csv \
      > "$out/logs/tf32_tile_${tile:-plan}.csv" 2>> "$out/logs/runs.log"
    log "tf32 tile ${tile:-plan} exit $?"
    grep -E "^gpu/tensor-core-tf32-ws" "$out/logs/tf32_tile_${tile:-plan}.csv" | cut -d, -f4-7,10,16,17,18
  done
  for tile in 64x256; do
    MATCOMPARE_TF32_TILE=$tile timeout 60 $cli --size 4096 --filter tensor-core-tf32-ws,cublaslt-tf32 --budget 15 \
      --format csv > "$out/logs/tf32_4096_$tile.csv" 2>> "$out/logs/runs.log"
    log "tf32 4096 $tile exit $?"
    grep -E "^gpu/tensor-core-tf32-ws" "$out/logs/tf32_4096_$tile.csv" | cut -d, -f4-7,10,12,16
  done
fi
if [[ $stages == *,suites,* ]]; then
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
  grep -E "^==|geometric mean" "$out/logs/summary.txt"
fi
