#!/usr/bin/env bash
# usage: run_script.sh OUT ; 1T probe pairs, then 16T matcompare env A/B (as run for run2; README.txt has run3-4)
out=$1; mkdir -p $out; { lscpu; uptime; } > $out/cpu.txt
export LD_LIBRARY_PATH=.exp/nb:/usr/local/cuda/lib64
C="default 256,336,2720/512,0 256,168,2720/512,0 256,336,2720/384,0 256,336,2720/768,0 192,336,2720/512,0"
timeout 200 .exp/nb/blis_probe pairs 4096 8 $C > $out/p4096.txt 2>&1
timeout 100 .exp/nb/blis_probe pairs 2048 20 $C > $out/p2048.txt 2>&1
cat $out/p4096.txt $out/p2048.txt
for r in 1 2 3; do
  for side in A B; do
    if [ $side = A ]; then unset MATCOMPARE_BLIS_EXP MATCOMPARE_BLIS_BLOCKS; else export MATCOMPARE_BLIS_EXP=512,0 MATCOMPARE_BLIS_BLOCKS=256,336,4096; fi
    timeout 60 .exp/nb/matcompare --sizes 2048,4096 --filter cpu/blis,cpu/openblas --threads 16 --format json --out $out/t16_${r}_$side.json 2>>$out/err.log
    python3 -c "
import json,sys
d=json.load(open('$out/t16_${r}_$side.json'))
print('16T r$r $side', ' '.join('%s %.0f x%.3f'%(x['m'],x['gflops'],x['vs_vendor'] or 0) for x in d['results'] if not x['vendor']))"
  done
done
unset MATCOMPARE_BLIS_EXP MATCOMPARE_BLIS_BLOCKS
uptime
