#!/usr/bin/env bash
# Issue 8's CPU runs on a machine's host CPU, in one call:
#   bench/cpu_session.sh OUT_DIR COMMIT sweep [cmake flags...]   CPU tests (every micro-kernel this CPU has), then
#                                       cpu/blis at 2048 under block-size and micro-kernel overrides, one thread
#                                       and all cores, each paired with OpenBLAS (SWEEP="A=1 B=2" sets the overrides)
#   bench/cpu_session.sh OUT_DIR COMMIT accept [cmake flags...]  the acceptance runs: --sizes 512..4096 on all cores
#                                       and on one thread (cpu/blis and OpenBLAS), --size 2048 --all, and cpu/blis
#                                       with OpenBLAS alone again after it
# Results (JSON) in OUT_DIR/results.tar.gz, logs in OUT_DIR/logs.tar.gz; a summary is printed.
set -uo pipefail
out=$1 commit=$2 what=$3
shift 3
work=$(mktemp -d)
mkdir -p "$work/logs" "$work/results"
# What ran comes back even when a step fails or the run is stopped (timeout sends TERM).
pack() { tar -C "$work" -czf "$out/logs.tar.gz" logs; tar -C "$work" -czf "$out/results.tar.gz" results; }
trap pack EXIT
trap 'exit 143' TERM INT
cli=build/apps/matcompare
export PATH=/usr/local/cuda/bin:$PATH
arch=()
command -v nvcc > /dev/null && arch=(-DCMAKE_CUDA_ARCHITECTURES=90a)

{ lscpu; nproc; } > "$work/logs/cpu.txt"
grep -E "Model name|^CPU\(s\)|L1d|L2|L3" "$work/logs/cpu.txt"
cmake -S . -B build -G Ninja "${arch[@]}" -DMATCOMPARE_GIT_COMMIT="$commit" "$@" > "$work/logs/configure.log" 2>&1 &&
  cmake --build build -j"$(nproc)" > "$work/logs/build.log" 2>&1 || { tail -40 "$work/logs/build.log"; exit 1; }

row() {  # the cpu/blis and cpu/openblas rows of a JSON run: GFLOP/s and the paired ratio
  python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["backend"] in ("cpu/blis", "cpu/openblas"):
        print(f"  {r['backend']:13s} {r['m']}x{r['n']}x{r['k']} {r['status']:6s} {r['gflops'] or 0:8.1f} GFLOP/s "
              f"x{r['vs_vendor'] or 0:.3f} [{r.get('vs_vendor_q1') or 0:.3f}-{r.get('vs_vendor_q3') or 0:.3f}]")
PY
}
run() { local name=$1; shift; "$@" --format json --out "$work/results/$name.json" 2>> "$work/logs/runs.log"; echo "$name exit $?"; row "$work/results/$name.json"; }

if [ "$what" = sweep ]; then
  build/tests/test_cpu_backends > "$work/logs/test_cpu_backends.log" 2>&1
  echo "test_cpu_backends exit $?: $(grep -E 'MESSAGE|test cases' "$work/logs/test_cpu_backends.log" | tr '\n' ' ')"
  echo "default: $($cli --size 64 --filter cpu/blis 2>&1 | grep -o 'cpu/blis [a-z0-9+]* .*')"
  for threads in 1 0; do
    for setting in ${SWEEP:-AS_BUILT=1 MATCOMPARE_BLIS_BLOCKS=256,252,4096 MATCOMPARE_BLIS_BLOCKS=384,252,4096 \
                   MATCOMPARE_BLIS_BLOCKS=384,504,4096 MATCOMPARE_MICROKERNEL=avx2+fma}; do
      echo "threads $threads ${setting:-default}"
      run "sweep_t${threads}_${setting//[=,+]/_}" env $setting $cli --size 2048 --filter cpu/blis --threads $threads
    done
  done
fi

if [ "$what" = accept ]; then
  echo "cpu/blis here: $($cli --size 64 --filter cpu/blis 2>&1 | grep -o 'cpu/blis [a-z0-9+]* .*')"
  run cpu_all_cores $cli --sizes 512,1024,2048,4096 --filter cpu/blis,cpu/openblas
  run cpu_one_thread $cli --sizes 512,1024,2048,4096 --filter cpu/blis,cpu/openblas --threads 1
  run all_2048 $cli --size 2048 --all
  run alone_after_all $cli --size 2048 --filter cpu/blis,cpu/openblas
fi
