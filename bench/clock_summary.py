#!/usr/bin/env python3
"""The GPU's clock and power during each step of a GPU session.

    bench/clock_summary.py STEPS CLOCKS

STEPS holds one line per step start, "EPOCH_SECONDS NAME" (bench/gpu_session.sh writes it); CLOCKS is the CSV that
`nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,nounits
-lms 50` wrote beside it. For each step: the samples taken while it ran, the SM clock's median and 10th percentile over
the busy ones (power at least half the step's maximum: an idle GPU's clock says nothing), the power's median over
them and its maximum, the hottest temperature and the event reasons seen (the bits nvidia-smi reports:
0x4 software power cap, 0x20 software thermal slowdown, 0x40 hardware thermal slowdown, 0x80 hardware power brake).
Why: a GEMM that keeps the tensor cores busy for long can draw the board's power limit, and the clock it then runs at
decides its speed more than anything in the code (bench/NOTES.md, "the independent timing's gap").
"""
import csv
import statistics
import sys
import time


def epoch(stamp):
    whole, _, fraction = stamp.strip().partition(".")
    return time.mktime(time.strptime(whole, "%Y/%m/%d %H:%M:%S")) + float("0." + (fraction or "0"))


def number(text):
    try:
        return float(text.strip().split()[0])
    except (ValueError, IndexError):
        return None


def main(steps_path, clocks_path):
    steps = []
    for line in open(steps_path):
        start, _, name = line.strip().partition(" ")
        steps.append((float(start), name))
    rows = list(csv.reader(open(clocks_path)))
    samples = []
    for row in rows[1:]:
        if len(row) < 5:
            continue
        try:
            samples.append((epoch(row[0]), number(row[1]), number(row[2]), number(row[3]), row[4].strip()))
        except ValueError:
            continue
    print(f"{'step':36s} {'busy':>7s} {'SM MHz med':>10s} {'p10':>5s} {'W med':>6s} {'W max':>6s} {'C max':>5s}  "
          "event reasons")
    bounds = [s[0] for s in steps[1:]] + [float("inf")]
    for (start, name), end in zip(steps, bounds):
        inside = [s for s in samples if start <= s[0] < end and s[1] is not None and s[2] is not None]
        peak = max((s[2] for s in inside), default=0)
        busy = [s for s in inside if s[2] >= 0.5 * peak]
        clocks = sorted(s[1] for s in busy)
        power = [s[2] for s in busy]
        temps = [s[3] for s in inside if s[3] is not None]
        if not clocks:
            print(f"{name:36s} {0:7d}")
            continue
        p10 = clocks[len(clocks) // 10]
        reasons = sorted({s[4] for s in busy})
        print(f"{name:36s} {len(busy):7d} {statistics.median(clocks):10.0f} {p10:5.0f} "
              f"{statistics.median(power):6.0f} {peak:6.0f} "
              f"{max(temps) if temps else 0:5.0f}  {' '.join(reasons)}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: clock_summary.py STEPS CLOCKS")
    main(sys.argv[1], sys.argv[2])
