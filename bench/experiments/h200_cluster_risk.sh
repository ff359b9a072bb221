#!/usr/bin/env bash
# Issue 30, 2026-11-29 (thirteenth session): the head checked, and two questions (bench/NOTES.md, "The cluster sum
# where the slots cut the split" and "3xTF32 on large products"). STAGES, comma-separated, in this order: `check`,
# the build and the whole CTest; `sanitize`, memcheck and racecheck on the split TF32 and 3xTF32 kernels, in clusters
# and in planes; `mutate`, the planes' sum broken on purpose (the second split's plane left out), which the planes'
# test must catch; `planes`, the CLI built a second time in /tmp/planes with the TF32 engine as it was at 00f5df2 (a
# split tile's sums in planes and a second kernel: bench/experiments/tf32_planes_00f5df2.patch, which applies to
# f91fb7d's tree, the one it ran on); `cells`, bench/shapes/cluster_risk.txt on the TF32-engine rows and
# their vendors, head and planes in turn, twice; `large`, bench/shapes/three_pass_large.txt on 3xTF32, TF32 and the
# vendors with the GPU's clock, power and throttle reasons sampled every 100 ms; `ncu`, Nsight Compute (its clock
# locked at base, so power plays no part) on the 3xTF32 kernel at those shapes; `tf32ncu`, the same on the TF32
# kernel at two of them, the one-pass engine's L2 beside the three passes'.
# Usage (device tool, .whl carried): h200_cluster_risk.sh OUT COMMIT STAGES
set -uo pipefail
out=$1 commit=$2 stages=,$3,
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,sanitize,* ]]; then
  sanitize memcheck 64 2000 2048 tensor-core-tf32-ws,tensor-core-3xtf32 90  # 64x256 split 8 ways
  MATCOMPARE_TF32_TILE=128x256 sanitize racecheck 17 33 65 tensor-core-tf32-ws,tensor-core-3xtf32 120  # 3 ways
  sanitize memcheck 1000 1001 999 tensor-core-tf32-ws,tensor-core-3xtf32 150  # 256x128, 4 ways in planes
  sanitize racecheck 65 4000 1030 tensor-core-tf32-ws 150  # 128x128, 4 ways in planes (33 k tiles)
fi
if [[ $stages == *,mutate,* ]]; then
  # sum_partials' float4 loop adds the planes from the third on: the second is left out
  edit='/float4 sum = \*reinterpret_cast<const float4\*>(p);/{n;s|int s = 1;|int s = 2;|}'
  mutate src/gpu/hopper/tensor_core_tf32_ws.cu "$edit" "*sums a split in planes*" \
    "planes' sum without the second split's plane"
fi
planes=/tmp/planes/build/apps/matcompare
if [[ $stages == *,planes,* ]]; then
  rm -rf /tmp/planes && mkdir -p /tmp/planes
  tar --exclude=./build -cf - . | tar -C /tmp/planes -xf -
  (cd /tmp/planes && patch -p1 < bench/experiments/tf32_planes_00f5df2.patch > "$out/logs/planes_patch.txt" 2>&1) ||
    log "the planes patch does not apply to this tree (f91fb7d's)"
  # Its tests are the head's, written against the cluster plan: only the CLI is wanted.
  sed -i 's|option(MATCOMPARE_BUILD_TESTS "Build the test suite" ON)|option(MATCOMPARE_BUILD_TESTS "" OFF)|' \
    /tmp/planes/CMakeLists.txt
  (cd /tmp/planes && source bench/gpu_build.sh && gpu_build "$commit-planes" "$out/logs" > "$out/logs/planes.txt" 2>&1)
  log "planes build exit $?: $(ls -la $planes 2>&1 | cut -c1-60)"
fi
rows=tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublaslt-fp32,cublas-tf32,cublaslt-tf32,cutlass
if [[ $stages == *,cells,* ]]; then
  for round in 1 2; do
    for build in head planes; do
      bin=$cli
      [ $build = head ] || bin=$planes
      [ -x "$bin" ] || continue
      timeout 150 $bin --shapes bench/shapes/cluster_risk.txt --filter $rows --budget 45 --format json \
        --out "$out/results/cells_${build}_$round.json" 2>> "$out/logs/runs.log"
      log "cells $build round $round exit $?"
    done
  done
  python3 bench/suite_summary.py "$out/results"/cells_*.json > "$out/logs/cells_summary.txt" 2>&1
  grep -E "^==|^  gpu|x best" "$out/logs/cells_summary.txt" | grep -vE "cublas|cutlass" | cut -c1-100
fi
if [[ $stages == *,large,* ]]; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 100 > "$out/logs/gpu_clock_large.csv" 2>&1 &
  sampler=$!
  timeout 200 $cli --shapes bench/shapes/three_pass_large.txt \
    --filter tensor-core-3xtf32,tensor-core-tf32-ws,cublas-fp32,cublaslt-fp32,cublaslt-tf32 --budget 120 \
    --format json --out "$out/results/large.json" 2>> "$out/logs/runs.log"
  log "large exit $?"
  kill $sampler
  python3 bench/suite_summary.py "$out/results/large.json" > "$out/logs/large_summary.txt" 2>&1
  grep -E "^  gpu|x best" "$out/logs/large_summary.txt" | cut -c1-100
fi
if [[ $stages == *,ncu,* ]]; then
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
  metrics+=,sm__cycles_elapsed.avg.per_second,sm__throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,lts__t_sectors_srcunit_tex_op_read.sum
  while read -r m n k layout _; do
    [[ $m == \#* ]] && continue
    timeout 150 ncu --csv --page raw --kernel-name-base function -k "regex:tensor_core_tf32_ws|k_major" \
      --metrics "$metrics" $cli --m "$m" --n "$n" --k "$k" --layout "$layout" --filter tensor-core-3xtf32 \
      --repetitions 1 --min-time 0 --no-flush > "$out/logs/ncu_3x_${m}x${n}x${k}.csv" \
      2> "$out/logs/ncu_3x_${m}x${n}x${k}.err"
    log "ncu 3xTF32 ${m}x${n}x${k} exit $?"
  done < bench/shapes/three_pass_large.txt
fi
if [[ $stages == *,tf32ncu,* ]]; then
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct
  metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
  for shape in 8192x8192x8192 8192x8192x28672; do
    IFS=x read -r m n k <<< "$shape"
    # The CLI first times a 64-row subset of the product (its estimate), which runs the 64x256 tile: only the full
    # product's 256x128 kernel is profiled (at 367db85 this stage caught the subset's two launches instead).
    timeout 150 ncu --csv --page raw --kernel-name-base demangled -k "regex:tensor_core_tf32_ws<.int.256" --launch-count 1 \
      --metrics "$metrics" $cli --m "$m" --n "$n" --k "$k" --layout NT --filter tensor-core-tf32-ws --repetitions 1 \
      --min-time 0 --no-flush > "$out/logs/ncu_tf32_$shape.csv" 2> "$out/logs/ncu_tf32_$shape.err"
    log "ncu TF32 $shape exit $?"
  done
fi
