#!/usr/bin/env bash
# One thread, harness-paired: A = faf4ab8's library (.exp/nb), B = c4f7843's (.exp/lib), C = B with NC 2720.
out=$1; mkdir -p $out
for r in 1 2; do
  for side in A B C; do
    lib=.exp/lib; unset MATCOMPARE_BLIS_BLOCKS
    [ $side = A ] && lib=.exp/nb
    [ $side = C ] && export MATCOMPARE_BLIS_BLOCKS=256,336,2720,512
    LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 100 .exp/bin/matcompare --sizes 2048,4096 --filter cpu/blis,cpu/openblas --threads 1 --format json --out $out/ab_${r}_$side.json 2>>$out/err.log
    python3 -c "
import json
d=json.load(open('$out/ab_${r}_$side.json'))
print('r$r $side', d['context']['cpu_blis'][:40], ' '.join('%s %.1f x%.3f [%.3f-%.3f]'%(x['m'],x['gflops'],x['vs_vendor'] or 0,x['vs_vendor_q1'] or 0,x['vs_vendor_q3'] or 0) for x in d['results'] if not x['vendor']))"
  done
done
uptime
