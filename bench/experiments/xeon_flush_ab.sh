#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/lib/libmatcompare.so.0 and .exp/bin/matcompare carried.
# Xeon host, one thread: cpu/blis against OpenBLAS with the caches flushed before every sample (the default) and
# without (--no-flush), in alternation: does cpu/blis lose its ground on cold sources?
set -uo pipefail
out=$1
L=/usr/local/cuda/lib64
export LD_LIBRARY_PATH=.exp/lib:$L
mkdir -p $out/f
for r in 1 2; do
  for mode in flush noflush; do
    extra=""; [ $mode = noflush ] && extra=--no-flush
    timeout 110 .exp/bin/matcompare --sizes 2048,4096 --threads 1 --min-time 1 $extra --filter cpu/blis,cpu/openblas \
      --format json --out $out/f/t1_${r}_$mode.json 2>> $out/f/errors.log || echo "$r $mode exit $?"
  done
done
python3 bench/experiments/summarize_cpu_runs.py $out/f
tar czf $out/flush.tar.gz -C $out f && rm -rf $out/f
