#!/usr/bin/env bash
# Issue 30, 2026-11-28: the budget that plans each problem's fixed costs (bench/NOTES.md, "A suite's fixed costs in its
# budget"), on the suites that overran it. Two calls of at most 600 s:
#   verify    the build, the whole CTest suite (not run on a GPU since 9f5f3f6; the 3xTF32 K < 8 case with B copied is
#             new), then llama-3.1-8b-prefill at --budget 270 (its simt rows now with B copied K x N first);
#   training  on the warm machine (the build is up to date): DeepBench training at --budget 480.
# Usage (device tool, .whl/ and .vendors/ carried): h100_fixed_costs.sh OUT COMMIT verify|training
set -uo pipefail
out=$1 commit=$2 part=$3
source bench/device_out.sh
if [ "$part" = verify ]; then
  build_and_ctest "$commit"
  suite llama-3.1-8b-prefill 270
else
  build_only "$commit"
  suite deepbench-training 480
fi
ls "$out/results" >> "$out/logs/steps.txt"  # a .partial file when a suite was stopped
python3 bench/suite_summary.py "$out/results"/*.json* > "$out/logs/summary.txt" 2>&1
