#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/lib/libmatcompare.so.0 and .exp/bin/matcompare carried.
# Xeon host, one thread at 4096: NC 4096 (the rule) against 2048 and 1024, in alternation, paired with OpenBLAS.
set -uo pipefail
out=$1
export LD_LIBRARY_PATH=.exp/lib:/usr/local/cuda/lib64
mkdir -p $out/n
for r in 1 2 3; do
  for nc in 4096 2048 1024; do
    MATCOMPARE_BLIS_BLOCKS=768,336,$nc timeout 80 .exp/bin/matcompare --sizes 4096 --threads 1 --min-time 1 \
      --filter cpu/blis,cpu/openblas --format json --out $out/n/t1_${r}_nc$nc.json 2>> $out/n/errors.log || echo "$r $nc exit $?"
  done
done
python3 bench/experiments/summarize_cpu_runs.py $out/n
tar czf $out/nc.tar.gz -C $out n && rm -rf $out/n
