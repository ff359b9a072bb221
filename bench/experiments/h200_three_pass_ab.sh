#!/usr/bin/env bash
# Issues 30 and 31, 2026-11-29 (fourteenth and fifteenth sessions): 3xTF32's large products with the tree carried (B)
# against the same tree with PATCH applied (A), in one call, so that both meet the same machine: the CLI built at
# each, bench/ab_libs.sh swapping the two libraries ROUNDS times (2 unless given) over shapes/three_pass_large.txt with
# 3xTF32 and the FP32 vendors, and Nsight Compute's DRAM bytes, L2 hit rate and SM throughput for the three-pass
# kernel at 8192^3 once per side. PATCH: experiments/hopper_at_f91fb7d.patch (src/gpu/hopper as at f91fb7d: was the
# 1.75 -> 2.56 between two sessions the code? bench/NOTES.md, "3xTF32 on large products") or
# experiments/three_pass_waves_off.patch (the waves in step taken out: "3xTF32's waves in step"). With `check` last,
# B is tested first: test_gpu_backends, test_accuracy, test_tuning_table, and memcheck on 3xTF32 at a product of
# several waves (2000x2200x70 on 256x128 tiles: 144 tiles) in every layout. ROW and VENDORS, when set, name another
# row of the engine and its vendors: ROW=tensor-core-tf32-ws VENDORS=cublas-tf32,cublaslt-tf32,cutlass-tf32 with
# experiments/tf32_waves_on.patch (A: the one-pass kernel's waves in step too). SHAPES, when set, names another shapes
# file: shapes/tf32_waves_layouts.txt with experiments/tf32_waves_in_scratch.patch adds the TN products that the
# wave count ahead of A's copy slowed (bench/NOTES.md, "The TF32 row's waves in step").
# Usage (device tool, .whl carried): [ROW=… VENDORS=… SHAPES=…] h200_three_pass_ab.sh OUT COMMIT PATCH [ROUNDS] [check]
set -uo pipefail
out=$1 commit=$2 patch=$3 rounds=${4:-2} stage=${5:-}
row=${ROW:-tensor-core-3xtf32} vendors=${VENDORS:-cublas-fp32,cublaslt-fp32}
source bench/device_out.sh
build_only "$commit"
if [ "$stage" = check ]; then
  gpu_tests
  build/tests/test_tuning_table > "$out/logs/test_tuning_table.log" 2>&1
  log "test_tuning_table exit $?: $(grep -E 'test cases:' "$out/logs/test_tuning_table.log")"
  MATCOMPARE_TF32_TILE=256x128 sanitize memcheck 2000 2200 70 tensor-core-3xtf32 150
fi
rm -rf /tmp/three_a && mkdir -p /tmp/three_a
tar --exclude=./build --exclude=./build-cpu -cf - . | tar -C /tmp/three_a -xf -
(cd /tmp/three_a && patch -p1 < "$patch" > "$out/logs/patch_a.log" 2>&1) || { log "the patch does not apply"; exit 1; }
sed -i 's|option(MATCOMPARE_BUILD_TESTS "Build the test suite" ON)|option(MATCOMPARE_BUILD_TESTS "" OFF)|' \
  /tmp/three_a/CMakeLists.txt
label=$(basename "$patch" .patch)
(cd /tmp/three_a && source bench/gpu_build.sh && gpu_build "$commit-$label" "$out/logs" > "$out/logs/a.txt" 2>&1) ||
  { log "build A failed"; exit 1; }
log "built A ($label) and B ($commit)"
bash bench/ab_libs.sh "$out/results" build/apps /tmp/three_a/build/src build/src "$rounds" \
  --shapes "${SHAPES:-bench/shapes/three_pass_large.txt}" --filter "$row,$vendors" --budget 30 \
  > "$out/logs/ab.txt" 2>&1
log "A/B done"
cat "$out/logs/ab.txt"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
for side in A B; do
  lib=build/src
  [ $side = A ] && lib=/tmp/three_a/build/src
  LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 150 ncu --csv --page raw --kernel-name-base demangled \
    -k "regex:tensor_core_tf32_ws<.int.256" --launch-skip 4 --launch-count 3 --metrics "$metrics" $cli --m 8192 \
    --n 8192 --k 8192 --layout NT --filter "$row" --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_$side.csv" 2> "$out/logs/ncu_$side.err"
  log "ncu $side exit $?"
done
