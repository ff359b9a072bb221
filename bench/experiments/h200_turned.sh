#!/usr/bin/env bash
# Issue 30, 2026-11-29: a C of fewer rows than columns with B stored N×K turned around (bench/NOTES.md, "A short C
# turned around"). STAGES, comma-separated, in this order: `check`, the build and the whole CTest, memcheck on the
# turned path in every layout (64 and 33 rows, and K past N), racecheck on it; `turned`, the build and the turned
# path's GPU test (with the odd shapes) alone, memcheck on a K split; `probe`, the 64-row decode products in
# NT through the tuner's probe (the table's choice, turned, beside every variant forced, which runs NT unturned: the
# A/B in one run); `suites`, the suites NAME:BUDGET given (the build reused on a warm machine).
# Usage (device tool, .whl carried): h200_turned.sh OUT COMMIT STAGES [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stages=,$3,
shift 3
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
  sanitize memcheck 64 1000 300 simt-tuned,tensor-core-3xtf32 90
  sanitize memcheck 33 777 130 simt-tuned 60
  sanitize memcheck 40 300 1000 simt-tuned 60  # K past N: C^T's B read K rows deep
  sanitize racecheck 64 520 200 simt-tuned 90
fi
if [[ $stages == *,turned,* ]]; then  # the build and the turned path's GPU test alone, memcheck on a K split
  build_only "$commit"
  build/tests/test_gpu_backends --test-case="*turns a C*,*every GPU backend*" > "$out/logs/test_turned.log" 2>&1
  log "test_gpu_backends turned and odd shapes exit $?: $(grep -E 'test cases:' "$out/logs/test_turned.log")"
  sanitize memcheck 64 1000 3000 simt-tuned 60
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,probe,* ]]; then
  $tune --m 64 --n 6144,4096,4096,28672,10240,8192,57344,128256 --k 4096,4096,14336,4096,8192,8192,8192,4096 --layout NT \
    --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  grep -E "ranked|the table's choice$|64x128x16_w32x64_l4x8_s4_rowA_b3 g16$|64x256x16_w32x64_l4x8_s3_colA_b2 g16$" \
    "$out/logs/probe_nt.log"
fi
if [[ $stages == *,suites,* ]]; then
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
  grep -E "^==|geometric mean" "$out/logs/summary.txt"
fi
