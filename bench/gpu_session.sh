#!/usr/bin/env bash
# Everything one GPU-machine session needs, in one call (the device tool returns at most 8 files).
#   bench/gpu_session.sh OUT_DIR COMMIT check   build, every test, memcheck + racecheck on every GPU step
#                                               but gpu/cublasmp-fp32, whose workers have their own mode:
#   bench/gpu_session.sh OUT_DIR COMMIT check-workers  memcheck of gpu/cublasmp-fp32's worker processes
#   bench/gpu_session.sh OUT_DIR COMMIT bench   the runs behind report/: --all at 2048, a repeat of the
#                                               GPU rows at 2048, --filter gpu at 4096, the GPU sweep,
#                                               seed 000's 2048x2048x1024, an independent cuBLAS timing
#   bench/gpu_session.sh OUT_DIR COMMIT tune    matcompare-tune rewrites this GPU's rows of
#                                               src/gpu/simt/simt_tuning_table.inc (copied to OUT_DIR), then rebuilds
#   bench/gpu_session.sh OUT_DIR COMMIT fastpath  the GPU rows at 1024..8192 and 4097x3001x2049 (issue 7's runs)
#   bench/gpu_session.sh OUT_DIR COMMIT tiles   the TF32 engine's rows with each block tile held
#                                               (MATCOMPARE_TF32_TILE) beside cuBLAS, 1024..8192 and 4097x3001x2049
#   bench/gpu_session.sh OUT_DIR COMMIT profile Nsight Compute on the fast-path kernels and cuBLAS at 4096
#   bench/gpu_session.sh OUT_DIR COMMIT multi   the multi-GPU rows beside 1-GPU cuBLAS at 4096 and 8192 on
#                                               every GPU here (on one GPU: cuBLASMp as one rank)
#   bench/gpu_session.sh OUT_DIR COMMIT every-row  issue 9's runs: --size 2048 --all timed by the wall clock,
#                                               and the CPU rows over 512..2560 on seed 003's values (reals in 1..100)
#   bench/gpu_session.sh OUT_DIR COMMIT vendors  issue 29's check: the cuBLAS and cuBLASLt rows at 1024..8192 and
#                                               7680x16x2560 beside the same calls timed by
#                                               build/bench/matcompare-independent-vendors; prints each row's figure
#                                               over the independent one (within 3% is the goal)
#   bench/gpu_session.sh OUT_DIR COMMIT sustained  the vendors at 4096 and 8192 run back to back for 2 s with every
#                                               sample kept (no clock guard): what a GEMM that runs on and on gets
#   bench/gpu_session.sh OUT_DIR COMMIT host-vendors  the CPU rows that compete for the best CPU vendor (cpu/blis,
#                                               OpenBLAS, BLIS, oneMKL) at 2048 and 4096 on the host, all threads and one
# Every mode's steps are marked in logs/steps.txt and the GPU's clock, power and temperature are logged every 50 ms
# (logs/clocks.csv); logs/clocks_summary.txt, printed at the end, gives each step's clock under load.
# Modes combine in one call, in the order given: tune,check,fastpath. Through the device tool, run it as
# `timeout -s TERM <a minute under the call's limit> bench/gpu_session.sh ...` and without a pipe: a call killed at
# its limit returns nothing, while TERM lets the script pack its logs and results, and a pipe into `tail` holds back
# the progress lines until the end (check,multi,tiles with a cold build took over 590 s on an H100).
# Logs go to OUT_DIR/logs.tar.gz; results (JSON) to OUT_DIR/results.tar.gz; a summary is printed.
set -uo pipefail
out=$1 commit=$2 what=$3
work=$(mktemp -d)
mkdir -p "$work/logs" "$work/results"
# What ran comes back even when a step fails or the run is stopped (timeout sends TERM).
pack() {
  [ -n "${clock_logger:-}" ] && kill "$clock_logger" 2> /dev/null
  if [ -s "$work/logs/clocks.csv" ]; then
    python3 bench/clock_summary.py "$work/logs/steps.txt" "$work/logs/clocks.csv" > "$work/logs/clocks_summary.txt" 2>&1
    cat "$work/logs/clocks_summary.txt"
  fi
  tar -C "$work" -czf "$out/logs.tar.gz" logs; tar -C "$work" -czf "$out/results.tar.gz" results
}
step() { echo "$(date +%s.%N) $*" >> "$work/logs/steps.txt"; }
trap pack EXIT
trap 'exit 143' TERM INT
export PATH=/usr/local/cuda/bin:$PATH
# gpu/cublasmp-fp32 runs NCCL and NVSHMEM: NVLink multicast stays off on these machines.
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1
cli=build/apps/matcompare
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -oE '[HAB][0-9]{2,3}' | head -1 | tr 'A-Z' 'a-z')
tag=${tag:-gpu}

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv > "$work/logs/smi.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,nounits \
  -lms 50 > "$work/logs/clocks.csv" 2> "$work/logs/clocks.err" &
