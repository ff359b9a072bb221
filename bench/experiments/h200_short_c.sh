#!/usr/bin/env bash
# Issue 30, 2026-11-28 (sixth session): a short C (64 rows) with 64x256 tiles of 8 warps (bench/NOTES.md, "A short C
# with 64x256 tiles"). Stage `probe`: the build, then matcompare-tune's probe of every variant on the decode suites'
# 64-row products (NT as the suites run them, two in NN beside them for what reading B along K costs), then the whole
# CTest suite. Stage `checks`: memcheck on the few-rows kernels and on 3xTF32 (its SIMT hand-off, and its three passes
# with a forced tile on an odd shape), the tuner's probe under memcheck on a 64-row NT product (every variant), and
# the forced-tile override broken on purpose (test_gpu_backends' TF32-tile case must fail).
# Usage (device tool, .whl/ and .vendors/ carried): h200_short_c.sh OUT COMMIT probe|checks
set -uo pipefail
out=$1 commit=$2 stage=$3
source bench/device_out.sh
if [ "$stage" = probe ]; then
  build_only "$commit"
  $tune --m 64 --n 6144,28672,57344,128256 --k 4096,4096,8192,8192 --layout NT --min-time 0.05 \
    > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  $tune --m 64 --n 28672,57344 --k 4096,8192 --layout NN --min-time 0.05 > "$out/logs/probe_nn.log" 2>&1
  log "probe NN exit $?"
  grep -A3 "ranked" "$out/logs/probe_nt.log" "$out/logs/probe_nn.log"
  ctest --test-dir build -j4 --timeout 150 -E "test_report|test_gpu_cublasmp" > "$out/logs/ctest.log" 2>&1
  log "ctest exit $?: $(grep -E 'tests passed' "$out/logs/ctest.log")"
  grep -E "\*\*\*|Failed" "$out/logs/ctest.log"
else
  sanitize memcheck 5 1001 4099 simt-tuned 60
  sanitize memcheck 700 35 2048 tensor-core-3xtf32 60
  MATCOMPARE_TF32_TILE=128x128 sanitize memcheck 127 253 61 tensor-core-3xtf32 60
  memcheck_probe 64 1000 300 NT
  override='s/tf32_tile_named(std::getenv(kTf32TileVariable)) == nullptr \&\& //'
  mutate src/gpu/hopper/tensor_core_3xtf32.cu "$override" "*every tile of the TF32 engine*" \
    "the forced tile ignored by 3xTF32's choice"
fi
