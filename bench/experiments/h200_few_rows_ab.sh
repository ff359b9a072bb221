#!/usr/bin/env bash
# Issue 30, 2026-11-30 (eighteenth session): the few-rows kernels' change carried in the tree (B: the tile's last
# block issues every load of the partial sums at once; K slices down to 4 k a row of C) against the head before it
# (A), on one warm machine (bench/NOTES.md, "The few-rows tile's last block"). A's library is the one a call before
# left in build/ (at A_COMMIT), copied aside before build/ is built again with the change; where none is left, A is
# built from a copy of the tree with PATCH (the change) reversed. With `check`, B is tested first: test_tuning_table,
# test_gpu_backends' few-rows case, memcheck and racecheck on a split few-rows product (40x1000x999: 3 row chunks,
# 4 slices) in every layout, and the last block's sum broken on purpose (its last slice dropped) must fail the test.
# Then bench/ab_libs.sh, ROUNDS rounds (2 unless given), over shapes/few_rows_last_block.txt with gpu/simt-tuned and
# the FP32 vendors, and Nsight Compute's time of each few-rows kernel at two shapes on each side.
# SHAPES, NCU_SHAPES ("M N K LAYOUT;…"), MUTATION ("SED-EDIT|LABEL", on few_rows.cu), RACECHECK_S and
# SANITIZE_SHAPE ("M N K"), when set, replace the shapes file, the two Nsight Compute shapes, the mutation,
# racecheck's 120 s (it runs the vendors too, 12 rows; 120 s did not always hold them) and the sanitizers' product:
# the nineteenth session's runs (bench/NOTES.md, "The few-rows dot kernel's loads a step ahead") set the first four.
# Usage (device tool, .whl carried): [SHAPES=… NCU_SHAPES=… MUTATION=… RACECHECK_S=… SANITIZE_SHAPE=…]
#   h200_few_rows_ab.sh OUT COMMIT A_COMMIT PATCH [ROUNDS] [check]
set -uo pipefail
out=$1 commit=$2 a_commit=$3 patch=$4 rounds=${5:-2} stage=${6:-}
source bench/device_out.sh
rm -rf /tmp/few_a && mkdir -p /tmp/few_a
if [ -f build/src/libmatcompare.so.0 ] && grep -q "MATCOMPARE_GIT_COMMIT:STRING=$a_commit\$" build/CMakeCache.txt; then
  cp -a build/src/*.so* /tmp/few_a/
  log "A: the library left in build/ at $a_commit"
  a_lib=/tmp/few_a
else
  tar --exclude=./build --exclude=./build-cpu -cf - . | tar -C /tmp/few_a -xf -
  (cd /tmp/few_a && patch -R -p1 < "$patch" > "$out/logs/patch_a.log" 2>&1) || { log "the patch does not reverse"; exit 1; }
  (cd /tmp/few_a && source bench/gpu_build.sh &&
    GPU_BUILD_ARGS=-DMATCOMPARE_BUILD_TESTS=OFF gpu_build "$a_commit" "$out/logs" > "$out/logs/a.txt" 2>&1) ||
    { log "build A failed"; exit 1; }
  log "A: built from the tree with the change reversed"
  a_lib=/tmp/few_a/build/src
fi
build_only "$commit"
if [ "$stage" = check ]; then
  build/tests/test_tuning_table > "$out/logs/test_tuning_table.log" 2>&1
  log "test_tuning_table exit $?: $(grep -E 'test cases:' "$out/logs/test_tuning_table.log")"
  build/tests/test_gpu_backends --test-case="*few-rows kernels*" > "$out/logs/test_few_rows.log" 2>&1
  log "test_gpu_backends few-rows exit $?: $(grep -E 'test cases:|assertions:' "$out/logs/test_few_rows.log" | tr '\n' ' ')"
  read -r sm sn sk <<< "${SANITIZE_SHAPE:-40 1000 999}"
  MATCOMPARE_FEW_ROWS=64 sanitize memcheck "$sm" "$sn" "$sk" simt-tuned 100
  MATCOMPARE_FEW_ROWS=64 sanitize racecheck "$sm" "$sn" "$sk" simt-tuned "${RACECHECK_S:-120}"
  mutation=${MUTATION:-'s/for (int s = 1; s < p.slices; ++s)/for (int s = 1; s < p.slices - 1; ++s)/|the last block drops the last slice'}
  mutate src/gpu/simt/few_rows.cu "${mutation%|*}" "*few-rows kernels*" "${mutation##*|}"  # the label after the last |
fi
bash bench/ab_libs.sh "$out/results" build/apps "$a_lib" build/src "$rounds" \
  --shapes "${SHAPES:-bench/shapes/few_rows_last_block.txt}" --filter simt-tuned,cublas-fp32,cublaslt-fp32 --budget 30 \
  > "$out/logs/ab.txt" 2>&1
log "A/B done"
cat "$out/logs/ab.txt"
for side in A B; do
  lib=build/src
  [ $side = A ] && lib=$a_lib
  IFS=';' read -ra ncu_shapes <<< "${NCU_SHAPES:-16 1760 1760 NN;32 4096 4096 NN}"
  for shape in "${ncu_shapes[@]}"; do
    read -r m n k layout <<< "$shape"
    LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 60 ncu --csv --page raw --kernel-name-base demangled \
      -k "regex:few_rows" --launch-skip 1 --launch-count 2 --metrics gpu__time_duration.sum $cli --m "$m" --n "$n" \
      --k "$k" --layout "$layout" --filter simt-tuned --repetitions 3 --min-time 0 --no-flush \
      > "$out/logs/ncu_${side}_${m}x${n}x${k}_$layout.csv" 2> "$out/logs/ncu_${side}_${m}x${n}x${k}_$layout.err"
    log "ncu $side ${m}x${n}x${k} $layout exit $?"
  done
done
