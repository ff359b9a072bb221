#!/usr/bin/env python3
"""The README's picture and headline table: the GPU ladder of one committed run, from the source documents' naive
kernel to the fast rows and the vendor libraries, as TFLOP/s with % of cuBLAS and % of the device's peak.

    python3 bench/front_page.py [--json bench/data/h200_7412c7f/h200_gpu_2048.json] [--size 2048]
                                [--out docs/images/ladder_h200.png]
                                [--all-rows]

Reads one JSON run (`matcompare --format json`), keeps the single-GPU rows of FP32 and TF32 precision that were
measured at the square size asked for (the multi-GPU rows, cuBLASXt and cuBLASMp, are left out: host-resident or
several processes, not a step of the ladder), writes a horizontal bar chart sorted by speed and prints the Markdown
table (a headline subset; `--all-rows` for every row) with the caption's facts.

  TFLOP/s       the row's compute median (`gflops` / 1000)
  % of cuBLAS   the row's TFLOP/s over cuBLAS's of the same precision in the same run (`gpu/cublas-fp32` for FP32
                rows, `gpu/cublas-tf32` for TF32 rows): ratios of the two medians, so that bar and label agree; the
                paired ratio the CLI prints (`vs_precision_vendor`) is compared with it and a gap over 3% is printed
  % of peak     over the device's peak of the row's precision, derived from the JSON context (SMs, SM clock,
                compute capability): FP32 = SMs x FP32 lanes x 2 x clock, TF32 (dense) = SMs x TF32 FLOP/clock x clock

Matplotlib: runs under the python3 that has it; if this one does not, it restarts itself under /usr/bin/python3 (as
`matcompare report` falls back to it).
"""
import argparse
import json
import os
import pathlib
import sys

try:
    import matplotlib
except ImportError:  # a pyenv or venv python3 without matplotlib: the system's has it (python3-matplotlib)
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("front_page.py: no matplotlib (apt-get install python3-matplotlib)")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Per SM and clock, by compute capability: FP32 lanes (each an FMA = 2 FLOP) and dense TF32 tensor-core FLOP.
# 9.0 (H100/H200): 128 lanes; TF32 2048 FLOP/clock/SM (NVIDIA's 494.7 TFLOP/s for H100 SXM = 132 x 2048 x 1830 MHz).
# 8.0 (A100): 64 lanes; TF32 1024 (156 TFLOP/s = 108 x 1024 x 1410 MHz).
PER_SM = {"9.0": (128, 2048), "8.0": (64, 1024)}

VENDOR = {"fp32": "gpu/cublas-fp32", "tf32": "gpu/cublas-tf32"}
MULTI_GPU = {"gpu/cublasxt-fp32", "gpu/cublasmp-fp32"}
# The headline table: the naive step, a few middle steps, the fast rows and the vendors.
HEADLINE = ["gpu/naive", "gpu/naive-coalesced", "gpu/smem-tiled", "gpu/smem-float4", "gpu/double-buffered",
            "gpu/warp-tiled", "gpu/simt-tuned", "gpu/cublas-fp32", "gpu/tensor-core-3xtf32", "gpu/wmma-tf32",
            "gpu/tensor-core-tf32-ws", "gpu/cublas-tf32", "gpu/cublaslt-tf32"]
COLOUR = {"fp32": "#1f77b4", "tf32": "#e6850e"}


def peaks(gpu):
    """(FP32 peak, TF32 peak) in TFLOP/s and the words that say how, from the context's `gpu`."""
    cc = gpu["compute_capability"]
    if cc not in PER_SM:
        sys.exit(f"front_page.py: no FP32/TF32 rates per SM known for compute capability {cc}")
    lanes, tf32 = PER_SM[cc]
    sms, mhz = gpu["multiprocessors"], gpu["sm_clock_max_mhz"]
    fp32_peak = sms * lanes * 2 * mhz * 1e6 / 1e12
    tf32_peak = sms * tf32 * mhz * 1e6 / 1e12
    how = (f"FP32 {sms} SMs x {lanes} lanes x 2 x {mhz} MHz = {fp32_peak:.1f} TFLOP/s; "
           f"TF32 dense {sms} x {tf32} FLOP/clock x {mhz} MHz = {tf32_peak:.0f} TFLOP/s")
    return fp32_peak, tf32_peak, how


def source_step(row):
    """The backend's source-document step (the JSON field `seed`), in the README's words."""
    return row["seed"].replace("beyond the seeds", "beyond the source documents")


def load(path, size):
    data = json.loads(pathlib.Path(path).read_text())
    context = data["context"]
    rows = [r for r in data["results"]
            if r["device"] == "gpu" and (r["m"], r["n"], r["k"]) == (size, size, size) and r["status"] == "ok"
            and r["precision"] in VENDOR and r["backend"] not in MULTI_GPU and r.get("gflops")]
    if not rows:
        sys.exit(f"front_page.py: {path} has no measured GPU row at {size}")
    by_name = {r["backend"]: r for r in rows}
    for name in VENDOR.values():
        if name not in by_name:
            sys.exit(f"front_page.py: {path} lacks {name} at {size}")
    fp32_peak, tf32_peak, how = peaks(context["gpu"])
    table = []
    for r in sorted(rows, key=lambda r: -r["gflops"]):
        tflops = r["gflops"] / 1000
        vendor = by_name[VENDOR[r["precision"]]]["gflops"] / 1000
        peak = fp32_peak if r["precision"] == "fp32" else tf32_peak
        table.append({"backend": r["backend"], "step": source_step(r), "precision": r["precision"],
                      "vendor_library": bool(r.get("vendor_library") or r.get("vendor")), "tflops": tflops,
                      "of_vendor": 100 * tflops / vendor, "paired": r.get("vs_precision_vendor"),
                      "of_peak": 100 * tflops / peak})
    return context, table, (fp32_peak, tf32_peak, how)