clock_logger=$!
step build
source bench/gpu_build.sh
gpu_build "$commit" "$work/logs" || exit 1

for mode in ${what//,/ }; do
step "$mode"
if [ "$mode" = check ]; then
  ctest --test-dir build --output-on-failure -j4 --timeout 300 > "$work/logs/ctest.log" 2>&1
  grep -E "Test +#|tests passed" "$work/logs/ctest.log"
  # Every GPU row but gpu/cublasmp-fp32 (its NVSHMEM workers under the sanitizer outlast the call: checked on their
  # own in check-workers), every CUDA API error reported. All processes: matcompare sets OpenBLAS's and OpenMP's
  # wait policies and runs itself again (exec), and the sanitizer counts that image as a child. Each run has a limit,
  # so one hang cannot take the session.
  rows=$($cli --list --filter gpu/ | awk 'NR > 1 && $1 !~ /cublasmp/ {print $1}' | paste -sd,)
  for tool in memcheck racecheck; do
    timeout -s INT 200 compute-sanitizer --tool $tool --error-exitcode 9 --target-processes all \
      $cli --m 67 --n 45 --k 33 --alpha 0.5 --beta 2 --filter "$rows" --repetitions 1 --min-time 0 --no-flush --format csv \
      > "$work/logs/sanitizer_$tool.log" 2>&1
    echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitizer_$tool.log" | tail -1)"
    echo "  rows passed: $(grep -c ',passed,' "$work/logs/sanitizer_$tool.log")"
  done
fi
if [ "$mode" = check-workers ]; then
  # gpu/cublasmp-fp32's worker processes: memory errors only. NCCL's set-up probes kernels its image lacks for this
  # GPU with cudaFuncGetAttributes and handles the error (88 such reports on an H100, none from our code). At
  # 48c2eb4 on an H100 this run had not finished after 120 s.
  timeout -s INT 400 compute-sanitizer --tool memcheck --error-exitcode 9 --target-processes all --report-api-errors no \
    $cli --m 67 --n 45 --k 33 --alpha 0.5 --beta 2 --filter cublasmp --repetitions 1 --min-time 0 --no-flush --format csv \
    > "$work/logs/sanitizer_memcheck_workers.log" 2>&1
  echo "memcheck of the cuBLASMp workers exit $?: $(grep -E 'ERROR SUMMARY' "$work/logs/sanitizer_memcheck_workers.log" | tail -1)"
fi

if [ "$mode" = bench ]; then
  run() { local name=$1; shift; step "$name"; $cli "$@" --format json --out "$work/results/$name.json" 2>> "$work/logs/runs.log"; echo "$name exit $?"; }
  run ${tag}_all_2048 --size 2048 --all
  run ${tag}_gpu_2048_repeat --size 2048 --filter gpu
  run ${tag}_gpu_4096 --size 4096 --filter gpu
  run ${tag}_gpu_sweep --sizes 512,1024,1536,2048,2560,3072,4096 --filter gpu
  run ${tag}_gpu_seed000_shape --m 2048 --n 2048 --k 1024 --filter gpu
  python3 bench/independent_cublas.py 2048 4096 > "$work/results/independent_cublas.jsonl" 2>> "$work/logs/runs.log"
  python3 bench/compare_runs.py "$work/results" > "$work/results/checks.txt"  # whole, whatever reads stdout
  cat "$work/results/checks.txt"
fi
if [ "$mode" = tune ]; then
  build/apps/matcompare-tune --sizes 1024,2048,4096,8192 --table src/gpu/simt/simt_tuning_table.inc > "$work/logs/tune.log" 2>&1
  echo "tune exit $?"; grep -E "best" "$work/logs/tune.log"
  cp src/gpu/simt/simt_tuning_table.inc "$out/"
  cmake --build build -j"$(nproc)" >> "$work/logs/build.log" 2>&1 || echo "rebuild with the new table failed"
fi

if [ "$mode" = fastpath ]; then
  run() { local name=$1; shift; step "$name"; $cli "$@" --format json --out "$work/results/$name.json" 2>> "$work/logs/runs.log"; echo "$name exit $?"; }
  run ${tag}_gpu_fastpath --sizes 1024,2048,4096,8192 --filter gpu
  run ${tag}_gpu_odd_shape --m 4097 --n 3001 --k 2049 --filter gpu
  python3 - "$work/results" <<'PY'
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("*_gpu_*.json")):
    for r in json.load(open(f))["results"]:
        print(f"{r['backend']:28s} {r['m']}x{r['n']}x{r['k']} {r['status']:6s} {r['gflops'] or 0:9.0f} "
              f"x{r['vs_vendor'] or 0:.3f} xp{r['vs_precision_vendor'] or 0:.3f}")
