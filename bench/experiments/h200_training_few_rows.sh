#!/usr/bin/env bash
# Issue 30, 2026-11-30 (nineteenth session): DeepBench training's products of at most 128 rows
# (shapes/deepbench_training_few_rows.txt, 76 of 160), where nearly every cell below 0.90 of the best vendor sat at
# 48cc684, on the fast rows and the vendors within BUDGET seconds (stopped SUITE_MARGIN, 40 unless set, later): the
# whole suite's large products cost some 300 s of fixed costs that a check of the small ones need not pay. Run after
# another script on the same warm machine, whose build/ it reuses where it was built from COMMIT (else built
# again); JSON in results/, the per-cell summary in logs/summary.txt.
# Usage (device tool, .whl carried): h200_training_few_rows.sh OUT COMMIT BUDGET
set -uo pipefail
out=$1 commit=$2 budget=$3
source bench/device_out.sh
# build/ as a call before left it, if it was built from COMMIT (the device tool keeps build outputs between calls)
grep -q "MATCOMPARE_GIT_COMMIT:STRING=$commit\$" build/CMakeCache.txt 2>/dev/null && [ -x "$cli" ] || build_only "$commit"
timeout $((budget + ${SUITE_MARGIN:-40})) $cli --shapes bench/shapes/deepbench_training_few_rows.txt --budget "$budget" \
  --filter $fast --format json --out "$out/results/${gpu_tag}_deepbench_training_few_rows.json" 2>> "$out/logs/runs.log"
log "deepbench training, at most 128 rows, exit $?"
python3 bench/suite_summary.py "$out/results"/*.json* > "$out/logs/summary.txt" 2>&1  # a stopped run leaves .json.partial