def label(row):
    vendor = "cuBLAS FP32" if row["precision"] == "fp32" else "cuBLAS TF32"
    text = f"{row['tflops']:.1f}  ({row['of_vendor']:.0f}% of {vendor}, {row['of_peak']:.0f}% of {row['precision'].upper()} peak"
    if row["backend"] == "gpu/tensor-core-3xtf32":
        text += ", on tensor cores"
    return text + ")"


def plot(context, table, peak, size, out):
    fp32_peak, tf32_peak, _ = peak
    rows = list(reversed(table))  # fastest on top
    fig, ax = plt.subplots(figsize=(12, 7.5), dpi=100)
    y = range(len(rows))
    for i, r in zip(y, rows):
        ax.barh(i, r["tflops"], height=0.72, color=COLOUR[r["precision"]], alpha=0.55 if r["vendor_library"] else 1,
                hatch="///" if r["vendor_library"] else None, edgecolor="black" if r["vendor_library"] else "none",
                linewidth=0.8)
        ax.text(r["tflops"] * 1.06, i, label(r), va="center", fontsize=7.5,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 0.4})
    ax.set_yticks(list(y))
    ax.set_yticklabels([r["backend"] for r in rows], fontsize=8)
    for tick, r in zip(ax.get_yticklabels(), rows):
        if r["vendor_library"]:
            tick.set_fontweight("bold")
    ax.set_xscale("log")
    ax.set_xlim(0.5, 3000)
    ax.set_ylim(-0.7, len(rows) + 0.4)  # a free line on top for the peaks' names
    ax.axvline(fp32_peak, color=COLOUR["fp32"], linestyle="--", linewidth=1.2)
    ax.axvline(tf32_peak, color=COLOUR["tf32"], linestyle=":", linewidth=1.4)
    ax.text(fp32_peak * 1.04, len(rows) - 0.05, f"FP32 peak {fp32_peak:.1f}", color=COLOUR["fp32"], fontsize=8.5,
            va="center", fontweight="bold")
    ax.text(tf32_peak * 1.04, len(rows) - 0.05, f"TF32 peak {tf32_peak:.0f}", color=COLOUR["tf32"], fontsize=8.5,
            va="center", fontweight="bold")
    ax.set_xlabel("TFLOP/s (log scale; compute time only, median of each row's samples)")
    gpu = context["gpu"]
    ax.set_title(f"matcompare's GPU ladder on an {gpu['name']}, {size}\u00b3 FP32/TF32 GEMM "
                 f"(commit {context['git_commit']})", fontsize=11)
    ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    handles = [Patch(facecolor=COLOUR["fp32"], label="FP32 step (source documents and beyond)"),
               Patch(facecolor=COLOUR["tf32"], label="TF32 step (tensor cores)"),
               Patch(facecolor=COLOUR["fp32"], alpha=0.55, hatch="///", edgecolor="black",
                     label="FP32 vendor library (bold name)"),
               Patch(facecolor=COLOUR["tf32"], alpha=0.55, hatch="///", edgecolor="black",
                     label="TF32 vendor library (bold name)"),
               Line2D([], [], color=COLOUR["fp32"], linestyle="--", label="FP32 peak (SMs x 128 x 2 x clock)"),
               Line2D([], [], color=COLOUR["tf32"], linestyle=":", label="TF32 dense peak (SMs x 2048 x clock)")]
    ax.legend(handles=handles, loc="lower right", fontsize=8, framealpha=0.95)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100, metadata={"Software": None})
    plt.close(fig)


def markdown(table, rows):
    lines = ["| backend | source step | TFLOP/s | % of cuBLAS | % of peak |", "|---|---|---:|---:|---:|"]
    for r in table:
        if rows is None or r["backend"] in rows:
            vendor = "FP32" if r["precision"] == "fp32" else "TF32"
            name = f"**`{r['backend']}`**" if r["vendor_library"] else f"`{r['backend']}`"
            lines.append(f"| {name} | {r['step']} | {r['tflops']:.1f} | {r['of_vendor']:.0f}% ({vendor}) "
                         f"| {r['of_peak']:.0f}% ({vendor}) |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default=str(ROOT / "bench/data/h200_7412c7f/h200_gpu_2048.json"))
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--out", default=str(ROOT / "docs/images/ladder_h200.png"))
    parser.add_argument("--all-rows", action="store_true", help="print every row, not the headline subset")
    args = parser.parse_args()
    context, table, peak = load(args.json, args.size)
    plot(context, table, peak, args.size, pathlib.Path(args.out))
    gpu = context["gpu"]
    print(f"<!-- bench/front_page.py --json {os.path.relpath(args.json, ROOT)} --size {args.size} -->")
    print(f"device: {gpu['name']} (compute capability {gpu['compute_capability']}, {gpu['multiprocessors']} SMs, "
          f"SM clock max {gpu['sm_clock_max_mhz']} MHz); commit {context['git_commit']}; "
          f"{context['timestamp_utc']}")
    print(f"command: {context['command_line']}")
    print(f"peaks: {peak[2]}")
    gaps = [f"{r['backend']} {r['of_vendor'] / 100:.3f} (medians) vs {r['paired']:.3f} (paired)" for r in table
            if r["paired"] and abs(r["of_vendor"] / 100 / r["paired"] - 1) > 0.03]
    print("medians' ratio and paired ratio within 3% for every row" if not gaps
          else "over 3% apart: " + "; ".join(gaps))
    print(f"wrote {args.out} ({len(table)} bars)\n")
    print(markdown(table, None if args.all_rows else set(HEADLINE)))


if __name__ == "__main__":
    main()