PY
fi

if [ "$mode" = tiles ]; then
  for tile in 256x128 128x256 128x128; do
    for shape in "--sizes 1024,2048,4096,8192" "--m 4097 --n 3001 --k 2049"; do
      MATCOMPARE_TF32_TILE=$tile $cli $shape --filter tensor-core-tf32-ws,3xtf32,cublas-fp32,cublas-tf32 \
        --format csv 2>> "$work/logs/runs.log" | sed "s/^/$tile,/" >> "$work/results/${tag}_tf32_tiles.csv"
    done
  done
  python3 - "$work/results/${tag}_tf32_tiles.csv" <<'PY'
import csv, sys
# Columns by name (each line is the tile, then matcompare's CSV row; its header repeats per call).
lines = list(csv.reader(open(sys.argv[1])))
header = next(["tile"] + r[1:] for r in lines if len(r) > 2 and r[1] == "backend")
for r in lines:
    if len(r) > 2 and r[1] != "backend":
        c = dict(zip(header, r))
        if "tf32-ws" in c["backend"] or "3xtf32" in c["backend"]:
            print(f"{c['tile']:8s} {c['backend']:24s} {c['m']}x{c['n']}x{c['k']} {float(c['gflops'] or 0):9.0f} GFLOP/s "
                  f"x{float(c['vs_vendor'] or 0):.3f} xp{float(c['vs_precision_vendor'] or 0):.3f} {c['disposition']}")
PY
fi

if [ "$mode" = every-row ]; then
  step "--size 2048 --all"
  start=$(date +%s.%N)
  $cli --size 2048 --all --format json --out "$work/results/${tag}_all_2048.json" 2>> "$work/logs/runs.log"
  echo "--size 2048 --all exit $?, wall $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
  step "seed 003 values"
  $cli --sizes 512,1024,1536,2048,2560 --filter cpu/ --values reals-1-100 --format json \
    --out "$work/results/${tag}_cpu_seed003_values.json" 2>> "$work/logs/runs.log"
  echo "seed 003 values exit $?"
  python3 - "$work/results" <<'PY'
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    rows = json.load(open(f))["results"]
    print(f.name, {s: sum(r["status"] == s for r in rows) for s in {r["status"] for r in rows}})
PY
fi

if [ "$mode" = vendors ]; then
  # The single-GPU vendor rows only (cublas-, cublaslt-): the multi-GPU rows that --filter cublas would also take
  # have no independent counterpart here and cost minutes (cuBLASMp's workers).
  step "independent vendors"
  build/bench/matcompare-independent-vendors 1024 2048 4096 8192 7680x16x2560 \
    > "$work/results/independent_vendors.jsonl" 2>> "$work/logs/runs.log"
  echo "independent exit $?"
  step "matcompare vendors"
  $cli --sizes 1024,2048,4096,8192 --filter cublas-,cublaslt- --format json \
    --out "$work/results/${tag}_vendors.json" 2>> "$work/logs/runs.log"
  echo "matcompare exit $?"
  $cli --m 7680 --n 16 --k 2560 --filter cublas-,cublaslt- --format json \
    --out "$work/results/${tag}_vendors_7680x16x2560.json" 2>> "$work/logs/runs.log"
  echo "matcompare 7680x16x2560 exit $?"
  python3 - "$work/results/independent_vendors.jsonl" "$work/results/${tag}"_vendors*.json <<'PY'
import json, sys
independent = {}
for line in open(sys.argv[1]):
    if line.startswith("{"):
        r = json.loads(line)
        independent[(r["row"], r["m"], r["n"], r["k"])] = r
