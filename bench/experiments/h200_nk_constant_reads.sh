#!/usr/bin/env bash
# Issue 30, 2026-11-28 (seventh session): B's [n][k] tile read at constant offsets (bench/NOTES.md, "B's [n][k] tile
# read at constant offsets"). Stage `check`: the build, the GPU backends' tests and the accuracy targets, test_harness
# four times under -j4 load (it failed once so in run 1), memcheck and racecheck on 64- and 128-row products in every
# layout and memcheck on every variant through the tuner's probe, then the probe of the decode suites' 64-row
# products in NT and of two in NN. Stage `suites`: the 8B and 70B decode suites on the warm build, then B's copy K×N
# turned off (bench/experiments/simt_copy_b_off.patch) and the prefill suites' NT products probed with and without it.
# Usage (device tool, .whl carried): h200_nk_constant_reads.sh OUT COMMIT check|suites
set -uo pipefail
out=$1 commit=$2 stage=$3
source bench/device_out.sh
if [ "$stage" = check ]; then
  build_only "$commit"
  gpu_tests
  sanitize memcheck 64 1000 300 simt-tuned,tensor-core-3xtf32 60
  sanitize racecheck 64 520 200 simt-tuned 90
  sanitize memcheck 200 333 129 simt-tuned 40
  memcheck_probe 128 1000 300 NT,TT
  $tune --m 64 --n 6144,28672,57344,128256 --k 4096,4096,8192,8192 --layout NT --min-time 0.05 \
    > "$out/logs/probe_nt.log" 2>&1
  log "probe NT exit $?"
  $tune --m 64 --n 28672,57344 --k 4096,8192 --layout NN --min-time 0.05 > "$out/logs/probe_nn.log" 2>&1
  log "probe NN exit $?"
  grep -A4 "ranked" "$out/logs/probe_nt.log" "$out/logs/probe_nn.log"
  for i in 1 2; do
    ctest --test-dir build -j4 --timeout 150 -R "test_harness|test_cpu_backends|test_cli$|test_gpu_backends" \
      > "$out/logs/harness_load_$i.log" 2>&1
    log "harness under load $i: $(grep -E 'tests passed' "$out/logs/harness_load_$i.log")"
  done
fi
