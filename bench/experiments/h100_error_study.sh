#!/usr/bin/env bash
# Issue 31, 2026-11-28 (third session): the error study again with the TF32 rows' A rounded by the copy engine and the
# three-pass kernels unserialized (suites/error-vs-k.txt, M = N = 512, K = 256 ... 65536, once per value distribution)
# for the committed report's error-against-K plots, and test_accuracy's TF32 case with its documented targets; then,
# on the warm machine, llama-3.1-8b-prefill (issue 30) with the faster three-pass kernels.
# Usage (device tool, .whl/ and .vendors/ carried): h100_error_study.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
build/tests/test_accuracy -s > "$out/logs/test_accuracy.log" 2>&1
log "test_accuracy exit $?: $(grep -E 'test cases:' "$out/logs/test_accuracy.log")"
error_study 90 130
SUITE_MARGIN=30 suite llama-3.1-8b-prefill 150
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
