#!/usr/bin/env bash
# Method and issue 30, 2026-11-28 (eighth session): the head on the GPU for the first time since a4d0851 warmed a
# one-pair row's partners (build, the whole CTest), then the suites whose committed cells of one pair were biased
# most (bench/NOTES.md, "A ratio of one pair"), each NAME:BUDGET given at a budget that leaves every row about half a
# second past its fixed costs (three pairs or more). Usage (device tool, .whl carried): h200_three_pairs.sh OUT COMMIT
# NAME:BUDGET...
set -uo pipefail
out=$1 commit=$2
shift 2
source bench/device_out.sh
build_and_ctest "$commit"
for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
grep -E "^==|geometric mean" "$out/logs/summary.txt"
