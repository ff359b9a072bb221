#!/usr/bin/env python3
"""Checks a GPU session's results (bench/gpu_session.sh bench) against issue 4's acceptance:
  - the GPU rows of two 2048 runs agree within 3% (rows of at least 0.1 ms);
  - cuBLAS FP32 at 2048 agrees within 10% with an independent, cold-L2, event-timed cuBLAS call.
Also prints the GPU table (GFLOP/s, x cuBLAS) at each square size measured.

    python3 bench/compare_runs.py RESULTS_DIR
"""
import glob
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def gpu_rows(doc, size):
    return {r["backend"]: r for r in doc["results"]
            if r["device"] == "gpu" and r["m"] == r["n"] == r["k"] == size}


def main(folder):
    failures = 0
    first = load(glob.glob(os.path.join(folder, "*_all_2048.json"))[0])
    second = load(glob.glob(os.path.join(folder, "*_gpu_2048_repeat.json"))[0])
    a, b = gpu_rows(first, 2048), gpu_rows(second, 2048)
    print("repeatability at 2048 (GPU rows >= 0.1 ms):")
    worst = 0.0
    for name, row in a.items():
        other = b.get(name)
        if row["status"] != "ok" or not other or other["status"] != "ok" or row["median_ms"] < 0.1:
            continue
        spread = abs(row["median_ms"] - other["median_ms"]) / min(row["median_ms"], other["median_ms"])
        worst = max(worst, spread)
        flag = "" if spread <= 0.03 else "  OVER 3%"
        failures += spread > 0.03
        print(f"  {name:28s} {row['median_ms']:9.4f} {other['median_ms']:9.4f} ms  {100 * spread:5.2f}%{flag}")
    print(f"  worst spread {100 * worst:.2f}%")

    independent = {}
    with open(os.path.join(folder, "independent_cublas.jsonl")) as f:
        for line in f:
            row = json.loads(line)
            independent[row["m"]] = row
    ours = a["gpu/cublas-fp32"]
    theirs = independent[2048]
    gap = abs(ours["median_ms"] - theirs["median_ms"]) / theirs["median_ms"]
    failures += gap > 0.10
    print(f"cuBLAS FP32 at 2048: matcompare {ours['median_ms']:.4f} ms ({ours['gflops']:.0f} GFLOP/s), "
          f"independent {theirs['median_ms']:.4f} ms ({theirs['gflops']:.0f} GFLOP/s): {100 * gap:.1f}% apart"
          + ("" if gap <= 0.10 else "  OVER 10%"))

    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        doc = load(path)
        sizes = sorted({r["m"] for r in doc["results"] if r["m"] == r["n"] == r["k"]})
        for size in sizes:
            rows = gpu_rows(doc, size)
            if not rows:
                continue
            print(f"\n{os.path.basename(path)} at {size}: backend, median ms, total ms, GFLOP/s, x cuBLAS FP32")
            for name, r in rows.items():
                if r["status"] == "ok":
                    print(f"  {name:28s} {r['median_ms']:9.4f} {r['total_ms']:9.3f} {r['gflops']:10.1f} "
                          f"{r['vs_vendor']:6.2f}  {'pass' if r['passed'] else 'FAIL'}")
                else:
                    print(f"  {name:28s} {r['status']}: {r['reason']}")
    print(f"\n{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
