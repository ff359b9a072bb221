#!/usr/bin/env python3
"""Summarises matcompare JSON runs of shape suites (issue 30's acceptance): for each run and each own row (not a
vendor library), its ratio to the best vendor of its precision on every shape (vs_best_vendor, paired in the run) and
how many pairs it rests on, their geometric mean (with how many of one pair), the worst shape, and for each shape the
share of the device's memory bandwidth the row reached moving the bytes the problem must move at least (A, B and C
once each; C twice where beta != 0). A ratio is marked where the unpaired medians of the row and of its best vendor
give one more than 1.5 times apart: in runs before 2026-11-29 "x best vendor" went through the baseline vendor's pairs
with each of them, and a baseline disturbed beside one and not the other made the quotient meaningless (bench/NOTES.md,
"A team of another size"); since then a row is timed against the best vendor itself, and a mark says the medians
(a one-sample row's cold first run, a neighbour) disagree with its pairs.

Usage: bench/suite_summary.py RUN.json [RUN.json ...]
       bench/suite_summary.py --markdown RUN.json[+RUN.json ...] [...]

--markdown prints one table line per argument instead (the README's "On real workloads"): the suite, the device, the
commit, and for each own row its geometric mean and worst ratio; RUN.json files joined by "+" count as one suite (a
suite run in two parts, such as deepbench-training and its tail).
"""
import json
import math
import sys


def minimum_bytes(r):
    m, n, k = r["m"], r["n"], r["k"]
    c_passes = 2 if r.get("beta", 0) else 1
    return 4 * (m * k + k * n + c_passes * m * n)


def summarise(path):
    run = json.load(open(path))
    peaks = {p["device"]: p for p in run["context"].get("peaks", [])}
    rows = {}
    # vs_best_vendor is the row's ratio to its precision's vendor over the best vendor's own: it rests on the fewer
    # pairs of the two rows.
    pairs_of = {(r["backend"], r["m"], r["n"], r["k"], r["layout"]): r.get("vs_vendor_pairs") or 0
                for r in run["results"]}
    median_of = {(r["backend"], r["m"], r["n"], r["k"], r["layout"]): r.get("median_ms") for r in run["results"]}
    for r in run["results"]:
        if r.get("vendor_library") or r.get("vendor"):
            continue
        rows.setdefault(r["backend"], []).append(r)
    print(f"== {path}")
    for name, results in rows.items():
        ratios = []
        single = 0  # ratios that rest on one pair (bench/NOTES.md, "A ratio of one pair")
        apart = 0  # ratios the medians contradict
        print(f"  {name}")
        for r in results:
            shape = f"{r['m']}x{r['n']}x{r['k']} {r['layout']}"
            if r["status"] not in ("ok", "estimated") or not r.get("vs_best_vendor"):
                print(f"    {shape:24s} {r['status']}: {r.get('reason', '')[:90]}")
                continue
            ratio = r["vs_best_vendor"]
            ratios.append((ratio, shape))
            bandwidth = peaks.get(r["device"], {}).get("bandwidth_gbs")
            hbm = ""
            if bandwidth and r.get("median_ms"):
                hbm = f"{100 * minimum_bytes(r) / (r['median_ms'] * 1e-3) / (bandwidth * 1e9):5.1f}% of memory bandwidth"
            # Timed against the best vendor itself (runs from 2026-11-29 on): its own pairs with it. Else the ratio
            # composed through the baseline and rests on the fewer pairs of the two rows; the device's vendor, never
            # paired, has 0: its own ratio is exactly 1.
            best_pairs = pairs_of.get((r.get("best_vendor"), r["m"], r["n"], r["k"], r["layout"]))
            pairs = r.get("vs_best_vendor_pairs") or min(pairs_of[(r["backend"], r["m"], r["n"], r["k"], r["layout"])],
                                                         best_pairs or float("inf"))
            single += pairs == 1
            best_median = median_of.get((r.get("best_vendor"), r["m"], r["n"], r["k"], r["layout"]))
            medians = ""
            by_medians = best_median / r["median_ms"] if best_median and r.get("median_ms") else None
            if by_medians and abs(math.log(ratio / by_medians)) > math.log(1.5):
                apart += 1
                medians = f"  [medians give {by_medians:.3f}]"
            print(f"    {shape:24s} x best vendor {ratio:6.3f} ({r.get('best_vendor')}, {pairs} "
                  f"pair{'s' if pairs != 1 else ''})  {(r.get('gflops') or 0) / 1000:8.1f} TFLOP/s  {hbm}{medians}")
        if ratios:
            geomean = geometric_mean([x for x, _ in ratios])
            worst = min(ratios)
            print(f"    geometric mean {geomean:.3f} over {len(ratios)} shapes, {single} of one pair, {apart} that the "
                  f"medians contradict; worst {worst[0]:.3f} at {worst[1]}")


def geometric_mean(values):
    return math.exp(sum(math.log(x) for x in values) / len(values))


def markdown(arguments):
    """One Markdown line per argument (files joined by "+" as one suite): suite, device, commit(s), and per own row
    its geometric mean of vs_best_vendor and its worst, over the shapes where it has one."""
    lines, columns = [], []
    for argument in arguments:
        ratios, suites, devices, commits = {}, [], [], []
        for path in argument.split("+"):
            run = json.load(open(path))
            context = run["context"]
            suite = (context.get("suite") or {}).get("name") or path.rsplit("/", 1)[-1].removesuffix(".json")
            own_gpu = any(r["device"] == "gpu" and not (r.get("vendor_library") or r.get("vendor"))
                          for r in run["results"])
            device = (f"{context['gpu']['name']} ({context.get('cpu_cores')}-core host)" if own_gpu else
                      f"{context.get('cpu_model')}, {context.get('omp_threads')} threads")
            for values, value in ((suites, suite), (devices, device), (commits, context["git_commit"][:7])):
                if value not in values:
                    values.append(value)
            for r in run["results"]:
                if r.get("vendor_library") or r.get("vendor") or not r.get("vs_best_vendor"):
                    continue
                if r["status"] not in ("ok", "estimated"):
                    continue
                if r["backend"] not in columns:
                    columns.append(r["backend"])
                ratios.setdefault(r["backend"], []).append(r["vs_best_vendor"])
        lines.append((" + ".join(suites), "; ".join(devices), ", ".join(commits), ratios))
    print("| suite | device | commit | " + " | ".join(f"`{c}`" for c in columns) + " |")
    print("|---|---|---|" + "---:|" * len(columns))
    for suite, device, commits, ratios in lines:
        cells = []
        for c in columns:
            if c not in ratios:
                cells.append("")
                continue
            cells.append(f"{geometric_mean(ratios[c]):.2f} (worst {min(ratios[c]):.2f}) over {len(ratios[c])}")
        print(f"| {suite} | {device} | {commits} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1:] == ["--markdown"]:
        sys.exit(__doc__)
    if sys.argv[1] == "--markdown":
        markdown(sys.argv[2:])
    else:
        for path in sys.argv[1:]:
            summarise(path)