print(f"{'row':18s} {'shape':>14s} {'matcompare':>10s} {'independent':>11s} {'ratio':>6s}  clocks, dropped rounds; kernel (matcompare | independent)")
for path in sys.argv[2:]:
    for r in json.load(open(path))["results"]:
        shape = f"{r['m']}x{r['n']}x{r['k']}"
        other = independent.get((r["backend"], r["m"], r["n"], r["k"]))
        mine = (r["gflops"] or 0) / 1000
        theirs = other["tflops"] if other else 0
        ratio = mine / theirs if theirs else 0
        flag = "" if ratio and abs(ratio - 1) <= 0.03 else " <- outside 3%"
        clocks = f"{r.get('clock_mhz') or 0:.0f}/{other.get('clock_mhz', 0) if other else 0:.0f} MHz " \
                 f"{r.get('throttled_rounds', 0)}/{other.get('dropped_at_lowered_clock', 0) if other else 0}"
        print(f"{r['backend']:18s} {shape:>14s} {mine:8.1f}TF {theirs:9.1f}TF {ratio:6.3f}{flag}  {clocks}; "
              f"{r['status']} {r.get('kernel') or '-'} | {(other['algo'] or '-') if other else '-'}")
PY
fi

if [ "$mode" = sustained ]; then
  # What back-to-back runs get: the independent program keeping every sample (no clock guard) for 2 s of timed work.
  step "independent --sustained"
  build/bench/matcompare-independent-vendors --sustained --min-time 2 4096 8192 \
    > "$work/results/independent_sustained.jsonl" 2>> "$work/logs/runs.log"
  echo "independent --sustained exit $?"
  python3 - "$work/results/independent_sustained.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if line.startswith("{"):
        r = json.loads(line)
        print(f"sustained {r['row']:18s} {r['m']:5d} {r['tflops']:7.1f} TF  clock {r['clock_mhz']:.0f} MHz  "
              f"first tenth {r['first_tenth_ms']:.4f} ms last tenth {r['last_tenth_ms']:.4f} ms  {r['samples']} samples")
PY
fi

if [ "$mode" = host-vendors ]; then
  rows=cpu/blis,cpu/openblas,cpu/libblis,cpu/onemkl
  for threads in 0 1; do
    step "host-vendors threads $threads"
    $cli --sizes 2048,4096 --filter $rows --threads $threads --format json \
      --out "$work/results/${tag}_host_vendors_threads_$threads.json" 2>> "$work/logs/runs.log"
    echo "host vendors threads $threads exit $?"
  done
  python3 - "$work/results"/${tag}_host_vendors_threads_*.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    for r in d["results"]:
        print(f"{path.rsplit('_', 1)[1][:-5]:>2} threads {r['backend']:14s} {r['m']:5d} {r['status']:6s} "
              f"{r['gflops'] or 0:8.0f} GFLOP/s x vendor {r['vs_vendor'] or 0:.3f} x best {r.get('vs_best_vendor') or 0:.3f} "
              f"({r.get('best_vendor') or '-'}) {r.get('kernel') or ''}")
PY
fi

if [ "$mode" = multi ]; then
  $cli --sizes 4096,8192 --devices all --filter cublas --format json --out "$work/results/${tag}_multi_gpu.json" \
    2>> "$work/logs/runs.log"
  echo "multi exit $?"
  python3 - "$work/results/${tag}_multi_gpu.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['backend']:20s} {r['devices'] or '-'} GPU {r['m']} {r['status']:6s} {r['median_ms'] or 0:9.2f} ms "
          f"total {r['total_ms'] or 0:9.2f} ms {r['gflops'] or 0:7.0f} GFLOP/s speedup {r['speedup'] or 0:.2f} "
          f"({r['speedup_basis'] or '-'}) pass {r['passed']}")
PY
fi

if [ "$mode" = profile ]; then
  profile="ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
           --section Occupancy --section WarpStateStats --section SchedulerStats --launch-skip 12 --launch-count 1
           --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,regex:sm__pipe_tensor.*cycles_active\.avg\.pct_of_peak_sustained_active"
  for pair in "simt_tuned simt-tuned" "gemm cublas-fp32" "tf32 cublas-tf32" "tensor_core_tf32_ws tensor-core-tf32-ws" \
              "tensor_core_tf32_ws 3xtf32"; do
    set -- $pair
    echo "=== $2" >> "$work/logs/ncu.txt"
    $profile --kernel-name regex:$1 $cli --size 4096 --repetitions 30 --min-time 0 --no-flush --filter $2 \
      >> "$work/logs/ncu.txt" 2>&1
  done
  cp "$work/logs/ncu.txt" "$out/"
fi
done
