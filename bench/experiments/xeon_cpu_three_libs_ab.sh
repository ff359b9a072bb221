#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/{A,P,K}/libmatcompare.so.0 and .exp/bin/{matcompare,test_cpu_backends} carried.
# Xeon host: cpu/blis at HEAD (A), with the vector packing (P), and with packing + the assembly 12x32 kernel (K),
# in alternation, one thread then all; the CPU tests on K first.
set -uo pipefail
out=$1
L=/usr/local/cuda/lib64
mkdir -p $out/runs
{ lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-300; cat /sys/kernel/mm/transparent_hugepage/enabled; uptime; } > $out/host.txt
cat $out/host.txt | head -3
LD_LIBRARY_PATH=.exp/K:$L timeout 120 .exp/bin/test_cpu_backends > $out/runs/test_cpu_K.log 2>&1
echo "test_cpu_backends (K) exit $?: $(grep -E 'test cases|assertions|kernel' $out/runs/test_cpu_K.log | tr '\n' ' ' | cut -c1-400)"
run() {  # label threads round
  LD_LIBRARY_PATH=.exp/$1:$L timeout 120 .exp/bin/matcompare --sizes 2048,4096 --threads $2 --min-time 1 \
    --filter cpu/blis,cpu/openblas --format json --out $out/runs/t$2_$3_$1.json 2>> $out/runs/errors.log || echo "$1 t$2 r$3 exit $?"
}
for r in 1 2 3; do for lib in A P K; do run $lib 1 $r; done; done
for r in 1 2; do for lib in A P K; do run $lib 16 $r; done; done
python3 bench/experiments/summarize_cpu_runs.py $out/runs
tar czf $out/runs.tar.gz -C $out runs && rm -rf $out/runs
