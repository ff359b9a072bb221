#!/usr/bin/env bash
# Session of 2026-11-28 (second): the head on the H100, and issue 31's first GPU measurement. Two calls of at most 600 s:
#   verify   the build and the whole CTest suite at the head (no GPU source changed since 47f2980, the last GPU CTest),
#            then the error study (suites/error-vs-k.txt, M = N = 512, K = 256 ... 65536) on the GPU fast rows and the
#            vendors, once per value distribution: does the 3xTF32 row's error grow as K (a chain of tensor-core
#            accumulations that drops bits at each step) or as sqrt(K) (FP32's round to nearest)?
#   prefill  on the warm machine: llama-3.1-70b-prefill at --budget 400, its simt rows now with B copied K x N first.
# Usage (device tool, .whl/ and .vendors/ carried): h100_head_accuracy.sh OUT COMMIT verify|prefill
set -uo pipefail
out=$1 commit=$2 part=$3
source bench/device_out.sh
if [ "$part" = verify ]; then
  build_and_ctest "$commit"
  error_study 120 200
else
  build_only "$commit"
  suite llama-3.1-70b-prefill 400
fi
python3 bench/suite_summary.py "$out/results"/*.json* > "$out/logs/summary.txt" 2>&1
