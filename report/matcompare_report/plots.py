"""The report's plots: GFLOP/s against size per device and step family (each seed's ladder, the steps beyond the seeds
and the vendor libraries), × vendor (or × best vendor) bars at fixed sizes, and a roofline per device whose peak is
known.

Every plot holds at most MAX_SERIES series, each with its own colour and marker: cool colours for FP32 rows, warm ones
for TF32 rows, the device's baseline vendor in black. Estimated figures are drawn hollow (and joined by a dotted
line), never dropped. Each drawing function takes a spec of plain tuples, so the same spec always draws the same PNG.
"""
import math
import os
import textwrap
from collections import namedtuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.markers import MarkerStyle  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402
from matplotlib.transforms import offset_copy  # noqa: E402

from .accuracy import plot_accuracy_speed, plot_error_vs_k  # noqa: E402
from .markdown import code, fmt_gflops, fmt_ratio  # noqa: E402
from .peaks import device_peak  # noqa: E402
from .runs import flops, gflops_of, gpus_of, has_figure, is_estimate, pairs_of, positive  # noqa: E402
from .scaling import plot_scaling  # noqa: E402
from .seeds import SEEDS  # noqa: E402
from .vendors import from_vendor  # noqa: E402
from .workloads import plot_suites  # noqa: E402

# The sizes that get a × vendor bar chart, each only when measured.
BAR_CHART_SIZES = (2048, 4096)
# What a bar chart divides by: the device's vendor, or, in files that have it, the best vendor library of the row's
# precision (rows without it, such as the multi-GPU ones, are then left out of the chart).
Basis = namedtuple("Basis", "field label slug axis")
VS_VENDOR = Basis("vs_vendor", "× vendor", "vs-vendor", "× vendor (GFLOP/s ÷ the device's vendor library)")
VS_BEST_VENDOR = Basis("vs_best_vendor", "× best vendor", "vs-best-vendor",
                       "× best vendor (against the fastest vendor library of the row's precision)")
# Bars by device and precision, so that a TF32 row never passes for an FP32 one; vendor libraries hatched.
BAR_COLORS = {("cpu", "fp32"): "tab:blue", ("gpu", "fp32"): "tab:orange", ("cpu", "tf32"): "tab:purple",
              ("gpu", "tf32"): "tab:green"}
LIBRARY_HATCH = "//"
PLOT_DPI = 110
# Series in one line plot (the baseline vendor included) and bars in one chart; more are split over several plots,
# up to MAX_PARTS of each family per machine, and the rest listed as not plotted. So no plot outgrows its image.
MAX_SERIES = 10
MAX_BARS = 60
MAX_PARTS = 2
# Size ticks on an x axis; with more sizes, only every few get a tick.
MAX_SIZE_LABELS = 16
# The x axis of sizes reaches this factor past the smallest and the largest.
SIZE_MARGIN = 1.3
# Space between two size labels, in ems: the labels of 2048, 2560 and 3072 (M5's sweep) ran together.
SIZE_LABEL_GAP_EMS = 1.0
# Two series closer than this factor at half their common sizes or more lie on one another on a log axis.
COINCIDE_RATIO = 1.15
# How far apart the estimates of rows that compute alike may be for the rows to be drawn as one series.
ESTIMATE_AGREEMENT = 1.03
# Series that lie on one another are drawn side by side at each size, this many points apart: wider than a marker
# (6 points, the baseline vendor's star 9), so that each shows whole; nested inside ever wider ones, three or four
# of them were one thick blot.
DODGE_POINTS = 7
# Characters per line of a legend entry that names several rows.
MERGED_LABEL_WIDTH = 40
# Labelled values on a log axis that spans under two powers of ten (one label gives no scale to read values by).
MIN_LOG_LABELS = 3
# Ten colours of each kind and ten markers: no two series of a plot look alike, and FP32 and TF32 rows differ. The
# legend says "warm colours TF32, cool FP32", so no FP32 colour is warm (olive and brown once were), and no TF32 colour
# is a red that passes for the TF32 peak's line (firebrick).
FP32_COLORS = ("tab:blue", "tab:green", "tab:purple", "tab:cyan", "navy", "teal", "darkgreen", "slateblue",
               "deepskyblue", "mediumseagreen")
TF32_COLORS = ("tab:orange", "tab:pink", "goldenrod", "magenta", "coral", "peru", "gold", "deeppink", "orangered",
               "tab:olive")
MARKERS = ("o", "s", "D", "^", "v", "<", ">", "p", "h", "X")
# The baseline vendor of every line plot, and the peaks' lines.
REFERENCE_STYLE = {"color": "black", "marker": "*", "markersize": 9, "linestyle": "--", "linewidth": 2.0}
PEAK_STYLES = {"fp32": ("dimgray", (0, (6, 3))), "tf32": ("firebrick", (0, (6, 2, 1, 2)))}
ESTIMATE_NOTE = "hollow marker: estimate"

