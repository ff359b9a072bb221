#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/lib/libmatcompare.so.0 and .exp/bin/matcompare carried.
# Issue 8's acceptance commands on the Xeon host with the library built on the VM at the named commit.
set -uo pipefail
out=$1
L=/usr/local/cuda/lib64
export LD_LIBRARY_PATH=.exp/lib:$L
mkdir -p $out/r
{ lscpu; nproc; uptime; } > $out/r/cpu.txt
grep -E "Model name|^CPU\(s\)|L1d|L2" $out/r/cpu.txt
row() { python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["backend"] in ("cpu/blis", "cpu/openblas"):
        print(f"  {r['backend']:13s} {r['m']} {r['status']:6s} {r['gflops'] or 0:8.1f} x{r['vs_vendor'] or 0:.3f} [{r.get('vs_vendor_q1') or 0:.3f}-{r.get('vs_vendor_q3') or 0:.3f}] pairs {r.get('vs_vendor_pairs') or r.get('pairs')}")
PY
}
run() { local name=$1 limit=$2; shift 2; timeout $limit .exp/bin/matcompare "$@" --format json --out $out/r/$name.json 2>> $out/r/runs.log; echo "$name exit $?"; row $out/r/$name.json; }
run cpu_one_thread 230 --sizes 512,1024,2048,4096 --filter cpu/blis,cpu/openblas --threads 1
run cpu_all_cores 110 --sizes 512,1024,2048,4096 --filter cpu/blis,cpu/openblas
run all_2048 150 --size 2048 --all
run alone_after_all 50 --size 2048 --filter cpu/blis,cpu/openblas
tar czf $out/results.tar.gz -C $out r && rm -rf $out/r
