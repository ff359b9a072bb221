#!/usr/bin/env bash
# Issue 30, first GPU run of 2026-11-27's sixth session: the whole CTest suite on the tree of the harness and CPU changes
# since 1f02e5b, with gpu/simt-tuned's split-K adding kernel now spread over several blocks a tile (NOTES, "A short C
# takes 64-row tiles"); memcheck on that kernel's shapes, then each shipped suite NAME:BUDGET given.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_verify_suites.sh OUT COMMIT NAME:BUDGET...
set -uo pipefail
out=$1 commit=$2
shift 2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize memcheck 700 35 2048 simt-tuned 60
sanitize memcheck 100 130 3000 simt-tuned 60
for run in "$@"; do suite "${run%%:*}" "${run##*:}"; done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
