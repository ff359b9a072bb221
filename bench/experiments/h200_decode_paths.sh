#!/usr/bin/env bash
# Issues 30 and 31, 2026-11-28 (fifth session): the few-rows kernels with several steps of B in flight and one launch
# (bench/NOTES.md, "The few-rows kernels' round trips"), and 3xTF32 handing products bound by its split operands'
# bytes to FP32 SIMT ("3xTF32 where B's bytes decide"). The build and the whole CTest suite; memcheck and racecheck on
# the few-rows kernels, split and not, in every layout (dot and axpy); the tile counter left unwrapped on purpose
# (test_gpu_backends' few-rows case must fail); then the suites named NAME:BUDGET after the commit.
# Usage (device tool, .whl/ and .vendors/ carried): h200_decode_paths.sh OUT COMMIT NAME:BUDGET...
set -uo pipefail
out=$1 commit=$2
shift 2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize memcheck 5 1001 4099 simt-tuned 60
sanitize memcheck 1 64 1216 simt-tuned 60
sanitize racecheck 16 257 1300 simt-tuned 90
unwrapped='s/atomicInc(p.counters + at.tile, unsigned(p.slices - 1))/atomicAdd(p.counters + at.tile, 1u)/'
mutate src/gpu/simt/few_rows.cu "$unwrapped" "*few-rows*" "the tile counter never wraps"
for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-90} suite "${run%%:*}" "${run##*:}"; done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
