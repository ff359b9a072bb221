#!/usr/bin/env bash
# Issue 30, 2026-11-28 (sixth session): B stored N×K kept [n][k] in shared memory (bench/NOTES.md, "B stored N×K kept
# [n][k]") and the short-C class. Stage `check`: the build and the whole CTest suite, memcheck and racecheck on 64-row
# NT products (the table's choice, then every variant through the tuner's probe under memcheck). Stage `tune`: the
# tuner's probe of the decode suites' 64-row products (NT, and two in NN beside them), the short-C class tuned on
# 64x28672x4096 NT into the table (returned in results/), the rebuild, then the suites named NAME:BUDGET.
# Usage (device tool, .whl/ and .vendors/ carried): h200_short_c_nk.sh OUT COMMIT check|tune [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stage=$3
shift 3
source bench/device_out.sh
if [ "$stage" = check ]; then
  build_and_ctest "$commit"
  sanitize memcheck 64 1000 300 simt-tuned 60
  sanitize racecheck 64 520 200 simt-tuned 120
  memcheck_probe 64 1000 300 NT,TT
else
  $tune --m 64 --n 6144,57344,128256 --k 4096,8192,8192 --layout NT --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  $tune --m 64 --n 28672,57344 --k 4096,8192 --layout NN --min-time 0.05 > "$out/logs/probe_nn.log" 2>&1
  log "probe NN exit $?"
  $tune --m 64 --n 28672 --k 4096 --layout NT --min-time 0.05 --short-class --table src/gpu/simt/simt_tuning_table.inc \
    > "$out/logs/short_class.log" 2>&1
  log "short class exit $?"
  cp src/gpu/simt/simt_tuning_table.inc "$out/results/"
  grep -A4 "ranked" "$out/logs/probe_nt.log" "$out/logs/probe_nn.log" "$out/logs/short_class.log"
  cmake --build build -j"$(nproc)" > "$out/logs/rebuild.log" 2>&1
  log "rebuilt with the short-C class: exit $?"
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-60} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
fi
