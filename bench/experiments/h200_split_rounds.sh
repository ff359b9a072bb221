#!/usr/bin/env bash
# Issue 30, 2026-11-29 (eleventh session): K split into more parts than slots, in rounds, where fewer tiles than slots
# leave a round part-empty (bench/NOTES.md, "A split that fills the slots"). STAGES, comma-separated, in this order:
# `check`, the build and the whole CTest; `sanitize`, memcheck on the turned path in every layout (64 and 33 rows, K
# past N, a K split, a split in rounds) and racecheck on it; `probe`, the 64-row NT decode products through the
# tuner's probe (the table's choice, turned, beside every variant forced: the A/B in one run) and the short-C class
# tuned again under the new schedule (its rows in results/simt_tuning_table.inc); `ncu`, Nsight Compute on the turned
# product of the two 64-row cells furthest below the vendor after the change; `suites`, the suites NAME:BUDGET given.
# Usage (device tool, .whl carried): h200_split_rounds.sh OUT COMMIT STAGES [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stages=,$3,
shift 3
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,sanitize,* ]]; then
  sanitize memcheck 64 1000 300 simt-tuned,tensor-core-3xtf32 90
  sanitize memcheck 33 777 130 simt-tuned 60
  sanitize memcheck 40 300 1000 simt-tuned 60  # K past N: C^T's B read K rows deep
  sanitize memcheck 100 1001 3000 simt-tuned 60  # turned, K split in one round
  sanitize memcheck 64 25472 1024 simt-tuned 150  # turned, 199 tiles split 3 ways on 396 slots: two rounds of parts
  sanitize racecheck 64 520 200 simt-tuned 90
fi
if [[ $stages == *,probe,* ]]; then
  $tune --m 64 --n 6144,4096,4096,28672,10240,8192,57344,128256 --k 4096,4096,14336,4096,8192,8192,8192,4096 --layout NT \
    --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  grep -E "ranked|the table's choice$|64x128x16_w32x64_l4x8_s4_rowA_b3 g16$|64x256x16_w32x64_l4x8_s3_colA_b2 g16$" \
    "$out/logs/probe_nt.log"
  cp src/gpu/simt/simt_tuning_table.inc "$out/results/simt_tuning_table.inc"
  $tune --m 64 --n 28672 --k 4096 --layout NT --short-class --table "$out/results/simt_tuning_table.inc" \
    > "$out/logs/short_class.log" 2>&1
  log "short-C class tuned exit $?"
  grep -E ", 0, " "$out/results/simt_tuning_table.inc"
fi
if [[ $stages == *,ncu,* ]]; then
  ncu_simt NT 64 4096 14336 NT_64x4096x14336
  ncu_simt NT 64 10240 8192 NT_64x10240x8192
fi
if [[ $stages == *,suites,* ]]; then
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
  grep -E "^==|geometric mean" "$out/logs/summary.txt"
fi
