#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/lib/libmatcompare.so.0 and .exp/bin/matcompare carried:
# the acceptance commands (xeon_accept_carried.sh, copied to .exp/accept.sh), then one thread with --min-time 6.
set -uo pipefail
out=$1
bash .exp/accept.sh $out
L=/usr/local/cuda/lib64
LD_LIBRARY_PATH=.exp/lib:$L timeout 200 .exp/bin/matcompare --sizes 2048,4096 --threads 1 --min-time 6 --filter cpu/blis,cpu/openblas \
  --format json --out $out/one_thread_long.json 2>/dev/null; echo "long one-thread exit $?"
python3 - $out/one_thread_long.json <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["backend"], r["m"], round(r["gflops"] or 0, 1), round(r["vs_vendor"] or 0, 3), r.get("vs_vendor_q1"), r.get("vs_vendor_q3"), r.get("vs_vendor_pairs"))
PY
