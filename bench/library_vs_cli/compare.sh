#!/usr/bin/env bash
# The library as fast as the CLI? Alternates a CLI run and a library run (library_run.cpp, no environment variable
# set) of the same rows, ROUNDS times per size, and prints each row's median GFLOP/s both ways and their ratio.
# Usage: bench/library_vs_cli/compare.sh OUT_DIR [ROUNDS] [SIZES] [FILTER]; needs build/ (scripts/setup.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: compare.sh OUT_DIR [ROUNDS] [SIZES] [FILTER]}
rounds=${2:-6}
sizes=${3:-512,2048}
filter=${4:-cpu/blis}
mkdir -p "$out"
g++ -std=c++17 -O2 -I"$root/include" "$here/library_run.cpp" -L"$root/build/src" -lmatcompare \
    -Wl,-rpath,"$root/build/src" -o "$out/library_run"
for size in ${sizes//,/ }; do
  for round in $(seq 1 "$rounds"); do
    "$root/build/apps/matcompare" --size "$size" --filter "$filter" --budget 10 --format json \
        --out "$out/cli_${size}_${round}.json" 2>/dev/null
    env -u GOMP_SPINCOUNT -u OPENBLAS_THREAD_TIMEOUT -u OMP_WAIT_POLICY \
        "$out/library_run" "$size" "$filter" 10 > "$out/library_${size}_${round}.json"
  done
done
python3 "$here/summary.py" "$out"
