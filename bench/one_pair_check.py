#!/usr/bin/env python3
"""Checks a suite run for the one-pair bias (bench/NOTES.md, "A ratio of one pair"): for each own row's ratio, the
partner's time in the pairs (the ratio × the row's median) against the partner's own row's median on the same shape,
for the device's vendor (vs_vendor) and the precision's (vs_precision_vendor), grouped by ratios of one pair and of
three pairs or more; over every row but the partner itself, the other vendors' rows included (their ratios rank the
best vendor). A partner timed on its first run on a new workspace reads well over 1 (up to 2.2 in the runs
before a4d0851); unbiased pairs read about 1.

Usage: bench/one_pair_check.py RUN.json [RUN.json ...]
"""
import json
import statistics
import sys


def check(path):
    results = json.load(open(path))["results"]
    median = {(r["backend"], r["m"], r["n"], r["k"], r["layout"]): r["median_ms"]
              for r in results if r.get("median_ms")}
    # Each device's vendor, and each (device, precision)'s: the rows the harness pairs the others with.
    device_vendor = {r["device"]: r["backend"] for r in results if r.get("vendor")}
    precision_vendor = {(r["device"], r["precision"]): r["backend"] for r in results
                        if r.get("vendor_library") and r.get("vs_precision_vendor") == 1.0}
    groups = {"one pair": [], "3 pairs or more": []}
    for r in results:
        if not r.get("median_ms") or not r.get("vs_vendor_pairs"):
            continue
        pairs = r["vs_vendor_pairs"]
        if pairs == 2:
            continue
        group = groups["one pair" if pairs == 1 else "3 pairs or more"]
        shape = (r["m"], r["n"], r["k"], r["layout"])
        for field, partner in (("vs_vendor", device_vendor.get(r["device"])),
                               ("vs_precision_vendor", precision_vendor.get((r["device"], r["precision"])))):
            own = median.get((partner, *shape))
            if partner != r["backend"] and r.get(field) and own:
                group.append(r[field] * r["median_ms"] / own)
    print(path)
    for name, ratios in groups.items():
        if ratios:
            print(f"  {name:16s} {len(ratios):4d} partner samples ÷ the partner's median: median "
                  f"{statistics.median(ratios):.3f}, range {min(ratios):.3f}–{max(ratios):.3f}")
        else:
            print(f"  {name:16s} none")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        check(path)
