#!/usr/bin/env bash
# Issue 30's CPU goal on the GPU machine's host (2026-11-28, eighth session): cpu/blis against the CPU vendor libraries
# over DeepBench's inference-device suite (the CPU-sized one), which had run only on the 2-core VMs. The build, then
# the suite within BUDGET seconds, RUNS times (1 unless given); with `ctest` after the budget, the whole CTest suite
# first, with `gpu_tests` the GPU backends' tests and the accuracy targets alone, with `cpu` only the CLI, built
# without CUDA into build-cpu/ (a minute less of device time where no GPU row runs).
# Usage (device tool, .whl carried): h200_host_cpu_suite.sh OUT COMMIT BUDGET [RUNS] [ctest|gpu_tests|cpu]
set -uo pipefail
out=$1 commit=$2 budget=$3 runs=${4:-1}
source bench/device_out.sh
case "${5:-}" in
  ctest) build_and_ctest "$commit" ;;
  gpu_tests) build_only "$commit" && gpu_tests ;;
  cpu)
    [ -d .vendors ] || tar -xJf .whl/vendors.tar.xz
    cmake -S . -B build-cpu -G Ninja -DMATCOMPARE_WITH_CUDA=OFF -DMATCOMPARE_BUILD_TESTS=OFF \
      -DMATCOMPARE_VENDOR_PREBUILT_DIR="$PWD/.vendors" -DMATCOMPARE_GIT_COMMIT="$commit" \
      > "$out/logs/configure.log" 2>&1 &&
      cmake --build build-cpu -j"$(nproc)" --target matcompare_cli > "$out/logs/build.log" 2>&1 || exit 1
    cli=build-cpu/apps/matcompare
    log "built the CLI without CUDA: $(grep -E 'cpu/' "$out/logs/configure.log" | tr '\n' ' ')" ;;
  *) build_only "$commit" ;;
esac
{ lscpu; nproc; uptime; } > "$out/logs/cpu.txt"
for run in $(seq 1 "$runs"); do
  name=${gpu_tag}_host_suite_deepbench-inference-device
  [ "$runs" = 1 ] || name=${name}_run_$run
  timeout $((budget + 60)) $cli --suite deepbench-inference-device --budget "$budget" \
    --filter cpu/blis,cpu/openblas,cpu/onemkl,cpu/libblis --format json --out "$out/results/$name.json" \
    2>> "$out/logs/runs.log"
  log "host CPU suite run $run exit $?"
done
python3 bench/suite_summary.py "$out/results"/*.json > "$out/logs/summary.txt" 2>&1
cat "$out/logs/summary.txt"
