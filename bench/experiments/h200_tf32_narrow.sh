#!/usr/bin/env bash
# Issue 30, 2026-11-29 (twelfth session): where the TF32 row's narrow decode layers lose their time (bench/NOTES.md,
# "The TF32 row's narrow layers"), and the change that adds a split tile's sums in its cluster. STAGES, comma-separated,
# in this order: `check`, the build and the whole CTest; `sanitize`, memcheck and racecheck on the TF32 and 3xTF32 rows
# where K is split (the 64-row tile 8 ways, 128-row tiles 4 and 3 ways); `mutate`, the cluster's sum broken on purpose
# (the last group of 8 rows of a C whose rows end inside it left out), which the 64-row test must catch; `ring`, the
# narrow cells with the ring of shared memory at 192 and 220 KiB (five stages of the 64-row tile); `timeline`, the
# narrow NT cells on the TF32 row and its vendors through the CLI (event medians) and, per kernel, under Nsight Systems
# where the machine has it (launch gaps included) and Nsight Compute (each kernel's duration, L2 flushed); `ncu`,
# Nsight Compute's sections and source counters on the 64-row tile's kernel at 64x6144x4096 NT; `suites`, the suites
# NAME:BUDGET given.
# Usage (device tool, .whl carried): h200_tf32_narrow.sh OUT COMMIT STAGES [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stages=,$3,
shift 3
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,sanitize,* ]]; then
  sanitize memcheck 64 2000 2048 tensor-core-tf32-ws,tensor-core-3xtf32 90  # 64x256 split 8 ways
  sanitize racecheck 40 700 300 tensor-core-tf32-ws 120  # 3 tiles of 64x256, K split 8 ways
  MATCOMPARE_TF32_TILE=128x128 sanitize memcheck 100 1000 1000 tensor-core-tf32-ws,tensor-core-3xtf32 120  # 4 ways
  MATCOMPARE_TF32_TILE=128x256 sanitize racecheck 17 33 65 tensor-core-tf32-ws,tensor-core-3xtf32 120  # 3 ways
fi
if [[ $stages == *,mutate,* ]]; then
  mutate src/gpu/hopper/tensor_core_tf32_ws.cu 's|(m - row0 + 7) / 8);|(m - row0) / 8);|' \
    "*C of at most 64 rows on its 64-row tile*" "cluster sum without a C's last partial group of 8 rows"
fi
# The narrow NT cells on the TF32 row and its vendors through the CLI, into logs/narrow_LABEL.csv.
narrow_cells() {
  timeout 120 $cli --m 16,16,64,64 --n 4096,6144,4096,6144 --k 4096,4096,4096,4096 --layout NT \
    --filter tensor-core-tf32-ws,cublaslt-tf32,cublas-tf32 --budget 40 --format csv > "$out/logs/narrow_$1.csv" \
    2>> "$out/logs/runs.log"
  log "narrow cells $1 exit $?"
  grep -E "^gpu/tensor-core-tf32-ws" "$out/logs/narrow_$1.csv" | cut -d, -f1,4-6,10,17,18,26
}
if [[ $stages == *,ring,* ]]; then
  # The ring of shared memory grown from 192 to 220 KiB: five stages of the 64-row tile instead of four (the other
  # tiles keep theirs), its B streams further ahead; the 64-row test on it, then the cells beside the build as it was.
  narrow_cells ring192
  cp src/gpu/hopper/tensor_core_tf32_ws.cu /tmp/ring.kept
  sed -i 's|constexpr int kRingBytes = 192 \* 1024;|constexpr int kRingBytes = 220 * 1024;|' \
    src/gpu/hopper/tensor_core_tf32_ws.cu
  cmake --build build -j"$(nproc)" > "$out/logs/ring_build.log" 2>&1
  log "ring 220 KiB build exit $?"
  build/tests/test_gpu_backends --test-case="*C of at most 64 rows on its 64-row tile*" > "$out/logs/ring_test.log" 2>&1
  log "ring 220 KiB 64-row test exit $?: $(grep -E 'test cases:' "$out/logs/ring_test.log")"
  narrow_cells ring220
  cp /tmp/ring.kept src/gpu/hopper/tensor_core_tf32_ws.cu
  cmake --build build -j"$(nproc)" > "$out/logs/ring_restore.log" 2>&1
  log "ring restored build exit $?"
fi
if [[ $stages == *,timeline,* ]]; then
  narrow_cells cli
  for shape in 16x4096x4096 64x6144x4096; do
    IFS=x read -r m n k <<< "$shape"
    for row in tensor-core-tf32-ws cublaslt-tf32; do
      if command -v nsys > /dev/null; then
        timeout 120 nsys profile -t cuda -o "$out/results/nsys_${row}_$shape" -f true $cli --m "$m" --n "$n" \
          --k "$k" --layout NT --filter "$row" --repetitions 30 --min-time 0 > "$out/logs/nsys_${row}_$shape.log" 2>&1
        log "nsys $row $shape exit $?"
        nsys stats -r cuda_gpu_trace -f csv -o "$out/logs/trace_${row}_$shape" \
          "$out/results/nsys_${row}_$shape.nsys-rep" > /dev/null 2>&1
      fi
      timeout 120 ncu --csv \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
        --page raw $cli --m "$m" --n "$n" --k "$k" --layout NT --filter "$row" --repetitions 3 --min-time 0 \
        > "$out/logs/ncu_times_${row}_$shape.csv" 2> "$out/logs/ncu_times_${row}_$shape.err"
      log "ncu times $row $shape exit $?"
    done
  done
  command -v nsys > /dev/null || log "no nsys on this machine"
fi
if [[ $stages == *,ncu,* ]]; then
  # Where the 64-row tile's blocks wait at 64x6144x4096 NT (four ways, 96 blocks of 64x256).
  timeout 120 ncu --kernel-name-base function -k "regex:tensor_core_tf32_ws" --launch-count 1 --import-source no \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
    --section LaunchStats --section SchedulerStats --section SourceCounters -o "$out/results/tf32_64x6144x4096" \
    $cli --m 64 --n 6144 --k 4096 --layout NT --filter tensor-core-tf32-ws --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_tf32_64x6144x4096.log" 2>&1
  log "ncu tf32 64x6144x4096 exit $?"
  ncu --import "$out/results/tf32_64x6144x4096.ncu-rep" --page details > "$out/logs/details_tf32_64x6144x4096.txt" 2>&1
  ncu --import "$out/results/tf32_64x6144x4096.ncu-rep" --page source --csv --print-source sass \
    > "$out/logs/sass_tf32_64x6144x4096.csv" 2>&1
  python3 bench/ncu_stalls.py "$out/logs/sass_tf32_64x6144x4096.csv" > "$out/logs/stalls_tf32_64x6144x4096.txt" 2>&1
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Issued Warp|No Eligible" \
    "$out/logs/details_tf32_64x6144x4096.txt" | head -8
fi
if [[ $stages == *,suites,* ]]; then
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
  grep -E "^==|geometric mean" "$out/logs/summary.txt"
fi
