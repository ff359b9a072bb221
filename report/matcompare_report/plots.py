"""The report's plots: GFLOP/s against size per device, and × vendor (or × best vendor) bars at fixed sizes."""
import os
from collections import namedtuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402

from .markdown import code, fmt_ratio  # noqa: E402
from .runs import gflops_of, is_estimate, is_ok, positive  # noqa: E402
from .scaling import plot_scaling  # noqa: E402
from .vendors import is_library  # noqa: E402
from .workloads import plot_suites  # noqa: E402

# The sizes that get a × vendor bar chart, each only when measured.
BAR_CHART_SIZES = (2048, 4096)
# What a bar chart divides by: the device's vendor, or, in files that have it, the best vendor library of the row's
# precision (rows without it, such as the multi-GPU ones, are then left out of the chart).
Basis = namedtuple("Basis", "field label slug axis")
VS_VENDOR = Basis("vs_vendor", "× vendor", "vs-vendor", "× vendor (GFLOP/s ÷ the device's vendor library)")
VS_BEST_VENDOR = Basis("vs_best_vendor", "× best vendor", "vs-best-vendor",
                       "× best vendor (against the fastest vendor library of the row's precision)")
# One bar: what draw_bars reads of its row.
Bar = namedtuple("Bar", "backend ratio device precision library")
# Bars by device and precision, so that a TF32 row never passes for an FP32 one; vendor libraries hatched.
BAR_COLORS = {("cpu", "fp32"): "tab:blue", ("gpu", "fp32"): "tab:orange", ("cpu", "tf32"): "tab:purple",
              ("gpu", "tf32"): "tab:green"}
LIBRARY_HATCH = "//"
PLOT_DPI = 110
# Lines in one plot (no two of them look alike) and bars in one chart; more are split over several plots, up to
# MAX_PARTS of each kind per machine, and the rest listed as not plotted. So no plot outgrows its image.
MAX_LINES = 30
MAX_BARS = 60
MAX_PARTS = 2
# Size labels on an x axis; with more sizes, only every few get a label.
MAX_SIZE_LABELS = 16


def plain(text):
    """`text` drawn as it is: matplotlib would read a pair of dollar signs as mathematics."""
    return str(text).replace("$", r"\$")


def split(items, size):
    """The parts to plot (at most MAX_PARTS of `size` items) and the items left out."""
    parts = [items[start:start + size] for start in range(0, len(items), size)]
    return parts[:MAX_PARTS], items[size * MAX_PARTS:]


def part_file(base, index):
    return f"{base}.png" if index == 0 else f"{base}-{index + 1}.png"


def part_alt(alt, index, count):
    return alt if count == 1 else f"{alt}, part {index + 1} of {count}"


