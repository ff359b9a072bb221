#!/usr/bin/env bash
# The CPU fast-path runs of issue 8 on a machine's host CPU, in one call:
#   bench/cpu_session.sh OUT_DIR COMMIT [build-flags...]
# builds (CUDA too when nvcc is there), runs the CPU tests (every micro-kernel this CPU has), sweeps cpu/blis's
# block sizes at 2048, then the acceptance runs: --sizes 512..4096 on all cores and 2048/4096 on one thread
# (cpu/blis paired with OpenBLAS), and --size 2048 --all, beside cpu/blis and OpenBLAS alone again.
# JSON goes to OUT_DIR/results, logs to OUT_DIR/logs; a summary is printed.
set -uo pipefail
out=$1 commit=$2
shift 2
mkdir -p "$out/logs" "$out/results"
cli=build/apps/matcompare
export PATH=/usr/local/cuda/bin:$PATH
arch=()
command -v nvcc > /dev/null && arch=(-DCMAKE_CUDA_ARCHITECTURES=90a)

{ lscpu; nproc; } > "$out/logs/cpu.txt"
grep -E "Model name|^CPU\(s\)|L1d|L2|L3|Thread|Socket|MHz" "$out/logs/cpu.txt"
grep -o -w -E "avx512f|avx2|fma" "$out/logs/cpu.txt" | sort -u | tr '\n' ' '; echo
cmake -S . -B build -G Ninja "${arch[@]}" -DMATCOMPARE_GIT_COMMIT="$commit" "$@" > "$out/logs/configure.log" 2>&1 &&
  cmake --build build -j"$(nproc)" > "$out/logs/build.log" 2>&1 || { tail -40 "$out/logs/build.log"; exit 1; }
build/tests/test_cpu_backends > "$out/logs/test_cpu_backends.log" 2>&1
echo "test_cpu_backends exit $?: $(grep -E 'MESSAGE|test cases' "$out/logs/test_cpu_backends.log" | tr '\n' ' ')"
echo "blis: $($cli --size 64 --filter cpu/blis 2>&1 | grep -o 'cpu/blis [a-z0-9+]* .*')"

row() {  # the cpu/blis and cpu/openblas rows of a JSON run: GFLOP/s and the paired ratio
  python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["backend"] in ("cpu/blis", "cpu/openblas"):
        print(f"  {r['backend']:13s} {r['m']}x{r['n']}x{r['k']} {r['status']:6s} {r['gflops'] or 0:8.1f} GFLOP/s "
              f"x{r['vs_vendor'] or 0:.3f} [{r.get('vs_vendor_q1') or 0:.3f}-{r.get('vs_vendor_q3') or 0:.3f}]")
PY
}
run() { local name=$1; shift; "$@" --format json --out "$out/results/$name.json" 2>> "$out/logs/runs.log"; echo "$name exit $?"; row "$out/results/$name.json"; }

for blocks in "" 192,480,4096 256,480,4096 384,480,4096 256,240,4096 256,960,4096; do
  echo "MATCOMPARE_BLIS_BLOCKS=$blocks"
  MATCOMPARE_BLIS_BLOCKS=$blocks run sweep_${blocks//,/_} $cli --size 2048 --filter cpu/blis --repetitions 10
done
# Who waits how: OpenBLAS's pthreads spin (sched_yield) for 2^28 cycles after a call unless
# OPENBLAS_THREAD_TIMEOUT shortens it; OpenMP's threads spin per OMP_WAIT_POLICY.
for env in "X=1" "OPENBLAS_THREAD_TIMEOUT=4" "OMP_WAIT_POLICY=passive" "OPENBLAS_THREAD_TIMEOUT=4 OMP_WAIT_POLICY=passive"; do
  echo "$env"
  run "waits_${env//[ =]/_}" env $env $cli --sizes 512,2048 --filter cpu/blis --repetitions 10
done
run openblas_with_gpu_vendor $cli --size 2048 --filter cpu/openblas,gpu/cublas-fp32
run cpu_all_cores $cli --sizes 512,1024,2048,4096 --filter cpu/blis,cpu/openblas
run cpu_one_thread $cli --sizes 2048,4096 --filter cpu/blis,cpu/openblas --threads 1
run all_2048 $cli --size 2048 --all
run alone_after_all $cli --size 2048 --filter cpu/blis,cpu/openblas
