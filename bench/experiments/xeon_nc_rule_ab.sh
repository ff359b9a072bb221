#!/usr/bin/env bash
# Run from the repo root on the device, with the old library in .exp/lib, the new in .exp/new, .exp/bin/matcompare.
# Xeon host: the NC rule of four L2s a thread with equal column blocks (new) against bfcf52b (old), in alternation.
set -uo pipefail
out=$1
L=/usr/local/cuda/lib64
mkdir -p $out/t
for r in 1 2; do
  for side in lib new; do
    LD_LIBRARY_PATH=.exp/$side:$L timeout 100 .exp/bin/matcompare --sizes 2048,4096 --threads 1 --min-time 1 \
      --filter cpu/blis,cpu/openblas --format json --out $out/t/t1_${r}_$side.json 2>> $out/t/errors.log || echo "$r $side exit $?"
  done
done
for side in lib new; do
  LD_LIBRARY_PATH=.exp/$side:$L timeout 60 .exp/bin/matcompare --sizes 2048,4096 --min-time 1 \
    --filter cpu/blis,cpu/openblas --format json --out $out/t/t16_1_$side.json 2>> $out/t/errors.log || echo "16 $side exit $?"
done
python3 bench/experiments/summarize_cpu_runs.py $out/t
tar czf $out/ncrule.tar.gz -C $out t && rm -rf $out/t
