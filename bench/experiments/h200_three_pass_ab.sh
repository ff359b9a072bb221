#!/usr/bin/env bash
# Issues 30 and 31, 2026-11-29 (fourteenth session): 3xTF32's large products read 1.75 x the best FP32 vendor at
# 8192^3 at f91fb7d and 2.56 at 7acd880, the three-pass kernel's DRAM reads under Nsight Compute 37 GB against 7.4
# (bench/NOTES.md, "3xTF32 on large products"), with that kernel's code the same but for two parameters and a branch
# it never takes. This separates the code from the machine's state in one call: the CLI built at the tree carried (B)
# and again with src/gpu/hopper as it was at f91fb7d (A: experiments/hopper_at_f91fb7d.patch, tests off), then
# bench/ab_libs.sh swaps the two libraries, ROUNDS rounds (2 unless given), on shapes/three_pass_large.txt with 3xTF32
# and the FP32 vendors, and Nsight Compute reads the kernel's DRAM bytes once per side at 8192^3. Same figures on both
# sides: the machine; A slower on every round: the code.
# Usage (device tool, .whl carried): h200_three_pass_ab.sh OUT COMMIT [ROUNDS]
set -uo pipefail
out=$1 commit=$2 rounds=${3:-2}
source bench/device_out.sh
build_only "$commit"
rm -rf /tmp/three_a && mkdir -p /tmp/three_a
tar --exclude=./build --exclude=./build-cpu -cf - . | tar -C /tmp/three_a -xf -
(cd /tmp/three_a && patch -p1 < bench/experiments/hopper_at_f91fb7d.patch > "$out/logs/patch_a.log" 2>&1) ||
  { log "the patch does not apply"; exit 1; }
sed -i 's|option(MATCOMPARE_BUILD_TESTS "Build the test suite" ON)|option(MATCOMPARE_BUILD_TESTS "" OFF)|' \
  /tmp/three_a/CMakeLists.txt
(cd /tmp/three_a && source bench/gpu_build.sh && gpu_build "$commit-hopper-f91fb7d" "$out/logs" > "$out/logs/a.txt" 2>&1) ||
  { log "build A failed"; exit 1; }
log "built A (src/gpu/hopper at f91fb7d) and B ($commit)"
bash bench/ab_libs.sh "$out/results" build/apps /tmp/three_a/build/src build/src "$rounds" \
  --shapes bench/shapes/three_pass_large.txt --filter tensor-core-3xtf32,cublas-fp32,cublaslt-fp32 --budget 40 \
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
    --n 8192 --k 8192 --layout NT --filter tensor-core-3xtf32 --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_$side.csv" 2> "$out/logs/ncu_$side.err"
  log "ncu $side exit $?"
done
