#!/usr/bin/env bash
# Issue 30, 2026-11-29 (eleventh session): K split into more parts than slots, in rounds, where fewer tiles than slots
# leave a round part-empty (bench/NOTES.md, "A split that fills the slots"). STAGES, comma-separated, in this order:
# `check`, the build and the whole CTest; `sanitize`, memcheck on the turned path in every layout (64 and 33 rows, K
# past N, a K split, a split in rounds) and racecheck on it; `probe`, the 64-row NT decode products through the
# tuner's probe (the table's choice, turned, beside every variant forced: the A/B in one run) and the short-C class
# tuned again under the new schedule (its rows in results/simt_tuning_table.inc); `ncu`, Nsight Compute on the turned
# product of the two 64-row cells furthest below the vendor after the change; `changed`, the suites' products whose
# schedule the change moves (bench/shapes/split_rounds_changed.txt) on the FP32 rows and the vendors; `tf32`, the TF32
# row's 16- and 64-row decode cells below 0.9 with each tile forced (MATCOMPARE_TF32_TILE) beside the TF32 vendors,
# and Nsight Compute on its kernel at two of them; `suites`, the suites NAME:BUDGET given.
# Usage (device tool, .whl carried): h200_split_rounds.sh OUT COMMIT STAGES [NAME:BUDGET...]
set -uo pipefail
out=$1 commit=$2 stages=,$3,
shift 3
source bench/device_out.sh
if [[ $stages == *,check,* ]]; then
  build_and_ctest "$commit"
fi
[ -x "$cli" ] || build_only "$commit"
if [[ $stages == *,sanitize,* ]]; then
  sanitize memcheck 64 1000 300 simt-tuned,tensor-core-3xtf32 90
  sanitize memcheck 33 777 130 simt-tuned 60
  sanitize memcheck 40 300 1000 simt-tuned 60  # K past N: C^T's B read K rows deep
  sanitize memcheck 100 1001 3000 simt-tuned 60  # turned, K split in one round
  sanitize memcheck 64 25472 1024 simt-tuned 150  # turned, 199 tiles split 3 ways on 396 slots: two rounds of parts
  sanitize racecheck 64 520 200 simt-tuned 90
fi
if [[ $stages == *,probe,* ]]; then
  $tune --m 64 --n 6144,4096,4096,28672,10240,8192,57344,128256 --k 4096,4096,14336,4096,8192,8192,8192,4096 --layout NT \
    --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  grep -E "ranked|the table's choice$|64x128x16_w32x64_l4x8_s4_rowA_b3 g16$|64x256x16_w32x64_l4x8_s3_colA_b2 g16$" \
    "$out/logs/probe_nt.log"
  cp src/gpu/simt/simt_tuning_table.inc "$out/results/simt_tuning_table.inc"
  $tune --m 64 --n 28672 --k 4096 --layout NT --short-class --table "$out/results/simt_tuning_table.inc" \
    > "$out/logs/short_class.log" 2>&1
  log "short-C class tuned exit $?"
  grep -E ", 0, " "$out/results/simt_tuning_table.inc"
fi
if [[ $stages == *,ncu,* ]]; then
  ncu_simt NT 64 4096 14336 NT_64x4096x14336
  ncu_simt NT 64 10240 8192 NT_64x10240x8192
fi
if [[ $stages == *,changed,* ]]; then
  timeout 200 $cli --shapes bench/shapes/split_rounds_changed.txt --budget 120 \
    --filter simt-tuned,tensor-core-3xtf32,cublas-fp32,cublaslt-fp32,cutlass --format json \
    --out "$out/results/${gpu_tag}_split_rounds_changed.json" 2>> "$out/logs/runs.log"
  log "changed shapes exit $?"
  python3 bench/suite_summary.py "$out/results/${gpu_tag}_split_rounds_changed.json" > "$out/logs/summary_changed.txt" 2>&1
  grep -E "x best vendor|geometric mean" "$out/logs/summary_changed.txt"
fi
if [[ $stages == *,tf32,* ]]; then
  for tile in 128x128 128x256 256x128; do
    MATCOMPARE_TF32_TILE=$tile timeout 100 $cli --m 16,16,64,16 --n 6144,4096,6144,10240 --k 4096,14336,4096,8192 \
      --layout NT --filter tensor-core-tf32-ws,cublaslt-tf32,cublas-tf32 --budget 30 --format csv \
      > "$out/logs/tf32_tile_$tile.csv" 2>> "$out/logs/runs.log"
    log "tf32 tile $tile exit $?"
    grep -E "^gpu/tensor-core-tf32-ws" "$out/logs/tf32_tile_$tile.csv" | cut -d, -f4-7,10,16,17,18
  done
  for shape in 16x6144x4096 16x4096x14336; do
    IFS=x read -r m n k <<< "$shape"
    timeout 120 ncu --kernel-name-base function -k "regex:tensor_core_tf32_ws" --launch-count 1 --import-source no \
      --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
      --section LaunchStats --section SchedulerStats -o "$out/results/tf32_$shape" \
      $cli --m "$m" --n "$n" --k "$k" --layout NT --filter tensor-core-tf32-ws --repetitions 1 --min-time 0 --no-flush \
      > "$out/logs/ncu_tf32_$shape.log" 2>&1
    log "ncu tf32 $shape exit $?"
    ncu --import "$out/results/tf32_$shape.ncu-rep" --page details > "$out/logs/details_tf32_$shape.txt" 2>&1
    grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Grid Size|Achieved Occupancy|Stall|Issued Warp" \
      "$out/logs/details_tf32_$shape.txt" | head -14
  done
fi
if [[ $stages == *,suites,* ]]; then
  for run in "$@"; do SUITE_MARGIN=${SUITE_MARGIN:-40} suite "${run%%:*}" "${run##*:}"; done
  python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
  grep -E "^==|geometric mean" "$out/logs/summary.txt"
fi
