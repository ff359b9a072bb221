#!/usr/bin/env bash
# Everything one GPU-machine session needs, in one call (the device tool returns at most 8 files).
#   bench/gpu_session.sh OUT_DIR COMMIT check   build, every test, memcheck + racecheck on every GPU step
#   bench/gpu_session.sh OUT_DIR COMMIT bench   the runs behind report/: --all at 2048, a repeat of the
#                                               GPU rows at 2048, --filter gpu at 4096, the GPU sweep,
#                                               seed 000's 2048x2048x1024, an independent cuBLAS timing
# Logs go to OUT_DIR/logs.tar.gz; results (JSON) to OUT_DIR/results.tar.gz; a summary is printed.
set -uo pipefail
out=$1 commit=$2 what=$3
work=$(mktemp -d)
mkdir -p "$work/logs" "$work/results"
export PATH=/usr/local/cuda/bin:$PATH
cli=build/apps/matcompare
tag=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -oE '[HAB][0-9]{2,3}' | head -1 | tr 'A-Z' 'a-z')
tag=${tag:-gpu}

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > "$work/logs/smi.txt"
cmake -S . -B build -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DMATCOMPARE_GIT_COMMIT="$commit" > "$work/logs/configure.log" 2>&1 &&
  cmake --build build -j"$(nproc)" > "$work/logs/build.log" 2>&1 || { tail -40 "$work/logs/build.log"; exit 1; }

if [ "$what" = check ]; then
  ctest --test-dir build --output-on-failure -j4 > "$work/logs/ctest.log" 2>&1
  grep -E "Test +#|tests passed" "$work/logs/ctest.log"
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 $cli --m 67 --n 45 --k 33 --alpha 0.5 --beta 2 --filter gpu \
      --repetitions 1 --min-time 0 --no-flush --format csv > "$work/logs/sanitizer_$tool.log" 2>&1
    echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitizer_$tool.log" | tail -1)"
    echo "  rows passed: $(grep -c ',passed,' "$work/logs/sanitizer_$tool.log")"
  done
fi

if [ "$what" = bench ]; then
  run() { local name=$1; shift; $cli "$@" --format json --out "$work/results/$name.json" 2>> "$work/logs/runs.log"; echo "$name exit $?"; }
  run ${tag}_all_2048 --size 2048 --all
  run ${tag}_gpu_2048_repeat --size 2048 --filter gpu
  run ${tag}_gpu_4096 --size 4096 --filter gpu
  run ${tag}_gpu_sweep --sizes 512,1024,1536,2048,2560,3072,4096 --filter gpu
  run ${tag}_gpu_seed000_shape --m 2048 --n 2048 --k 1024 --filter gpu
  python3 bench/independent_cublas.py 2048 4096 > "$work/results/independent_cublas.jsonl" 2>> "$work/logs/runs.log"
  python3 bench/compare_runs.py "$work/results" > "$work/results/checks.txt"  # whole, whatever reads stdout
  cat "$work/results/checks.txt"
fi
tar -C "$work" -czf "$out/logs.tar.gz" logs
tar -C "$work" -czf "$out/results.tar.gz" results
