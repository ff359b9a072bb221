#!/usr/bin/env bash
# Issue 30, 2026-11-28 (fourth session): the shipped suites on the H200 (the first H200 lent since the suites exist),
# each NAME:BUDGET given, on the fast rows and the vendors; run right after h200_3xtf32_shared_b.sh on the same warm
# machine, whose build/ it reuses (built again if missing). Usage (device tool): h200_suites.sh OUT COMMIT NAME:BUDGET...
set -uo pipefail
out=$1 commit=$2
shift 2
source bench/device_out.sh
[ -x "$cli" ] || build_only "$commit"
for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-30} suite "${run%%:*}" "${run##*:}"; done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
