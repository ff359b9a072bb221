# Sourced by the GPU-machine session scripts after `out=$1`: logs/ and results/ under $out, packed on exit into two
# archives (the device tool returns at most 8 files), and log(), which stamps a step into logs/steps.txt.
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out/logs" "$out/results"
pack() {
  tar -C "$out" -czf "$out/logs.tar.gz" logs && tar -C "$out" -czf "$out/results.tar.gz" results &&
    rm -rf "$out/logs" "$out/results"
}
trap pack EXIT
trap 'exit 143' TERM INT
cli=build/apps/matcompare  # the CLI the scripts run
tune=build/apps/matcompare-tune  # the tuner, whose probe forces each gpu/simt-tuned variant
log() { echo "$(date +%T) $*" | tee -a "$out/logs/steps.txt"; }
# The build alone (bench/gpu_build.sh), logged; exits the script when it fails. Usage: build_only COMMIT
build_only() {
  source bench/gpu_build.sh
  log build
  gpu_build "$1" "$out/logs" || exit 1
  log built
}
# The build and the whole CTest suite but the report's (CPU only) and cuBLASMp's (not built
# without its wheel), logged with the output of any failure, the failed tests run again alone; exits the script when
# the build fails. test_harness runs alone first: its budget cases time whole runs, and under -j4 beside tests that
# take all 16 cores each it failed twice (2026-11-28) and passed alone both times.
# Usage: build_and_ctest COMMIT
build_and_ctest() {
  build_only "$1"
  ctest --test-dir build --timeout 150 --output-on-failure -R "^test_harness\$" > "$out/logs/ctest_harness.log" 2>&1
  log "test_harness alone exit $?"
  grep -E "Test +#" "$out/logs/ctest_harness.log"
  ctest --test-dir build -j4 --timeout 150 --output-on-failure -E "test_report|test_gpu_cublasmp|test_harness" \
    > "$out/logs/ctest.log" 2>&1
  local status=$?
  log "ctest exit $status: $(grep -E 'tests passed' "$out/logs/ctest.log")"
  grep -E "Test +#" "$out/logs/ctest.log"
  local failed
  failed=$(grep -oE '[0-9]+ - [a-z_]+ ' "$out/logs/ctest.log" | awk '{print $3}' | paste -sd'|')
  [ -z "$failed" ] || ctest --test-dir build -R "^($failed)\$" --output-on-failure --timeout 150 \
    > "$out/logs/ctest_failed.log" 2>&1
}
# compute-sanitizer's TOOL (memcheck, racecheck) on the rows FILTER names at M x N x K in every layout, alpha 0.5 and
# beta 2, logged with its summary and how many rows passed. Usage: sanitize TOOL M N K FILTER [SECONDS]
sanitize() {
  local tool=$1 m=$2 n=$3 k=$4 filter=$5 seconds=${6:-60}
  local name=sanitizer_${tool}_${m}x${n}x${k}.log
  timeout -s INT "$seconds" compute-sanitizer --tool "$tool" --error-exitcode 9 $cli --m "$m" \
    --n "$n" --k "$k" --layout NN,NT,TN,TT --alpha 0.5 --beta 2 --filter "$filter" --repetitions 1 --min-time 0 \
    --no-flush --format csv > "$out/logs/$name" 2>&1
  log "$tool ${m}x${n}x${k} exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/logs/$name" | tail -1);" \
    "rows passed: $(grep -c ',passed,' "$out/logs/$name")"
}
# memcheck on matcompare-tune's probe of every gpu/simt-tuned variant at M x N x K in LAYOUTS (a comma list), logged
# with its summary. Usage: memcheck_probe M N K LAYOUTS
memcheck_probe() {
  local m=$1 n=$2 k=$3 layouts=$4
  local name=sanitizer_memcheck_probe_${m}x${n}x${k}.log
  timeout -s INT 150 compute-sanitizer --tool memcheck --error-exitcode 9 $tune --m "$m" --n "$n" \
    --k "$k" --layout "$layouts" --min-time 0 > "$out/logs/$name" 2>&1
  log "memcheck probe ${m}x${n}x${k} $layouts exit $?: $(grep -E 'ERROR SUMMARY' "$out/logs/$name")"
}
# test_gpu_backends' case that runs every gpu/simt-tuned variant in every layout, logged.
every_variant_test() {
  build/tests/test_gpu_backends --test-case="*every variant*" > "$out/logs/test_every_variant.log" 2>&1
  log "test_gpu_backends every variant exit $?: $(grep -E 'test cases:' "$out/logs/test_every_variant.log")"
}
# Breaks FILE on purpose with the sed expression EDIT, rebuilds, runs the test binary TEST's cases CASES (it must
# fail), then restores FILE and rebuilds. Usage: mutate_with TEST FILE EDIT CASES LABEL
mutate_with() {
  local test=$1 file=$2 edit=$3 cases=$4 label=$5
  cp "$file" /tmp/mutated.kept
  sed -i "$edit" "$file"
  if cmp -s "$file" /tmp/mutated.kept; then  # a stale pattern would rebuild the same code and read as a missing test
    log "mutation ($label): the edit matched nothing in $file; not run"
    return
  fi
  cmake --build build -j"$(nproc)" > "$out/logs/mutation_build.log" 2>&1
  "build/tests/$test" --test-case="$cases" > "$out/logs/mutation_test.log" 2>&1
  log "mutation ($label): $test exit $? (must be non-zero): $(grep -cE 'ERROR' "$out/logs/mutation_test.log") errors"
  cp /tmp/mutated.kept "$file"
  cmake --build build -j"$(nproc)" > "$out/logs/restore_build.log" 2>&1
  log "restored build exit $?"
}
# The same with the GPU backends' tests. Usage: mutate FILE EDIT CASES LABEL
mutate() { mutate_with test_gpu_backends "$@"; }
# The GPU backends' test cases (but cuBLASMp's, not built without its wheel) and the accuracy targets, logged.
gpu_tests() {
  build/tests/test_gpu_backends --test-case-exclude="*cublasmp*" > "$out/logs/test_gpu_backends.log" 2>&1
  log "test_gpu_backends exit $?: $(grep -E 'test cases:' "$out/logs/test_gpu_backends.log")"
  build/tests/test_accuracy -s > "$out/logs/test_accuracy.log" 2>&1
  log "test_accuracy exit $?: $(grep -E 'test cases:' "$out/logs/test_accuracy.log")"
}
# The error study (suites/error-vs-k.txt) on the GPU fast rows and the vendors, once per value distribution, each run
# within BUDGET seconds and stopped after SECONDS; JSONs in results/. Usage: error_study BUDGET SECONDS
error_study() {
  local budget=$1 seconds=$2 values
  for values in uniform reals-1-100; do
    timeout "$seconds" $cli --suite error-vs-k --values "$values" --budget "$budget" \
      --filter simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass \
      --format json --out "$out/results/${gpu_tag}_error_vs_k_$values.json" 2>> "$out/logs/runs.log"
    log "error-vs-k $values exit $?"
  done
}
# Nsight Compute on gpu/simt-tuned's kernel (whichever of its three the plan launches: a filter naming one missed the
# cut-round kernel once) at M x N x K in LAYOUT, with the memory tables and the source counters: the report in
# results/, its details, its SASS page and where the warps stalled (ncu_stalls.py) in logs/, named by LABEL (the
# layout unless given). Usage: ncu_simt LAYOUT M N K [LABEL]
ncu_simt() {
  local layout=$1 m=$2 n=$3 k=$4 label=${5:-$1}
  local metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed_op_ldgsts.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
  timeout 150 ncu --kernel-name-base function -k "regex:simt_(tuned|cut_round|split_k)_kernel" --launch-count 1 \
    --import-source no --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section SourceCounters --section Occupancy --section LaunchStats \
    --section InstructionStats --metrics "$metrics" -o "$out/results/simt_$label" \
    $cli --m "$m" --n "$n" --k "$k" --layout "$layout" --filter simt-tuned --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_$label.log" 2>&1
  log "ncu $label exit $?"
  ncu --import "$out/results/simt_$label.ncu-rep" --page details > "$out/logs/details_$label.txt" 2>&1
  ncu --import "$out/results/simt_$label.ncu-rep" --page source --csv --print-source sass \
    > "$out/logs/sass_$label.csv" 2>&1
  python3 bench/ncu_stalls.py "$out/logs/sass_$label.csv" > "$out/logs/stalls_$label.txt" 2>&1
}
# The fast rows and the vendors they are compared with, as the suites run them.
fast=simt-tuned,tensor-core-tf32-ws,tensor-core-3xtf32,cublas-fp32,cublas-tf32,cublaslt,cutlass
# h100 or h200, from the GPU's name: the prefix of the result files.
gpu_tag=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -oiE 'h[0-9]+' | head -1 |
  tr 'H' 'h')
gpu_tag=${gpu_tag:-gpu}
# The shipped suite NAME on $fast within BUDGET seconds (the run given SUITE_MARGIN s more, 60 unless set, before it
# is stopped: a stopped run writes no results), its JSON in results/. Usage: suite NAME BUDGET
suite() {
  local name=$1 budget=$2
  timeout $((budget + ${SUITE_MARGIN:-60})) $cli --suite "$name" --budget "$budget" --filter $fast --format json \
    --out "$out/results/${gpu_tag}_$name.json" 2>> "$out/logs/runs.log"
  log "$name exit $?"
}
