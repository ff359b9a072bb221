#!/usr/bin/env bash
# Issue 30, 2026-11-28 (sixth session), the last call of the session's device time: the build, the short-C class
# tuned again on 64x28672x4096 NT now that an [n][k] B tile's copies come from one pointer (the table comes back in
# results/), the rebuild, then the GPU backends' tests, the tuning table's, the accuracy targets and memcheck on a
# 64-row NT product (the new copy's bounds).
# Usage (device tool, .whl/ and .vendors/ carried): h200_short_c_final.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
build/apps/matcompare-tune --m 64 --n 28672 --k 4096 --layout NT --min-time 0.05 --short-class \
  --table src/gpu/simt/simt_tuning_table.inc > "$out/logs/short_class.log" 2>&1
log "short class exit $?"
cp src/gpu/simt/simt_tuning_table.inc "$out/results/"
tail -3 src/gpu/simt/simt_tuning_table.inc
cmake --build build -j"$(nproc)" > "$out/logs/rebuild.log" 2>&1
log "rebuilt exit $?"
gpu_tests
build/tests/test_tuning_table > "$out/logs/test_tuning_table.log" 2>&1
log "test_tuning_table exit $?: $(grep -E 'test cases:' "$out/logs/test_tuning_table.log")"
sanitize memcheck 64 1000 300 simt-tuned 30
sanitize memcheck 33 777 130 simt-tuned 30
