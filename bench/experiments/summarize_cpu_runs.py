#!/usr/bin/env python3
"""The cpu/blis rows of the runs an experiment script left in DIR, named t<threads>_<round>_<label>.json: one line
per threads, size and label, the rounds side by side (cpu/blis GFLOP/s, paired ratio [quartiles], OpenBLAS GFLOP/s).

    python3 bench/experiments/summarize_cpu_runs.py DIR
"""
import collections
import json
import pathlib
import sys

cells = collections.defaultdict(list)
for path in sorted(pathlib.Path(sys.argv[1]).glob("t*_*_*.json")):
    threads, _, label = path.stem.split("_", 2)
    rows = {(r["backend"], r["m"]): r for r in json.load(open(path))["results"]}
    for (backend, m), row in sorted(rows.items()):
        if backend != "cpu/blis":
            continue
        vendor = rows.get(("cpu/openblas", m), {})
        cells[(threads, m, label)].append(
            f"{row['gflops'] or 0:.0f} x{row['vs_vendor'] or 0:.3f} "
            f"[{row.get('vs_vendor_q1') or 0:.2f}-{row.get('vs_vendor_q3') or 0:.2f}] ob {vendor.get('gflops') or 0:.0f}")
for key in sorted(cells):
    print(*key, " | ".join(cells[key]))
