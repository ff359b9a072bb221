#!/usr/bin/env bash
# Issue 30, 2026-11-28 (seventh session): a change to B's [n][k] tile checked and measured (bench/NOTES.md, "B's [n][k]
# tile read at constant offsets", runs 3 and 5: whole-column copies, then a column a thread). The build, the
# every-variant GPU test, memcheck on every variant through the probe (128 rows, NT and TT) and on 64 rows in every
# layout, racecheck on 64 rows (added for run 5), then the probe of two 64-row decode products in NT.
# Usage (device tool, .whl carried): h200_nk_checks.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
every_variant_test
memcheck_probe 128 1000 300 NT,TT
sanitize memcheck 64 1000 300 simt-tuned 60
sanitize racecheck 64 520 200 simt-tuned 90
$tune --m 64 --n 28672,57344 --k 4096,8192 --layout NT --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
log "probe NT exit $?"
grep -E "NT NT$|cublaslt|64x128x16|64x256x16_w32x64_l4x8_s3_colA_b2 g8|choice" "$out/logs/probe_nt.log"
