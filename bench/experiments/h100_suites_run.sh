#!/usr/bin/env bash
# Issue 30, the shipped suites on the fast rows and the vendors (2026-11-27, fifth session): build (incremental on a
# warm machine), then each NAME:BUDGET given, summarized by bench/suite_summary.py.
# Usage (device tool, .whl/ and .vendors/ carried): bench/experiments/h100_suites_run.sh OUT COMMIT NAME:BUDGET...
set -uo pipefail
out=$1 commit=$2
shift 2
source bench/device_out.sh
build_only "$commit"
for run in "$@"; do suite "${run%%:*}" "${run##*:}"; done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
