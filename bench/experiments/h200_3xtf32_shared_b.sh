#!/usr/bin/env bash
# Issue 31, 2026-11-28 (fourth session): 3xTF32 with both wgmma operands from shared memory (B split into scratch
# like A), which ptxas no longer serializes (bench/NOTES.md, "Both operands from shared memory"). The build and the
# whole CTest suite (test_accuracy's 3xTF32 targets, test_gpu_backends' layouts and odd shapes); memcheck on the
# 3xTF32 row in every layout at two odd shapes, racecheck at one; issue 31's sweep at 1024-8192 on the tensor-core rows
# and the vendors; each block tile forced at 4096 and 8192, as bench/experiments/h200_head_tiles.sh ran them before.
# Usage (device tool, .whl/ and .vendors/ carried): h200_3xtf32_shared_b.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize memcheck 100 130 600 tensor-core-3xtf32 60
sanitize memcheck 127 253 61 tensor-core-3xtf32 60
sanitize racecheck 100 130 600 tensor-core-3xtf32 90
timeout 230 $cli --sizes 1024,2048,4096,8192 --budget 170 --filter tensor-core,cublas-,cublaslt,cutlass \
  --format json --out "$out/results/${gpu_tag}_tensor_core_sizes.json" 2>> "$out/logs/runs.log"
log "sizes exit $?"
for tile in 256x128 128x256 128x128; do
  MATCOMPARE_TF32_TILE=$tile timeout 100 $cli --sizes 4096,8192 --budget 70 \
    --filter tensor-core-3xtf32,cublas-fp32,cublaslt-fp32 \
    --format json --out "$out/results/${gpu_tag}_3xtf32_tile_$tile.json" 2>> "$out/logs/runs.log"
  log "tile $tile exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
