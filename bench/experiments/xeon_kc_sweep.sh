#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/lib/libmatcompare.so.0 and .exp/bin/matcompare carried.
# Xeon host, one thread then 16: cpu/blis (the assembly kernel) at KC 256 / 384 / 768 in alternation, paired with OpenBLAS.
set -uo pipefail
out=$1
L=/usr/local/cuda/lib64
export LD_LIBRARY_PATH=.exp/lib:$L
mkdir -p $out/k
for r in 1 2; do
  for b in 256,504,4096 384,504,4096 768,336,4096; do
    MATCOMPARE_BLIS_BLOCKS=$b timeout 100 .exp/bin/matcompare --sizes 2048,4096 --threads 1 --min-time 1 --filter cpu/blis,cpu/openblas \
      --format json --out $out/k/t1_${r}_${b%%,*}.json 2>> $out/k/errors.log || echo "t1 $r $b exit $?"
  done
done
for b in 256,504,4096 384,504,4096 768,336,4096; do
  MATCOMPARE_BLIS_BLOCKS=$b timeout 60 .exp/bin/matcompare --sizes 2048,4096 --min-time 1 --filter cpu/blis,cpu/openblas \
    --format json --out $out/k/t16_1_${b%%,*}.json 2>> $out/k/errors.log || echo "t16 $b exit $?"
done
python3 bench/experiments/summarize_cpu_runs.py $out/k
tar czf $out/kc.tar.gz -C $out k && rm -rf $out/k