# One series of a line plot: its label, precision ("fp32", "tf32", other), whether it is the baseline vendor, and its
# points (x, y, estimated).
Series = namedtuple("Series", "label precision reference points")
LinePlot = namedtuple("LinePlot", "title xlabel ylabel series peaks")
# One bar: label, ratio, colour key (device, precision), vendor library, estimate, and the IQR as (low, high) or None.
Bar = namedtuple("Bar", "label ratio key library estimated iqr")
BarPlot = namedtuple("BarPlot", "title xlabel bars")
# A roofline: ceilings ((label, GFLOP/s, precision)), the bandwidth (GB/s or None) and the point groups
# ((precision, label, colour, marker, vendor library, ((intensity, GFLOP/s, estimated), …)), …).
Roofline = namedtuple("Roofline", "title ceilings bandwidth groups")


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


def part_title(title, index, count, labels):
    """The title of one of `count` plots of a family, which says which part it is and which rows it holds (the first
    and last of `labels`, in the family's order), so that no two parts have the same title."""
    if count == 1:
        return title
    return f"{title}\npart {index + 1} of {count}: {labels[0]} to {labels[-1]}" if len(labels) > 1 \
        else f"{title}\npart {index + 1} of {count}: {labels[0]}"


def size_ticks(axes, sizes):
    """A log2 x axis from a little below the smallest size to a little above the largest, with a tick at each size
    (at every few where there are many) and a label at each tick whose label keeps SIZE_LABEL_GAP_EMS clear of those
    already placed, the powers of two first: between 2048 and 3072, 2560 has a tick and no label."""
    axes.set_xscale("log", base=2)
    low, high = sizes[0] / SIZE_MARGIN, sizes[-1] * SIZE_MARGIN
    axes.set_xlim(low, high)
    ticks = sizes[::-(-len(sizes) // MAX_SIZE_LABELS)]
    axes.set_xticks(ticks)
    # The axes' width is fixed before anything is drawn (the legend sits outside it, and the saved image is only
    # cropped), so the labels' places and widths in pixels are known here.
    figure = axes.figure
    font = axes.xaxis.get_major_ticks()[0].label1.get_fontproperties()
    renderer = figure.canvas.get_renderer()
    gap = SIZE_LABEL_GAP_EMS * font.get_size_in_points() * figure.dpi / 72
    per_octave = axes.get_position().width * figure.get_figwidth() * figure.dpi / math.log2(high / low)
    placed = {}  # size -> (centre, half the label's width), in pixels
    for x in sorted(ticks, key=lambda x: (not math.log2(x).is_integer(), x)):
        centre = math.log2(x / low) * per_octave
        half = renderer.get_text_width_height_descent(str(x), font, ismath=False)[0] / 2
        if all(abs(centre - other) >= half + other_half + gap for other, other_half in placed.values()):
            placed[x] = (centre, half)
    axes.set_xticklabels([str(x) if x in placed else "" for x in ticks])


def log_ticks_within(low, high):
    """Tick values for a log axis from `low` to `high` that spans under two powers of ten, where matplotlib would
    label one value or none: 1, 2 and 5 of each decade, else all nine, else three values spread over a range too
    narrow for those (two significant digits)."""
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    for subs in ((1, 2, 5), range(1, 10)):
        ticks = [sub * 10.0 ** decade for decade in decades for sub in subs if low <= sub * 10.0 ** decade <= high]
        if len(ticks) >= MIN_LOG_LABELS:
            return ticks
    return sorted({float(f"{low * (high / low) ** share:.2g}") for share in (0.1, 0.5, 0.9)})


def label_log_axes(figure):
    """Every log axis of the figure with readable values: one whose view holds two powers of ten keeps matplotlib's
    labels, a narrower one gets log_ticks_within's, written plainly ("2000", "0.5", "4e-07"); axes whose ticks were
    chosen on purpose (the sizes) are left as they are."""
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            if axis.get_scale() != "log" or isinstance(axis.get_major_locator(), FixedLocator):
                continue
            low, high = sorted(axis.get_view_interval())
            powers = [e for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
                      if low <= 10.0 ** e <= high]
            if len(powers) >= 2:
                continue
            axis.set_major_locator(FixedLocator(log_ticks_within(low, high)))
            axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
            axis.set_minor_formatter(NullFormatter())


def save_figure(figure, out_dir, name):
    # out_dir is the report's new folder, which replaces the old one only when complete.
    try:
        label_log_axes(figure)
        # No "Software" entry: the PNG then carries neither a version nor (Agg writes none) a date.
        figure.savefig(os.path.join(out_dir, name), format="png", dpi=PLOT_DPI, bbox_inches="tight",
                       metadata={"Software": None})
    finally:
        plt.close(figure)
    return name


def fmt_peak(value):
    return f"{value / 1000:,.3g} TFLOP/s" if value >= 1000 else f"{fmt_gflops(value)} GFLOP/s"


# ------------------------------------------------------------------------------ GFLOP/s against size

def precision_of(machine, backend):
    return str(machine.latest_row[backend].get("precision") or "").lower()


def step_families(machine, device, backends):
    """[(slug, title, [backend])]: each seed table's steps on `device` (the vendor rows among them too), then the
    steps beyond the seeds with the vendor libraries (FP32 and TF32 apart), then whatever else there is."""
    families, seed_steps = [], set()
    for seed in SEEDS:
        for spec in seed["tables"]:
            if spec["kind"] not in ("ladder", "loop_order") or spec.get("device") != device:
                continue
            members = []
            for step in spec["steps"]:
                if step.backend in backends and step.backend not in members:
                    members.append(step.backend)
            own = [b for b in members if not is_vendor_row(machine, b)]
            if own:
                loops = "-loops" if spec["kind"] == "loop_order" else ""
                families.append((f"seed{seed['id']}{loops}", f"source document {seed['id']}, {spec['title']}", members))
                seed_steps.update(own)
    rest = [b for b in backends if b not in seed_steps]
    fast = [b for b in rest if is_vendor_row(machine, b) or "beyond" in str(machine.latest_row[b].get("seed") or "")]
    fast_tf32 = [b for b in fast if precision_of(machine, b) == "tf32"]
    fast_other = [b for b in fast if b not in fast_tf32]
    if fast_other and fast_tf32:
        families.append(("fast-fp32", "beyond the source documents and the vendor libraries, FP32", fast_other))
        families.append(("fast-tf32", "beyond the source documents and the vendor libraries, TF32 (tensor cores)", fast_tf32))
    elif fast:
        families.append(("fast", "beyond the source documents and the vendor libraries", fast))
    other = [b for b in rest if b not in fast]
    if other:
        families.append(("other", "other backends", other))
    return families


def series_label(row, backend, gpus=1):
    """The backend's name as a series label, with " (tensor cores)" for a row of FP32 precision computed on the tensor
    cores (3xTF32) and " (2 GPUs)" for one on several GPUs: among one GPU's FP32 rows, above its FP32 peak, either
    would pass for one on the FP32 lanes of one GPU."""
    on_tensor_cores = "tensor core" in str(row.get("idea") or "").lower() or "tf32" in backend.lower()
    tf32 = str(row.get("precision") or "").lower() == "tf32"
    return plain(backend) + (" (tensor cores)" if on_tensor_cores and not tf32 else "") + \
        (f" ({gpus} GPUs)" if gpus > 1 else "")


def most_gpus(machine, backend, sizes):
    """The most GPUs any of the backend's square rows at these sizes ran on."""
    rows = [machine.row(backend, (x, x, x)) for x in sizes]
    return max([gpus_of(row) for row in rows if row] or [1])


def is_vendor_row(machine, backend):
    return from_vendor(machine.latest_row[backend])


def baseline_vendor(machine, device, backends):
    """The device's baseline vendor (the row matcompare marks `vendor`), where it has points."""
    return next((b for b in backends if machine.latest_row[b].get("vendor") is True), None)


def points_of(machine, backend, sizes):
    """((size, GFLOP/s, estimated), …) of the backend's rows with a figure at the square NN sizes."""
    found = []
    for size in sizes:
        row = machine.row(backend, (size, size, size))
        gflops = gflops_of(row)
        if gflops:
            found.append((size, gflops, is_estimate(row)))
    return tuple(found)


def peak_lines(machine, device, precisions):
    peak = device_peak(machine, device)
    if peak is None:
        return ()
    lines = [(f"FP32 peak, {fmt_peak(peak.fp32)}", peak.fp32, "fp32")]
    if peak.tf32 and "tf32" in precisions:
        lines.append((f"TF32 peak, {fmt_peak(peak.tf32)}", peak.tf32, "tf32"))
    return tuple(lines)


def plot_gflops_vs_size(machine, device, out_dir):
    """The GFLOP/s-against-size plots of one device, one or more per step family: [(alt text, file name)], and the
    backends left out."""
    sizes = sorted({s[0] for s in machine.shapes if len(s) == 3 and s[0] == s[1] == s[2]})  # NN squares
    backends = [b for b in machine.backends if machine.device(b) == device and points_of(machine, b, sizes)]
    if not backends:
        return [], []
    reference = baseline_vendor(machine, device, backends)
    made, left_out = [], []
    for slug, title, members in step_families(machine, device, backends):
        members = [b for b in members if b != reference]
        # A line needs two sizes: a family measured at one size is in that size's bar chart.
        if len({x for b in members for x, _, _ in points_of(machine, b, sizes)}) < 2:
            continue
        parts, left = split(members, MAX_SERIES - (1 if reference else 0))
        left_out += left
        for index, part in enumerate(parts):
            chosen = part + ([reference] if reference else [])
            series = tuple(Series(series_label(machine.latest_row[b], b, most_gpus(machine, b, sizes)),
                                  precision_of(machine, b), b == reference,
                                  points_of(machine, b, sizes)) for b in chosen)
            spec = LinePlot(part_title(plain(f"{machine.label}\n{device.upper()}: {title}"), index, len(parts),
                                       [plain(b) for b in part]), "size (M = N = K)",
                            "GFLOP/s (median)", series,
                            peak_lines(machine, device, {s.precision for s in series}))
            name = draw_lines(spec, out_dir, part_file(f"{machine.slug}-{device}-gflops-{slug}", index))
            made.append((part_alt(f"{machine.label}: GFLOP/s versus size, {device.upper()}, {title}", index,
                                  len(parts)), name))
    return made, left_out


def joined_label(labels, exact):
    """One legend entry for rows of the same figures: "a = b = c" (or "a ≈ b" where estimates differ a little),
    wrapped so that the legend stays narrow."""
    return textwrap.fill((" = " if exact else " ≈ ").join(labels), width=MERGED_LABEL_WIDTH, break_on_hyphens=False,
                         subsequent_indent="  ")


def same_figures(first, second):
    """None where the two series differ; else whether they are identical. Alike means the same x values, the very
    same figure wherever both were measured, and within ESTIMATE_AGREEMENT where either is an estimate (estimates
    time different rows of C, so rows that compute alike differ there a little)."""
    if first.precision != second.precision or [x for x, _, _ in first.points] != [x for x, _, _ in second.points]:
        return None
    for (_, y1, estimated1), (_, y2, estimated2) in zip(first.points, second.points):
        if y1 != y2 and (not (estimated1 or estimated2) or abs(math.log(y1 / y2)) > math.log(ESTIMATE_AGREEMENT)):
            return None
    return first.points == second.points


def merge_identical(series):
    """The series with those of the same figures (same_figures) merged into the first, labelled with every name
    ("cpu/loop-ikj = cpu/tiling"): rows that compute alike (the CPU rows' errors) are one line, which its legend
    entry names whole, instead of lines drawn over one another. The baseline vendor stays a series of its own."""
    groups = []
    for one in series:
        group = None if one.reference else next(
            (group for group in groups if not group[0].reference and same_figures(group[0], one) is not None), None)
        if group is None:
            groups.append([one])
        else:
            group.append(one)
    return tuple(group[0] if len(group) == 1 else group[0]._replace(
        label=joined_label([one.label for one in group], all(same_figures(group[0], one) for one in group[1:])))
        for group in groups)


def coincides(first, second):
    """The two series lie on one another: within COINCIDE_RATIO at half their common x values or more."""
    ys = {x: y for x, y, _ in first.points}
    close = [abs(math.log(ys[x] / y)) < math.log(COINCIDE_RATIO) for x, y, _ in second.points if x in ys]
    return bool(close) and 2 * sum(close) >= len(close)


def dodges(series):
    """Per series, its offset sideways in points: series that lie on one another (coincides), directly or through
    others that do, are spread DODGE_POINTS apart around their sizes in the order drawn; any other keeps 0."""
    cluster = list(range(len(series)))
    for index, one in enumerate(series):
        for later in range(index + 1, len(series)):
            if coincides(one, series[later]) and cluster[later] != cluster[index]:
                merged = cluster[later]
                cluster = [cluster[index] if c == merged else c for c in cluster]
    offsets = []
    for index, root in enumerate(cluster):
        members = [member for member, c in enumerate(cluster) if c == root]
        offsets.append(DODGE_POINTS * (members.index(index) - (len(members) - 1) / 2))
    return offsets


def series_style(series, index, counts):
    """Colour, marker and line style of the plot's `index`-th series; `counts` tracks the colours used of each kind."""
    if series.reference:
        return dict(REFERENCE_STYLE)
    kind = "tf32" if series.precision == "tf32" else "fp32"
    palette = TF32_COLORS if kind == "tf32" else FP32_COLORS
    used = counts.get(kind, 0)
    counts[kind] = used + 1
    return {"color": palette[used % len(palette)], "marker": MARKERS[index % len(MARKERS)],
            "markersize": 6, "linestyle": "-", "linewidth": 1.5}


def broken_at_gaps(points, plot_xs):
    """(xs, ys) of `points` (x, y) with a NaN between two neighbours that skip an x of the plot: a line is never drawn
    straight across a size it was not measured at (where the other series were), so it never looks measured there."""
    xs, ys = [], []
    for index, (x, y) in enumerate(points):
        if index and any(points[index - 1][0] < between < x for between in plot_xs):
            xs.append(math.nan)
            ys.append(math.nan)
        xs.append(x)
        ys.append(y)
    return xs, ys


def draw_series(axes, series, style, plot_xs, dodge=0.0):
    """The measured points joined by the series' line, the estimates hollow and joined to them by a dotted one; each
    line broken where the series lacks one of `plot_xs`, the x values of the whole plot; all of it `dodge` points
    to the side (the data stay the sizes themselves)."""
    label = series.label + (" (TF32)" if series.precision == "tf32" and "tf32" not in series.label.lower() else "")
    measured = [(x, y) for x, y, estimated in series.points if not estimated]
    estimates = [(x, y) for x, y, estimated in series.points if estimated]
    aside = offset_copy(axes.transData, fig=axes.figure, x=dodge, units="points")

    def plot(xs, ys, **kwargs):
        axes.plot(xs, ys, transform=aside, **kwargs)
        # Matplotlib leaves a line drawn through an offset out of the data limits: its points are put in here.
        axes.update_datalim([(x, y) for x, y in zip(xs, ys) if not math.isnan(x)])

    if estimates:
        plot(*broken_at_gaps([(x, y) for x, y, _ in series.points], plot_xs), color=style["color"], linestyle=":",
             linewidth=1.0, label=f"_joined {series.label}")
        plot(*zip(*estimates), linestyle="none", marker=style["marker"], markersize=style["markersize"],
             markerfacecolor="white", markeredgecolor=style["color"], markeredgewidth=1.5,
             label=f"_estimated {series.label}" if measured else label)
    if measured:
        plot(*broken_at_gaps(measured, plot_xs), label=label, **style)


def draw_lines(spec, out_dir, name):
    figure, axes = plt.subplots(figsize=(9, 5.5))
    counts = {}
    used = sorted({x for series in spec.series for x, _, _ in series.points})
    drawn = merge_identical(spec.series)
    for index, (series, dodge) in enumerate(zip(drawn, dodges(drawn))):
        draw_series(axes, series, series_style(series, index, counts), used, dodge)
    values = [y for series in spec.series for _, y, _ in series.points]
    for label, value, precision in spec.peaks:
        color, style = PEAK_STYLES.get(precision, PEAK_STYLES["fp32"])
        axes.axhline(value, color=color, linestyle=style, linewidth=1.2, label=label)
        values.append(value)
    size_ticks(axes, used)
    axes.set_yscale("log")
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_ylim(min(values) / 2, max(values) * 2)
    axes.grid(True, which="both", alpha=0.3)
    axes.set_xlabel(spec.xlabel)
    axes.set_ylabel(spec.ylabel)
    axes.set_title(spec.title, fontsize="medium")
    handles, labels = axes.get_legend_handles_labels()
    if any(estimated for series in spec.series for _, _, estimated in series.points):
        handles.append(Line2D([], [], color="gray", linestyle=":", marker="o", markerfacecolor="white",
                              markeredgecolor="gray"))
        labels.append(ESTIMATE_NOTE)
    kinds = {series.precision == "tf32" for series in spec.series if not series.reference}
    title = "warm colours TF32, cool FP32" if kinds == {True, False} else None
    axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", title=title,
                title_fontsize="small")
    return save_figure(figure, out_dir, name)


# ------------------------------------------------------------------------------ bars at a size

def bar_basis(machine, size):
    """VS_BEST_VENDOR where a row with a figure at `size` has a × best vendor, else VS_VENDOR."""
    rows = [machine.row(backend, (size, size, size)) for backend in machine.backends]
    return VS_BEST_VENDOR if any(has_figure(row) and positive(row.get("vs_best_vendor")) for row in rows) \
        else VS_VENDOR


def iqr_of(row, ratio):
    """(low, high) of the row's pair ratios against the vendor, scaled to `ratio` (the quartiles are of × vendor; a
    × best vendor bar gets the same relative spread), or None where the file has none or one pair's (no spread)."""
    median = positive(row.get("vs_vendor"))
    q1, q3 = positive(row.get("vs_vendor_q1")), positive(row.get("vs_vendor_q3"))
    if not (median and q1 and q3 and pairs_of(row) > 1):
        return None
    low, high = ratio * q1 / median, ratio * q3 / median
    return (min(low, ratio), max(high, ratio))


def plot_vs_vendor(machine, size, basis, out_dir):
    """The bar chart(s) at one size against `basis`: [(alt text, file name)], and the backends left out."""
    shape = (size, size, size)
    bars, names = [], []
    for backend in machine.backends:
        row = machine.row(backend, shape)
        ratio = positive(row.get(basis.field)) if has_figure(row) else None
        if ratio:
            bars.append(Bar(plain(backend), ratio, (machine.device(backend), str(row.get("precision"))),
                            from_vendor(row), is_estimate(row), iqr_of(row, ratio)))
            names.append(backend)
    parts, _ = split(bars, MAX_BARS)
    left_out = names[MAX_BARS * MAX_PARTS:]
    made = []
    for index, part in enumerate(parts):
        spec = BarPlot(plain(f"{machine.label}: {basis.label} at {size}"), f"{basis.axis}, log scale", tuple(part))
        name = draw_bars(spec, out_dir, part_file(f"{machine.slug}-{basis.slug}-{size}", index))
        made.append((part_alt(f"{machine.label}: {basis.label} at {size}", index, len(parts)), name))
    return made, left_out


def bar_style(bar):
    """The bar's colour and legend label."""
    return (BAR_COLORS[bar.key], f"{bar.key[0].upper()} {bar.key[1].upper()}") if bar.key in BAR_COLORS \
        else ("tab:gray", "other")


# Between a bar's value label and the end of its bar or whisker cap (the cap is 2.5 points wide each side).
VALUE_GAP_POINTS = 5
# A chart of more bars than this is drawn in a panel per device, one above the other, each with its own x range:
# M4's 48 bars at 2048 were one column, whose CPU estimates (down to 0.0004×) squeezed the GPU rows' differences into
# a quarter of its width.
MAX_PANEL_BARS = 40
# The figure's height, in inches: per bar, for the title and axis, and between two panels (the upper one's ticks and
# the lower one's title).
BAR_INCHES = 0.3
BAR_FRAME_INCHES = 1.6
PANEL_INCHES = 0.8


def bar_panels(bars):
    """[(title, bars)]: the chart's bars in one panel, or, past MAX_PANEL_BARS, in one per device, in the chart's
    order."""
    devices = list(dict.fromkeys(bar.key[0] for bar in bars))
    if len(bars) <= MAX_PANEL_BARS or len(devices) == 1:
        return [("", bars)]
    return [(f"{device.upper()} rows", [bar for bar in bars if bar.key[0] == device]) for device in devices]


def draw_bars(spec, out_dir, name):
    panels = bar_panels(spec.bars)
    gaps = PANEL_INCHES * (len(panels) - 1)
    figure = plt.figure(figsize=(8, BAR_INCHES * len(spec.bars) + BAR_FRAME_INCHES + gaps))
    # Each panel as high as its bars (its margins are a share of them), so that a bar is as high in either; the gap
    # between panels is given as a share of the panels' mean height.
    panels_inches = (figure.subplotpars.top - figure.subplotpars.bottom) * figure.get_figheight() - gaps
    panel_axes = figure.subplots(len(panels), 1, squeeze=False, gridspec_kw={
        "height_ratios": [len(bars) for _, bars in panels], "hspace": gaps / (panels_inches / len(panels))})
    styles = [bar_style(bar) for bar in spec.bars]
    for index, ((title, bars), axes) in enumerate(zip(panels, panel_axes[:, 0])):
        draw_bar_panel(axes, bars)
        heading = (spec.title if index == 0 else "", title)
        axes.set_title("\n".join(part for part in heading if part), fontsize="medium")
    axes.set_xlabel(spec.xlabel)  # under the last panel only
    legend = [Patch(color=color, label=label) for color, label in sorted(set(styles), key=lambda s: s[1])]
    if any(bar.library for bar in spec.bars):
        legend.append(Patch(facecolor="white", edgecolor="black", hatch=LIBRARY_HATCH, label="vendor library"))
    if any(bar.estimated for bar in spec.bars):
        legend.append(Patch(facecolor="white", edgecolor="black", label="hollow: estimate"))
    if any(bar.iqr for bar in spec.bars):
        legend.append(Line2D([], [], color="black", marker="|", linestyle="-", markersize=8,
                             label="IQR of the paired samples"))
    panel_axes[0, 0].legend(handles=legend, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(figure, out_dir, name)


def draw_bar_panel(axes, bars):
    """One panel of a bar chart: the bars, their IQR whiskers and value labels, on a log x range of its own."""
    positions = range(len(bars))
    values = [bar.ratio for bar in bars]
    styles = [bar_style(bar) for bar in bars]
    drawn = axes.barh(positions, values, color=[color for color, _ in styles])
    for patch, bar, (color, _) in zip(drawn.patches, bars, styles):
        if bar.estimated:
            patch.set_facecolor("white")
            patch.set_edgecolor(color)
            patch.set_linewidth(1.5)
        if bar.library:
            patch.set_hatch(LIBRARY_HATCH)
    with_iqr = [(position, bar) for position, bar in zip(positions, bars) if bar.iqr]
    if with_iqr:
        axes.errorbar([bar.ratio for _, bar in with_iqr], [position for position, _ in with_iqr],
                      xerr=[[bar.ratio - bar.iqr[0] for _, bar in with_iqr],
                            [bar.iqr[1] - bar.ratio for _, bar in with_iqr]],
                      fmt="none", ecolor="black", elinewidth=1.0, capsize=2.5)
    axes.set_yticks(list(positions))
    axes.set_yticklabels([bar.label for bar in bars], fontsize="small")
    axes.invert_yaxis()
    axes.set_xscale("log")
    low = min(min(values), min((bar.iqr[0] for bar in bars if bar.iqr), default=min(values)))
    high = max(max(values), max((bar.iqr[1] for bar in bars if bar.iqr), default=max(values)))
    axes.set_xlim(low / 2, high * 6)
    axes.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
    # Each value past its bar's end or its whisker's, whichever is further, by a gap in points: a gap of spaces in
    # the text touched the whisker's cap.
    for position, bar in zip(positions, bars):
        text = fmt_ratio(bar.ratio)
        end = max(bar.ratio, bar.iqr[1]) if bar.iqr else bar.ratio
        axes.annotate(f"~{text} est." if bar.estimated else text, xy=(end, position), xytext=(VALUE_GAP_POINTS, 0),
                      textcoords="offset points", va="center", fontsize="x-small",
                      bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})  # over the line at 1×


# ------------------------------------------------------------------------------ roofline

def intensity(shape):
    """Flop per byte of a GEMM that reads A and B and writes C once, in FP32: 2MNK / (4·(MK + KN + MN))."""
    m, n, k = shape[:3]
    return flops(shape) / (4.0 * (m * k + k * n + m * n))


# Point groups of a roofline: (precision, vendor library) -> label, colour, marker. The vendor libraries' points are
# black crosses, all lines, which neither hide this project's filled points nor are hidden by them (filled points of
# two shades of one colour, navy squares under blue circles, could not be told apart).
ROOF_GROUPS = ((("fp32", False), "FP32, this project", "tab:blue", "o"),
               (("fp32", True), "FP32, vendor libraries", "black", "x"),
               (("tf32", False), "TF32, this project", "tab:red", "^"),
               (("tf32", True), "TF32, vendor libraries", "black", "+"),
               (("other", False), "other precisions", "tab:gray", "v"),
               (("other", True), "other precisions, vendor libraries", "black", "1"))
# A roofline's panels, one per precision that has points, one above the other on the same scales: the H100's and
# H200's TF32 points, drawn over the FP32 ones at the same intensities, hid them.
ROOF_PANELS = (("fp32", "FP32 rows"), ("tf32", "TF32 rows"), ("other", "rows of other precisions"))
# Small, translucent points (this project's, on top, less so than the vendor libraries' crosses, which are drawn a
# little larger to look as large), so that a column of rows at one intensity reads as a stack whose every point
# shows, not as one blot of the last drawn. By vendor library.
ROOF_MARKER_SIZES = {False: 4.5, True: 6.0}
ROOF_ALPHA = {False: 0.7, True: 0.5}


def host_resident(row):
    """The row's matrices stay in host memory: flagged so, or, in files from before the flag, its speedup taken end to
    end (only such rows are)."""
    return row.get("host_resident") is True or row.get("speedup_basis") == "end-to-end"


def plot_roofline(machine, device, out_dir):
    """The roofline of one device where its peak is known: every row with a figure on one device of it, at every
    shape, against the bandwidth slope and the FP32 (and TF32) ceilings; not a row whose matrices stay in host
    memory (cuBLASXt), whose bytes cross the host link, not the device's memory. [(alt text, file name)]."""
    peak = device_peak(machine, device)
    if peak is None:
        return []
    points = {}
    for (backend, *shape), row in sorted(machine.rows.items(), key=lambda item: (str(item[0][0]), item[0][1:])):
        if machine.device(backend) != device or not has_figure(row) or gpus_of(row) > 1 \
                or host_resident(row):
            continue
        precision = str(row.get("precision") or "").lower()
        key = (precision if precision in ("fp32", "tf32") else "other", from_vendor(row))
        points.setdefault(key, []).append((intensity(tuple(shape)), gflops_of(row), is_estimate(row)))
    if not points:
        return []
    groups = tuple((key[0], label, color, marker, key[1], tuple(sorted(points[key])))
                   for key, label, color, marker in ROOF_GROUPS if key in points)
    ceilings = [(f"FP32 peak {fmt_peak(peak.fp32)}", peak.fp32, "fp32")]
    if peak.tf32 and any(key[0] == "tf32" for key in points):
        ceilings.append((f"TF32 peak {fmt_peak(peak.tf32)}", peak.tf32, "tf32"))
    spec = Roofline(plain(f"{machine.label}\n{device.upper()} roofline"), tuple(ceilings), peak.bandwidth, groups)
    name = draw_roofline(spec, out_dir, f"{machine.slug}-{device}-roofline.png")
    return [(f"{machine.label}: roofline of the {device.upper()} rows", name)]


def draw_roofline(spec, out_dir, name):
    panels = [(key, title) for key, title in ROOF_PANELS if any(group[0] == key for group in spec.groups)]
    figure, panel_axes = plt.subplots(len(panels), 1, figsize=(9, 1.5 + 4.0 * len(panels)), squeeze=False)
    xs = [x for *_, points in spec.groups for x, _, _ in points]
    ys = [y for *_, points in spec.groups for _, y, _ in points]
    ridges = [value / spec.bandwidth for _, value, _ in spec.ceilings] if spec.bandwidth else []
    low, high = min(xs + ridges) / 4, max(xs + ridges) * 4
    grid = [low * (high / low) ** (step / 200) for step in range(201)]
    top = max(ys + [value for _, value, _ in spec.ceilings])
    bottom = min(ys + ([spec.bandwidth * low] if spec.bandwidth else []))
    for index, ((panel, panel_title), axes) in enumerate(zip(panels, panel_axes[:, 0])):
        if spec.bandwidth:
            top_ridge = max(ridges)
            slope = [x for x in grid if x <= top_ridge] + [top_ridge]
            axes.plot(slope, [spec.bandwidth * x for x in slope], color="black", linewidth=2.0,
                      label=f"memory bandwidth {fmt_gflops(spec.bandwidth)} GB/s")
        for label, value, precision in spec.ceilings:
            color, _ = PEAK_STYLES.get(precision, PEAK_STYLES["fp32"])
            start = value / spec.bandwidth if spec.bandwidth else low
            flat = [start] + [x for x in grid if x > start]
            axes.plot(flat, [value] * len(flat), color=color, linewidth=2.0, label=label)
        estimated_any = False
        for precision, label, color, marker, library, points in spec.groups:
            if precision != panel:
                continue
            measured = [(x, y) for x, y, estimated in points if not estimated]
            estimates = [(x, y) for x, y, estimated in points if estimated]
            estimated_any = estimated_any or bool(estimates)
            if measured:
                # This project's points on top, outlined; the vendor libraries' crosses paler below them, so that
                # neither hides the other where they overlap.
                axes.plot(*zip(*measured), linestyle="none", marker=marker, color=color,
                          markersize=ROOF_MARKER_SIZES[library], alpha=ROOF_ALPHA[library],
                          markeredgecolor=color if library else "black",
                          markeredgewidth=1.0 if library else 0.4, zorder=2 if library else 3, label=label)
            if estimates:
                # Hollow: a cross has no inside to leave white, so its estimates are hollow circles.
                axes.plot(*zip(*estimates), linestyle="none",
                          marker=marker if MarkerStyle(marker).is_filled() else "o", markerfacecolor="white",
                          markeredgecolor=color, markersize=ROOF_MARKER_SIZES[library], alpha=ROOF_ALPHA[library],
                          label=f"_estimated {label}" if measured else label)
        axes.set_xscale("log")
        axes.set_yscale("log")
        # The same scales in every panel, each labelled.
        axes.set_xlim(low, high)
        axes.set_ylim(max(bottom / 2, top / 1e7), top * 3)
        axes.grid(True, which="both", alpha=0.3)
        axes.set_ylabel("GFLOP/s (median)")
        note = "" if spec.bandwidth else " (bandwidth not known: ceilings only)"
        axes.set_title(f"{spec.title}{note}\n{panel_title}" if index == 0 else panel_title, fontsize="medium")
        handles, labels = axes.get_legend_handles_labels()
        if estimated_any:
            handles.append(Line2D([], [], color="gray", linestyle="none", marker="o", markerfacecolor="white",
                                  markeredgecolor="gray"))
            labels.append(ESTIMATE_NOTE)
        axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    # Under the last panel only.
    axes.set_xlabel("arithmetic intensity 2MNK / (4·(MK + KN + MN)), flop per byte (A, B read and C written once)")
    return save_figure(figure, out_dir, name)


# ------------------------------------------------------------------------------ the section

def image(alt, name):
    # Brackets in a host or GPU name would end the alt text early.
    alt = alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return f"![{alt}]({name})\n"


def plots_section(machines, out_dir):
    try:
        return plot_machines(machines, out_dir)
    finally:
        plt.close("all")  # a figure that failed half drawn, too


PLOTS_TEXT = (
    "GFLOP/s against size, one plot per step family and device: each source document's ladder, then the steps beyond them "
    "with the vendor libraries (FP32 and TF32 apart where both ran). At most ten series a plot, each with its own "
    "colour and marker; cool colours are FP32 rows and warm ones TF32 rows (an FP32 row computed on the tensor cores, "
    "3xTF32, says “(tensor cores)” beside its name); the device's baseline vendor is the black dashed line with "
    "stars; the peaks of section 1a are drawn where known. A line is broken where its row lacks a size that others "
    "on the plot have. Rows of the same figures are one line named for all of them (“a = b”; “a ≈ b” where only "
    "their estimates differ, by under 3%), and rows within 15% of one another are drawn side by side, a few points "
    "apart at each size, so that each one's markers show whole. A size whose label would run into its neighbours' "
    "has a tick and no label. Estimates (“~… est.” in the tables) are "
    "hollow markers joined by a dotted line, and hollow bars. The bar charts show each row's ratio to the vendor at a "
    "size (to the fastest vendor library of its precision where the files name one), coloured by device and "
    "precision, vendor libraries hatched, with the interquartile range of the paired samples as error bars where the "
    "files have it (against the fastest library: the quartiles of the row's pairs against the baseline vendor, "
    "scaled to the ratio drawn); a chart of more than 40 bars has a panel per device, each with its own scale. The "
    "rooflines draw every row of a device with a figure at every shape against the memory-bandwidth slope and the FP32 "
    "(and TF32) ceilings, a panel per precision, this project's rows as small translucent points over the vendor "
    "libraries' crosses; x is the arithmetic intensity of the "
    "shape with A and B read and C written once, N/6 flop per byte for a square N (171 at 1024, 341 at 2048, 683 at "
    "4096, 1365 at 8192), so each shape is a column of points and GEMMs of these sizes sit right of the ridge: "
    "compute-bound. The accuracy plots (section 2e): the relative error against K of each error-vs-k distribution, "
    "a line per row (the vendor libraries first, then this project's rows fastest first) with the guides √K·u and "
    "K·u of each precision dashed; and the relative error against GFLOP/s of every row at the shape of the "
    "accuracy-against-speed table, coloured by device and precision (this project's rows and the vendor libraries' "
    "in hues far apart), every point named, the Pareto front joined and ringed.")


def plot_machines(machines, out_dir):
    lines = ["## 4. Plots", "", PLOTS_TEXT, ""]
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
        for device in ("cpu", "gpu"):
            made += plot_roofline(machine, device, out_dir)
        made += plot_suites(machine, out_dir, plt, save_figure)
        parts, left = plot_error_vs_k(machine, out_dir, plt, save_figure)
        made += parts
        left_out += left
        made += plot_accuracy_speed(machine, out_dir)
        parts, left = plot_scaling(machine, out_dir)
        made += parts
        left_out += [("scaling", [f"{b} on {d} GPU(s)" for b, d in left])] if left else []
        lines += [image(alt, name) for alt, name in made] or ["No successful measurements to plot.", ""]
        for what, names in left_out:
            lines += [f"Not plotted in {what} (more than {MAX_PARTS} plots' worth): "
                      + ", ".join(code(name) for name in names) + ".", ""]
    return lines