def size_ticks(axes, sizes):
    """A log2 x axis with a tick and label at each size, or at every few where there are many."""
    axes.set_xscale("log", base=2)
    ticks = sizes[::-(-len(sizes) // MAX_SIZE_LABELS)]
    axes.set_xticks(ticks)
    axes.set_xticklabels([str(x) for x in ticks])


def save_figure(figure, out_dir, name):
    # out_dir is the report's new folder, which replaces the old one only when complete.
    try:
        # No "Software" entry: the PNG then carries neither a version nor (Agg writes none) a date.
        figure.savefig(os.path.join(out_dir, name), format="png", dpi=PLOT_DPI, bbox_inches="tight",
                       metadata={"Software": None})
    finally:
        plt.close(figure)
    return name


def plot_gflops_vs_size(machine, device, out_dir):
    """The GFLOP/s-against-size plot(s) of one device: [(alt text, file name)], and the backends left out."""
    sizes = [s for s in machine.shapes if len(s) == 3 and s[0] == s[1] == s[2]]  # NN squares: one line a row
    series = []
    for backend in machine.backends:
        if machine.device(backend) != device:
            continue
        # Measured rows only: an estimate is not a point on a curve of measurements.
        points = [(s[0], gflops_of(row) if is_ok(row) else None) for s in sizes for row in [machine.row(backend, s)]]
        points = [(x, y) for x, y in points if y]
        if points:
            series.append((backend, points))
    parts, left_out = split(series, MAX_LINES)
    made = []
    for index, part in enumerate(parts):
        name = draw_gflops(machine, device, part, out_dir, part_file(f"{machine.slug}-{device}-gflops", index))
        made.append((part_alt(f"{machine.label}: GFLOP/s versus size, {device.upper()} backends", index, len(parts)),
                     name))
    return made, [backend for backend, _ in left_out]


def draw_gflops(machine, device, series, out_dir, name):
    figure, axes = plt.subplots(figsize=(9, 5.5))
    # Ten colours, eleven markers and three line styles: no two of up to 30 lines look alike.
    colors = matplotlib.colormaps["tab10"].colors
    markers = "osD^v<>ph*X"
    line_styles = ("-", "-.", ":")
    for index, (backend, points) in enumerate(series):
        vendor = machine.latest_row[backend].get("vendor") is True
        xs, ys = zip(*points)
        axes.plot(xs, ys, label=plain(backend), marker=markers[index % len(markers)], markersize=5,
                  color="black" if vendor else colors[index % len(colors)],
                  linestyle="--" if vendor else line_styles[index // len(colors) % len(line_styles)],
                  linewidth=2.2 if vendor else 1.3)
    used = sorted({x for _, points in series for x, _ in points})
    size_ticks(axes, used)
    axes.set_yscale("log")
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_xlim(used[0] / 1.3, used[-1] * 1.3)
    axes.grid(True, which="both", alpha=0.3)
    axes.set_xlabel("size (M = N = K)")
    axes.set_ylabel("GFLOP/s (median)")
    axes.set_title(plain(f"{machine.label}: {device.upper()} backends"))
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(figure, out_dir, name)


def bar_basis(machine, size):
    """VS_BEST_VENDOR where a measured row at `size` has a × best vendor, else VS_VENDOR."""
    rows = [machine.row(backend, (size, size, size)) for backend in machine.backends]
    return VS_BEST_VENDOR if any(is_ok(row) and positive(row.get("vs_best_vendor")) for row in rows) else VS_VENDOR


def plot_vs_vendor(machine, size, basis, out_dir):
    """The bar chart(s) at one size against `basis`: [(alt text, file name)], and the backends left out."""
    shape = (size, size, size)
    bars = []
    for backend in machine.backends:
        row = machine.row(backend, shape)
        ratio = positive(row.get(basis.field)) if is_ok(row) else None
        if ratio:
            bars.append(Bar(backend, ratio, machine.device(backend), str(row.get("precision")), is_library(row)))
    parts, left_out = split(bars, MAX_BARS)
    made = []
    for index, part in enumerate(parts):
        name = draw_bars(machine, size, basis, part, out_dir, part_file(f"{machine.slug}-{basis.slug}-{size}", index))
        made.append((part_alt(f"{machine.label}: {basis.label} at {size}", index, len(parts)), name))
    return made, [bar.backend for bar in left_out]


def bar_style(bar):
    """The bar's colour and legend label."""
    key = (bar.device, bar.precision)
    return (BAR_COLORS[key], f"{bar.device.upper()} {bar.precision.upper()}") if key in BAR_COLORS \
        else ("tab:gray", "other")


def draw_bars(machine, size, basis, bars, out_dir, name):
    figure, axes = plt.subplots(figsize=(8, 0.3 * len(bars) + 1.4))
    positions = range(len(bars))
    values = [bar.ratio for bar in bars]
    styles = [bar_style(bar) for bar in bars]
    drawn = axes.barh(positions, values, color=[color for color, _ in styles])
    for patch, bar in zip(drawn.patches, bars):
        if bar.library:
            patch.set_hatch(LIBRARY_HATCH)
    axes.set_yticks(list(positions))
    axes.set_yticklabels([plain(bar.backend) for bar in bars], fontsize="small")
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlim(min(values) / 2, max(values) * 4)
    axes.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
    for position, value in zip(positions, values):
        axes.text(value, position, " " + fmt_ratio(value), va="center", fontsize="x-small")
    axes.set_xlabel(f"{basis.axis}, log scale")
    axes.set_title(plain(f"{machine.label}: {basis.label} at {size}"))
    legend = [Patch(color=color, label=label) for color, label in sorted(set(styles), key=lambda s: s[1])]
    if any(bar.library for bar in bars):
        legend.append(Patch(facecolor="white", edgecolor="black", hatch=LIBRARY_HATCH, label="vendor library"))
    axes.legend(handles=legend, loc="lower right", fontsize="small")
    return save_figure(figure, out_dir, name)


def image(alt, name):
    # Brackets in a host or GPU name would end the alt text early.
    alt = alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return f"![{alt}]({name})\n"


def plots_section(machines, out_dir):
    try:
        return plot_machines(machines, out_dir)
    finally:
        plt.close("all")  # a figure that failed half drawn, too


def plot_machines(machines, out_dir):
    lines = ["## 4. Plots", ""]
    if any(is_estimate(row) for machine in machines for row in machine.rows.values()):
        lines += ["The plots show measured rows only; estimates (“~… est.” in the tables) are left out.", ""]
    for machine in machines:
        lines += [f"### {machine.label}", ""]
        made, left_out = [], []
        for device in ("cpu", "gpu"):
            parts, left = plot_gflops_vs_size(machine, device, out_dir)
            made += parts
            left_out += [(f"GFLOP/s versus size, {device.upper()}", left)] if left else []
        for size in BAR_CHART_SIZES:
            basis = bar_basis(machine, size)
            parts, left = plot_vs_vendor(machine, size, basis, out_dir)
            made += parts
            left_out += [(f"{basis.label} at {size}", left)] if left else []
        made += plot_suites(machine, out_dir, plt, save_figure)
        parts, left = plot_scaling(machine, out_dir, plt, save_figure)
        made += parts
        left_out += [("scaling", [f"{b} on {d} GPU(s)" for b, d in left])] if left else []
        lines += [image(alt, name) for alt, name in made] or ["No successful measurements to plot.", ""]
        for what, names in left_out:
            lines += [f"Not plotted in {what} (more than {MAX_PARTS} plots' worth): "
                      + ", ".join(code(name) for name in names) + ".", ""]
    return lines
