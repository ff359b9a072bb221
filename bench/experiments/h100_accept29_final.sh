#!/usr/bin/env bash
# Issue 29's last GPU acceptance run, sized for the few minutes of device time a session had left (2026-11-27):
# a build of the CLI and the GPU test only (no cuBLASMp wheel, no CPU vendor plugins: the multi-GPU and CPU rows
# are not part of it), then `--sizes 1024,2048,4096,8192 --filter gpu`, the odd shape, Nsight Compute on the TF32
# row and cuBLAS TF32 at 8192 (the goal it misses), and test_gpu_backends at the final commit.
# Usage (device tool, .whl/ holding the nvidia-cutlass wheel carried): bench/experiments/h100_accept29_final.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "$(date +%T) $*" | tee -a "$out/steps.txt"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,nounits -lms 100 > "$out/clocks.csv" 2>&1 &
logger=$!
trap 'kill $logger 2>/dev/null' EXIT
rm -rf /tmp/cutlass && python3 -m zipfile -e .whl/nvidia_cutlass-*.whl /tmp/cutlass
log configure
cmake -S . -B build -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DMATCOMPARE_GIT_COMMIT="$commit" \
  -DCUTLASS_INCLUDE_DIR=/tmp/cutlass/cutlass_library/source/include > "$out/build.log" 2>&1 &&
  cmake --build build -j"$(nproc)" --target matcompare_cli test_gpu_backends >> "$out/build.log" 2>&1 ||
  { tail -n 40 "$out/build.log"; exit 1; }
log built
cli=build/apps/matcompare
$cli --sizes 1024,2048,4096,8192 --filter gpu --format json --out "$out/h100_gpu_fastpath.json" 2>> "$out/runs.log"
log "fastpath exit $?"
$cli --m 4097 --n 3001 --k 2049 --filter gpu --format json --out "$out/h100_gpu_odd_shape.json" 2>> "$out/runs.log"
log "odd shape exit $?"
metrics="sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__cluster_dim_x,launch__block_size"
for pair in "tensor_core_tf32_ws tensor-core-tf32-ws" "tf32 cublas-tf32"; do
  set -- $pair
  echo "=== $2" >> "$out/ncu.txt"
  timeout 90 ncu --clock-control none --metrics "$metrics" --kernel-name regex:$1 --launch-skip 6 --launch-count 1 \
    $cli --size 8192 --repetitions 10 --min-time 0 --no-flush --filter $2 >> "$out/ncu.txt" 2>&1
  log "ncu $2 exit $?"
done
timeout 120 build/tests/test_gpu_backends > "$out/test_gpu_backends.log" 2>&1
log "test_gpu_backends exit $?: $(tail -n 3 "$out/test_gpu_backends.log" | tr '\n' ' ')"
