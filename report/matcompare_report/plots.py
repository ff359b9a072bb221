"""The report's plots: GFLOP/s against size per device, and × vendor bars at fixed sizes."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402

from .markdown import fmt_ratio  # noqa: E402
from .runs import gflops_of, is_estimate, is_ok, positive  # noqa: E402
from .scaling import plot_scaling  # noqa: E402

# The sizes that get a × vendor bar chart, each only when measured.
BAR_CHART_SIZES = (2048, 4096)
PLOT_DPI = 110


def save_figure(figure, out_dir, name):
    # Written beside and renamed, so that an interrupted report never leaves half a PNG.
    partial = os.path.join(out_dir, f".{name}.partial")
    try:
        # No "Software" entry: the PNG then carries neither a version nor (Agg writes none) a date.
        figure.savefig(partial, format="png", dpi=PLOT_DPI, bbox_inches="tight", metadata={"Software": None})
        os.replace(partial, os.path.join(out_dir, name))
    finally:
        plt.close(figure)
        if os.path.exists(partial):
            os.remove(partial)
    return name


def plot_gflops_vs_size(machine, device, out_dir):
    sizes = [s for s in machine.shapes if s[0] == s[1] == s[2]]
    series = []
    for backend in machine.backends:
        if machine.device(backend) != device:
            continue
        # Measured rows only: an estimate is not a point on a curve of measurements.
        points = [(s[0], gflops_of(row) if is_ok(row) else None) for s in sizes for row in [machine.row(backend, s)]]
        points = [(x, y) for x, y in points if y]
        if points:
            series.append((backend, points))
    if not series:
        return None
    figure, axes = plt.subplots(figsize=(9, 5.5))
    # Ten colours, eleven markers and three line styles: no two of up to 30 lines look alike.
    colors = matplotlib.colormaps["tab10"].colors
    markers = "osD^v<>ph*X"
    line_styles = ("-", "-.", ":")
    for index, (backend, points) in enumerate(series):
        vendor = machine.latest_row[backend].get("vendor") is True
        xs, ys = zip(*points)
        axes.plot(xs, ys, label=backend, marker=markers[index % len(markers)], markersize=5,
                  color="black" if vendor else colors[index % len(colors)],
                  linestyle="--" if vendor else line_styles[index // len(colors) % len(line_styles)],
                  linewidth=2.2 if vendor else 1.3)
    used = sorted({x for _, points in series for x, _ in points})
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xticks(used)
    axes.set_xticklabels([str(x) for x in used])
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_xlim(used[0] / 1.3, used[-1] * 1.3)
    axes.grid(True, which="both", alpha=0.3)
    axes.set_xlabel("size (M = N = K)")
    axes.set_ylabel("GFLOP/s (median)")
    axes.set_title(f"{machine.label}: {device.upper()} backends")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(figure, out_dir, f"{machine.slug}-{device}-gflops.png")


def plot_vs_vendor(machine, size, out_dir):
    shape = (size, size, size)
    bars = []
    for backend in machine.backends:
        row = machine.row(backend, shape)
        ratio = positive(row.get("vs_vendor")) if is_ok(row) else None
        if ratio:
            bars.append((backend, ratio, machine.device(backend)))
    if not bars:
        return None
    device_colors = {"cpu": "tab:blue", "gpu": "tab:orange"}
    figure, axes = plt.subplots(figsize=(8, 0.3 * len(bars) + 1.4))
    positions = range(len(bars))
    values = [ratio for _, ratio, _ in bars]
    axes.barh(positions, values, color=[device_colors.get(device, "tab:gray") for _, _, device in bars])
    axes.set_yticks(list(positions))
    axes.set_yticklabels([backend for backend, _, _ in bars], fontsize="small")
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlim(min(values) / 2, max(values) * 4)
    axes.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
    for position, value in zip(positions, values):
        axes.text(value, position, " " + fmt_ratio(value), va="center", fontsize="x-small")
    axes.set_xlabel("× vendor (GFLOP/s ÷ the device's vendor library), log scale")
    axes.set_title(f"{machine.label}: × vendor at {size}")
    present = sorted({device for _, _, device in bars})
    axes.legend(handles=[Patch(color=device_colors.get(d, "tab:gray"), label=d.upper()) for d in present],
                loc="lower right", fontsize="small")
    return save_figure(figure, out_dir, f"{machine.slug}-vs-vendor-{size}.png")


def plots_section(machines, out_dir):
    lines = ["## 4. Plots", ""]
    if any(is_estimate(row) for machine in machines for row in machine.rows.values()):
        lines += ["The plots show measured rows only; estimates (“~… est.” in the tables) are left out.", ""]
    for machine in machines:
        lines += [f"### {machine.label}", ""]
        made = []
        for device in ("cpu", "gpu"):
            name = plot_gflops_vs_size(machine, device, out_dir)
            if name:
                made.append((f"{machine.label}: GFLOP/s versus size, {device.upper()} backends", name))
        for size in BAR_CHART_SIZES:
            name = plot_vs_vendor(machine, size, out_dir)
            if name:
                made.append((f"{machine.label}: × vendor at {size}", name))
        name = plot_scaling(machine, out_dir, plt, save_figure)
        if name:
            made.append((f"{machine.label}: speedup of the multi-GPU rows over one GPU", name))
        lines += [f"![{alt}]({name})\n" for alt, name in made] or ["No successful measurements to plot.", ""]
    return lines

