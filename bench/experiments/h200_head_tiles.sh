#!/usr/bin/env bash
# 2026-11-28 (fourth session), the first H200 call: the whole CTest suite at the last session's head (its kernels
# last changed at 7cc8315, where memcheck and racecheck ran on the H100; the whole suite never ran on a GPU there);
# the mutation the last session did not try (gpu/tensor-core-tf32's A truncated again: test_accuracy's TF32 case must
# fail); then issue 31's question for 3xTF32's speed: each block tile forced (MATCOMPARE_TF32_TILE) at 4096 and 8192,
# three passes and one, beside cuBLAS and cuBLASLt FP32 and TF32. ptxas serializes every wgmma of the 256x128 and
# 128x256 three-pass kernels (C7512) and pipelines the 128x128 one (bench/NOTES.md, "The three-pass kernels ran
# with every wgmma serialized").
# Usage (device tool, .whl/ carried): h200_head_tiles.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
mutate_with test_accuracy src/gpu/hopper/tensor_core_tf32.cu 's/TmaValues::rounded_to_tf32);/TmaValues::exact);/' \
  "*TF32 row*" "gpu/tensor-core-tf32's A truncated"
for tile in 256x128 128x256 128x128; do
  MATCOMPARE_TF32_TILE=$tile timeout 150 $cli --sizes 4096,8192 --budget 110 \
    --filter tensor-core-3xtf32,tensor-core-tf32-ws,cublas-fp32,cublas-tf32,cublaslt-fp32,cublaslt-tf32 \
    --format json --out "$out/results/${gpu_tag}_tile_$tile.json" 2>> "$out/logs/runs.log"
  log "tile $tile exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
