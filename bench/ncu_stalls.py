#!/usr/bin/env python3
"""Where a kernel's warps stall, from Nsight Compute's source page exported as CSV
(`ncu --import R.ncu-rep --page source --csv --print-source sass > R.csv`): the stall reasons' shares over all
samples, the instructions with the most samples, and every wgmma with the instruction after it (a
wgmma or wait that follows it (a `WARPGROUP.DEPBAR.LE gsb0, 0x0` after each one means ptxas serialized them).

Usage: ncu_stalls.py SASS.csv [SASS.csv ...]
"""
import collections
import csv
import sys

TOP = 14


def summarize(path):
    rows = list(csv.reader(open(path, newline="")))
    header = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    names = rows[header]
    data = [r for r in rows[header + 1:] if len(r) >= len(names)]
    samples_at = names.index("Warp Stall Sampling (All Samples)")
    executed_at = names.index("Instructions Executed")
    reasons = [i for i, n in enumerate(names) if n.startswith("stall_") and "(Not" not in n]

    def count(row, i):
        return int(row[i] or 0) if row[i].strip().isdigit() else 0

    total = sum(count(r, samples_at) for r in data) or 1
    by_reason = collections.Counter()
    for r in data:
        for i in reasons:
            by_reason[names[i]] += count(r, i)
    print(f"== {path}: {total} samples")
    for reason, n in by_reason.most_common(8):
        print(f"  {reason:24} {100 * n / total:5.1f}%")
    print("  the instructions with the most samples:")
    for r in sorted(data, key=lambda r: -count(r, samples_at))[:TOP]:
        print(f"    {100 * count(r, samples_at) / total:5.1f}%  {r[1].strip()[:90]}")
    print("  each wgmma (executions) and the wgmma or wait after it:")
    for i, r in enumerate(data):
        if "HGMMA" in r[1]:
            after = next((n[1].strip() for n in data[i + 1:] if "HGMMA" in n[1] or "DEPBAR" in n[1]), "-")
            print(f"    {r[executed_at]:>9}  {r[1].strip()[:60]:60}  then  {after[:40]}")


for path in sys.argv[1:]:
    summarize(path)
