#!/usr/bin/env bash
# Issue 31, 2026-11-28 (second session): gpu/tensor-core-3xtf32 with its big pass summed per k tile in FP32
# (bench/NOTES.md, "3xTF32's error grows as K"). One call: the build; the GPU backends' tests and the accuracy tests
# (test_accuracy now holds 3xTF32 to the FP32 target and to cuBLAS FP32's error); the error study on 3xTF32 and the
# vendors, both value distributions; the fast rows and vendors at 1024 ... 8192; memcheck and racecheck on 3xTF32 in
# every layout; then, with the time left, the change undone on purpose (test_accuracy must fail).
# Usage (device tool, .whl/ and .vendors/ carried): h100_3xtf32_promoted.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
started=$SECONDS
build_only "$commit"
build/tests/test_gpu_backends --test-case-exclude="*cublasmp*" > "$out/logs/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(grep -E 'test cases:' "$out/logs/test_gpu_backends.log")"
build/tests/test_accuracy -s > "$out/logs/test_accuracy.log" 2>&1
log "test_accuracy exit $?: $(grep -E 'test cases:' "$out/logs/test_accuracy.log")"
for values in uniform reals-1-100; do
  timeout 150 $cli --suite error-vs-k --values "$values" --budget 60 \
    --filter tensor-core-3xtf32,simt-tuned,cublas-fp32,cublaslt-fp32 \
    --format json --out "$out/results/${gpu_tag}_error_vs_k_$values.json" 2>> "$out/logs/runs.log"
  log "error-vs-k $values exit $?"
done
timeout 200 $cli --sizes 1024,2048,4096,8192 --budget 140 --filter $fast --format json \
  --out "$out/results/${gpu_tag}_fast_rows_sizes.json" 2>> "$out/logs/runs.log"
log "sizes exit $?"
sanitize memcheck 100 130 3000 tensor-core-3xtf32 60
sanitize racecheck 100 130 600 tensor-core-3xtf32 150
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
if [ $((SECONDS - started)) -lt ${MUTATE_BEFORE_S:-380} ]; then
  file=src/gpu/hopper/tensor_core_tf32_ws.cu
  cp "$file" /tmp/kept.cu
  sed -i 's/const int promoted_from = kPasses == 3 ? 2 \* k_tiles : steps;/const int promoted_from = steps;/' "$file"
  cmake --build build -j"$(nproc)" --target test_accuracy > "$out/logs/mutation_build.log" 2>&1
  build/tests/test_accuracy > "$out/logs/mutation_test.log" 2>&1
  log "mutation (the big pass in one chain again): test_accuracy exit $? (must be non-zero):" \
    "$(grep -cE 'ERROR' "$out/logs/mutation_test.log") errors"
  cp /tmp/kept.cu "$file"
fi
