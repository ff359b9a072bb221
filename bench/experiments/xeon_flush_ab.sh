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
python3 - $out/f <<'PY'
import json, pathlib, sys, collections
t = collections.defaultdict(list)
for f in sorted(pathlib.Path(sys.argv[1]).glob("t*.json")):
    thr, rnd, mode = f.stem.split("_")
    for row in json.load(open(f))["results"]:
        if row["backend"] in ("cpu/blis", "cpu/openblas"):
            t[(mode, row["m"], row["backend"])].append(f"{row['gflops']:.0f}" + (f" x{row['vs_vendor']:.3f} [{row['vs_vendor_q1']:.2f}-{row['vs_vendor_q3']:.2f}]" if row["backend"] == "cpu/blis" else ""))
for key in sorted(t): print(*key, " | ".join(t[key]))
PY
tar czf $out/flush.tar.gz -C $out f && rm -rf $out/f
