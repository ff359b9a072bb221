"""Accuracy (issue 31's error study): each row's relative error (`rel_error`, ‖C − C_ref‖_F ÷ ‖C_ref‖_F against a
float64 reference) against K, from the runs of the `error-vs-k` suite, one table and plot per value distribution
(`--values`); and each machine's rows at one square shape placed by speed and error, with their Pareto front.

The error-vs-k runs of one machine share their shapes whatever their inputs, so they are read run by run (grouped by
the run's `input_values`), never through the machine's merged rows, where one distribution would replace the other.
The accuracy against speed uses the machine's merged rows (uniform inputs), as the overview does. Machines without
either show none of it."""
import math
from collections import namedtuple

from .markdown import (DASH, Sourced, code, file_slug, fmt_gflops, fmt_sig, marked, marked_table, shape_label,
                       status_text)
from .runs import UNIFORM, gflops_of, has_figure, input_values, is_estimate, is_number, shape_of
from .vendors import from_vendor

# The suite's name (suites/error-vs-k.txt).
ERROR_SUITE = "error-vs-k"
# Unit roundoff of each precision: FP32 keeps 24 bits of significand, TF32 11; 3xTF32 rows say "fp32".
UNIT_ROUNDOFF = {"fp32": 2.0 ** -24, "tf32": 2.0 ** -11}
UNIT_TEXT = {"fp32": "2⁻²⁴", "tf32": "2⁻¹¹"}
VALUES_TEXT = {UNIFORM: "uniform reals in [−1, 1]", "reals-1-100": "reals in [1, 100]",
               "integers-1-100": "integers in 1..100"}
# A row of the accuracy-against-speed table needs someone to stand against.
MIN_SPEED_ROWS = 2


def rel_error_of(row):
    """The row's relative error where it has a figure (0 included), else None."""
    if not has_figure(row):
        return None
    value = row.get("rel_error")
    return value if is_number(value) and value >= 0 else None


def fmt_rel(value):
    """Three significant digits, always in the same notation ("1.23e-06"), so that a column reads at a glance."""
    if value is None:
        return DASH
    return "0" if value == 0 else f"{value:.2e}"


def precision_key(row):
    return str((row or {}).get("precision") or "").lower()


def guide_values(precision, ks):
    """((√K·u, K·u) per K) for a precision with a known unit roundoff, else None."""
    unit = UNIT_ROUNDOFF.get(precision)
    if unit is None:
        return None
    return tuple((math.sqrt(k) * unit, k * unit) for k in ks)


# ------------------------------------------------------------------------------ error against K

# One value distribution of a machine's error-vs-k runs: its `input_values`, the shapes measured (by K), the rows
# {(backend, shape): row} (a newer run of the same inputs replaces an older one's row), and the backends with an error.
Sweep = namedtuple("Sweep", "values shapes rows backends")


def error_sweeps(machine):
    """[Sweep] of the machine's error-vs-k runs, one per value distribution, in name order."""
    found = {}
    for run in machine.runs:  # oldest first: a newer run's row wins
        suite = run.context.get("suite")
        if not isinstance(suite, dict) or suite.get("name") != ERROR_SUITE:
            continue
        listed = {(e.get("m"), e.get("n"), e.get("k")) + (() if e.get("layout", "NN") == "NN" else (e.get("layout"),))
                  for e in suite.get("shapes") or [] if isinstance(e, dict)}
        rows = found.setdefault(input_values(run.context), {})
        for row in run.results:
            shape = shape_of(row)
            if not listed or shape in listed:
                rows[(row["backend"], shape)] = row
    sweeps = []
    # Uniform inputs first (the overview's), then the others by name.
    for values, rows in sorted(found.items(), key=lambda item: (item[0] != UNIFORM, item[0])):
        shapes = sorted({shape for _, shape in rows}, key=lambda s: (s[2], s))
        backends = [b for b in machine.backends
                    if any(rel_error_of(rows.get((b, shape))) is not None for shape in shapes)]
        if backends:
            sweeps.append(Sweep(values, tuple(shapes), rows, tuple(backends)))
    return sweeps


def sweep_headers(shapes):
    """"K = 256" per shape where the shapes differ only in K, else each shape's own label."""
    same = len({s[:2] + s[3:] for s in shapes}) == 1
    return [f"K = {s[2]}" if same else shape_label(s) for s in shapes]


def sweep_precisions(machine, sweep):
    """The precisions of the sweep's rows that have a unit roundoff, FP32 first."""
    found = {precision_key(machine.latest_row[b]) for b in sweep.backends}
    return [p for p in UNIT_ROUNDOFF if p in found]


def slope(points):
    """The exponent p of error ∝ K^p fitted (least squares in log–log) to the positive errors, or None under two Ks."""
    pairs = [(math.log(k), math.log(e)) for k, e in points if e > 0]
    if len({x for x, _ in pairs}) < 2:
        return None
    mean_x = sum(x for x, _ in pairs) / len(pairs)
    mean_y = sum(y for _, y in pairs) / len(pairs)
    return (sum((x - mean_x) * (y - mean_y) for x, y in pairs)
            / sum((x - mean_x) ** 2 for x, _ in pairs))


def sweep_table(machine, sweep):
    rows = []
    for backend in sweep.backends:
        cells, points = [], []
        for shape in sweep.shapes:
            row = sweep.rows.get((backend, shape))
            error = rel_error_of(row)
            if error is not None:
                points.append((shape[2], error))
            cells.append(Sourced(marked(row, fmt_rel(error)) if has_figure(row) else status_text(row, DASH), row))
        fitted = slope(points)
        rows.append([code(backend), precision_key(machine.latest_row[backend]) or DASH] + cells
                    + [DASH if fitted is None else f"{fitted:.2f}"])
    ks = [shape[2] for shape in sweep.shapes]
    for precision in sweep_precisions(machine, sweep):
        guides = guide_values(precision, ks)
        for index, name in enumerate(("√K·u", "K·u")):
            rows.append([f"*guide {name}*", f"*{precision}, u = {UNIT_TEXT[precision]}*"]
                        + [f"*{fmt_rel(pair[index])}*" for pair in guides] + [f"*{0.5 * (index + 1):.2f}*"])
    headers = ["Backend", "Precision"] + sweep_headers(sweep.shapes) + ["Slope"]
    return marked_table(machine, headers, rows, fixed=2)


def sweep_heading(machine, sweep):
    shapes = sweep.shapes
    mn = {s[:2] for s in shapes}
    where = f"M = {shapes[0][0]}, N = {shapes[0][1]}" if len(mn) == 1 else "its shapes"
    if len(mn) == 1 and shapes[0][0] == shapes[0][1]:
        where = f"M = N = {shapes[0][0]}"
    return ([f"### {machine.label}: error against K, inputs {code(sweep.values)}", "",
             f"Relative error of each row at {where} ({VALUES_TEXT.get(sweep.values, 'inputs ' + sweep.values)}), "
             "from the machine's error-vs-k runs on these inputs only.", ""])


# ------------------------------------------------------------------------------ accuracy against speed

# One row at the chosen shape: backend, device, precision, GFLOP/s, relative error, vendor library, estimate, row.
Point = namedtuple("Point", "backend device precision gflops error library estimated row")


def speed_points(machine, shape):
    """The rows at `shape` with a rate and an error: one device's rows, not the multi-GPU ones (on several GPUs, or
    with their matrices in host memory), which section 2c compares."""
    points = []
    for backend in machine.backends:
        row = machine.row(backend, shape)
        gflops, error = gflops_of(row), rel_error_of(row)
        if gflops and error is not None and not (row or {}).get("speedup_basis"):
            points.append(Point(backend, str(row.get("device") or machine.device(backend)), precision_key(row),
                                gflops, error, from_vendor(row), is_estimate(row), row))
    return points


def speed_shape(machine):
    """The square NN shape with the most rows that have both a rate and an error (ties: the larger), or None where
    no square shape has MIN_SPEED_ROWS of them."""
    best = None
    for shape in machine.shapes:
        if len(shape) != 3 or not shape[0] == shape[1] == shape[2]:
            continue
        count = len(speed_points(machine, shape))
        if count >= MIN_SPEED_ROWS and (best is None or (count, shape[0]) > best[0]):
            best = ((count, shape[0]), shape)
    return best[1] if best else None


def dominates(a, b):
    """`a` is at least as fast and at least as accurate as `b`, and strictly better in one of the two."""
    return a.gflops >= b.gflops and a.error <= b.error and (a.gflops > b.gflops or a.error < b.error)


def pareto_front(points):
    """{index: None for a point on the front, else the index of the fastest point that dominates it}."""
    verdict = {}
    for index, point in enumerate(points):
        better = [other for other, candidate in enumerate(points) if other != index and dominates(candidate, point)]
        verdict[index] = max(better, key=lambda other: (points[other].gflops, -points[other].error, -other)) \
            if better else None
    return verdict


def fmt_speed(point):
    """TFLOP/s for a GPU row (three significant digits), GFLOP/s for any other, as the report's peaks are shown."""
    if point.device == "gpu":
        return f"{fmt_sig(point.gflops / 1000)} TFLOP/s"
    return f"{fmt_gflops(point.gflops)} GFLOP/s"


def ordered(points):
    """Fastest first; equal rates the more accurate first, then by name: the table and the plot read the same."""
    return sorted(points, key=lambda p: (-p.gflops, p.error, p.backend))


def speed_table(machine, points):
    points = ordered(points)
    verdict = pareto_front(points)
    rows = []
    for index, point in enumerate(points):
        above = verdict[index]
        front = "**yes**" if above is None else f"no: {code(points[above].backend)}"
        rows.append([code(point.backend), point.device.upper(), point.precision or DASH,
                     Sourced(marked(point.row, fmt_speed(point)), point.row),
                     Sourced(marked(point.row, fmt_rel(point.error)), point.row), front])
    return marked_table(machine, ["Backend", "Device", "Precision", "Rate", "Relative error", "On the Pareto front"],
                        rows)


# ------------------------------------------------------------------------------ the section

ACCURACY_TEXT = (
    "Each row's relative error is ‖C − C_ref‖_F ÷ ‖C_ref‖_F against a float64 reference (matcompare's `rel_error`), "
    "three significant digits; “~… est.” marks an estimated row, whose error covers the rows of C it timed. u is the "
    "unit roundoff of the row's precision: 2⁻²⁴ ≈ 5.96e-08 for FP32 (3xTF32 rows are FP32), 2⁻¹¹ ≈ 4.88e-04 for "
    "TF32. In the tables of error against K (runs of the `error-vs-k` suite, one table per value distribution, each "
    "from its own runs) the guide rows are √K·u, how a sum of K rounded terms grows when its rounding errors cancel "
    "at random, and K·u, the order of the worst-case bound per entry (relative to Σ|a·b|); they show the growth with "
    "K to expect, not bounds on these errors. “Slope” is the exponent p of error ∝ K^p fitted over the row's Ks "
    "(0.50 for the first guide, 1.00 for the second). The accuracy against speed takes each machine's square shape "
    "with the most rows that have both a rate and an error (the larger on a tie), from the merged runs on uniform "
    "inputs: a row is on the Pareto front unless another row is at least as fast and at least as accurate and "
    "better in one of the two (so of rows with equal errors only the fastest is on it, and rows equal in both are on "
    "it together); a row off it names the fastest row that beats it. An error of 0 is in the tables but not on the "
    "log plots.")


def accuracy_section(machines):
    lines = []
    for machine in machines:
        for sweep in error_sweeps(machine):
            lines += sweep_heading(machine, sweep) + sweep_table(machine, sweep)
        shape = speed_shape(machine)
        if shape is not None:
            points = speed_points(machine, shape)
            lines += [f"### {machine.label}: accuracy against speed at {shape_label(shape)}", ""]
            lines += speed_table(machine, points)
    if not lines:
        return []
    return ["## 2e. Accuracy", "", ACCURACY_TEXT, "",
            "The error-against-K runs: `matcompare --suite error-vs-k --values uniform --format json --out "
            "error_uniform.json` and `matcompare --suite error-vs-k --values reals-1-100 --format json --out "
            "error_reals.json` on the same machine, both given to the report.", ""] + lines


# ------------------------------------------------------------------------------ the plots

# The accuracy-against-speed plot's point groups: (device, precision kind, vendor library) -> label, colour, marker.
# Cool colours FP32, warm TF32, gray anything else (one group): at most nine groups, each its own colour and marker.
# This project's group and the vendor libraries' of one device and precision lie close together, so their hues are
# far apart (blue and purple, cyan and green, gold and crimson, orange and pink), not shades of one colour.
SPEED_GROUPS = ((("cpu", "fp32", False), "CPU FP32, this project", "tab:blue", "o"),
                (("cpu", "fp32", True), "CPU FP32, vendor libraries", "tab:purple", "s"),
                (("gpu", "fp32", False), "GPU FP32, this project", "tab:cyan", "^"),
                (("gpu", "fp32", True), "GPU FP32, vendor libraries", "tab:green", "D"),
                (("cpu", "tf32", False), "CPU TF32, this project", "gold", "v"),
                (("cpu", "tf32", True), "CPU TF32, vendor libraries", "crimson", "<"),
                (("gpu", "tf32", False), "GPU TF32, this project", "tab:orange", ">"),
                (("gpu", "tf32", True), "GPU TF32, vendor libraries", "tab:pink", "p"),
                (("other", "other", False), "other devices or precisions", "tab:gray", "h"))
FRONT_LABEL = "Pareto front (joined, ringed)"
# The guides of the error-against-K plot: colour per precision, dash pattern per guide.
GUIDE_COLORS = {"fp32": "dimgray", "tf32": "firebrick"}
GUIDE_DASHES = ((0, (6, 3)), (0, (2, 2)))


def speed_group(point):
    if point.device in ("cpu", "gpu") and point.precision in ("fp32", "tf32"):
        return (point.device, point.precision, point.library)
    return ("other", "other", False)


def sweep_series_order(machine, sweep):
    """The sweep's backends in plot order: the vendor libraries first, then this project's rows, each fastest first
    (its best GFLOP/s over the sweep), ties in registry order."""
    def key(backend):
        library = from_vendor(machine.latest_row[backend])
        best = max((gflops_of(sweep.rows.get((backend, s))) or 0 for s in sweep.shapes), default=0)
        return (not library, -best, machine.backends.index(backend))
    return sorted(sweep.backends, key=key)


def sweep_reference(machine, backends):
    """The baseline vendor (matcompare's `vendor` row) drawn in every part as the black dashed reference: of the
    device with the most of the sweep's rows where the sweep has both devices' baselines; None where it has none."""
    baselines = [b for b in backends if machine.latest_row[b].get("vendor") is True]
    if not baselines:
        return None
    count = {}
    for backend in backends:
        count[machine.device(backend)] = count.get(machine.device(backend), 0) + 1
    return max(baselines, key=lambda b: (count.get(machine.device(b), 0), -backends.index(b)))


def balanced_parts(items, size, parts_at_most):
    """`items` in order over as few parts of at most `size` as hold them (at most `parts_at_most`), the parts as
    even as they can be; and the items left out."""
    if not items:
        return [[]], []
    parts = min(parts_at_most, -(-len(items) // size))
    each = min(size, -(-len(items) // parts))
    return [items[start:start + each] for start in range(0, each * parts, each) if items[start:start + each]], \
        items[each * parts:]


def plot_error_vs_k(machine, out_dir, plt, save_figure):
    """One plot per value distribution of the error-vs-k runs (split in two where it has more than MAX_SERIES rows,
    the baseline vendor in each part): [(alt text, file name)], and [(what, backends left out)]."""
    from .plots import (MAX_PARTS, MAX_SERIES, Series, merge_identical, part_alt, part_file, part_title, plain,
                        series_label)
    made, left_out = [], []
    for sweep in error_sweeps(machine):
        series = {}
        for backend in sweep_series_order(machine, sweep):
            points = tuple((shape[2], error, is_estimate(row)) for shape in sweep.shapes
                           for row in [sweep.rows.get((backend, shape))] for error in [rel_error_of(row)]
                           if error is not None and error > 0)
            if points:
                series[backend] = points
        if not series:
            continue
        reference = sweep_reference(machine, list(series))
        # Rows of identical errors (many CPU rows sum alike) are one series before the rows are split into parts.
        others = list(merge_identical([Series(series_label(machine.latest_row[b], b),
                                              precision_key(machine.latest_row[b]), False, series[b])
                                       for b in series if b != reference]))
        parts, left = balanced_parts(others, MAX_SERIES - (1 if reference else 0), MAX_PARTS)
        if left:
            left_out.append((f"error against K, inputs {sweep.values}",
                             [b for b in series if b != reference and any(
                                 (series[b], precision_key(machine.latest_row[b])) == (one.points, one.precision)
                                 for one in left)]))
        ks = [shape[2] for shape in sweep.shapes]
        base = f"{machine.slug}-error-vs-k-{file_slug(sweep.values)}"
        title = f"{machine.label}: relative error against K, inputs {sweep.values}"
        for index, part in enumerate(parts):
            drawn = tuple(part) + ((Series(series_label(machine.latest_row[reference], reference),
                                           precision_key(machine.latest_row[reference]), True, series[reference]),)
                                   if reference else ())
            precisions = [p for p in UNIT_ROUNDOFF if any(s.precision == p for s in drawn)]
            name = draw_error_vs_k(plt, save_figure,
                                   part_title(plain(title), index, len(parts),
                                              [one.label.split(" = ")[0] for one in part]),
                                   drawn, ks, precisions, out_dir, part_file(base, index))
            made.append((part_alt(title, index, len(parts)), name))
    return made, left_out


def draw_error_vs_k(plt, save_figure, title, series, ks, precisions, out_dir, name):
    from .plots import ESTIMATE_NOTE, NullLocator, dodges, draw_series, series_style, size_ticks
    from matplotlib.lines import Line2D
    figure, axes = plt.subplots(figsize=(9, 5.5))
    counts = {}
    used = sorted({k for one in series for k, _, _ in one.points} | set(ks))
    for index, (one, dodge) in enumerate(zip(series, dodges(series))):
        draw_series(axes, one, series_style(one, index, counts), used, dodge)
    for precision in precisions:
        guides = guide_values(precision, used)
        for index, label in enumerate(("√K·u", "K·u")):
            axes.plot(used, [pair[index] for pair in guides], color=GUIDE_COLORS[precision],
                      linestyle=GUIDE_DASHES[index], linewidth=1.2,
                      label=f"guide {label}, {precision.upper()} (u = {UNIT_TEXT[precision]})")
    size_ticks(axes, used)
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_yscale("log")
    axes.grid(True, which="both", alpha=0.3)
    axes.set_xlabel("K (M and N fixed)")
    axes.set_ylabel("relative error ‖C − C_ref‖_F ÷ ‖C_ref‖_F")
    axes.set_title(title, fontsize="medium")
    handles, labels = axes.get_legend_handles_labels()
    if any(estimated for one in series for _, _, estimated in one.points):
        handles.append(Line2D([], [], color="gray", linestyle=":", marker="o", markerfacecolor="white",
                              markeredgecolor="gray"))
        labels.append(ESTIMATE_NOTE)
    kinds = {one.precision == "tf32" for one in series if not one.reference}
    axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                title="warm colours TF32, cool FP32" if kinds == {True, False} else None, title_fontsize="small")
    return save_figure(figure, out_dir, name)


# Where a point's name may go, in points from the point, with its alignment and angle: beside it first, then above
# and below, then upright above or below (rows of equal error stand in a row: upright names fit between them), then
# further out; the first place that overlaps no name placed before and stays inside the axes wins.
LABEL_PLACES = ((5, 3, "left", "bottom", 0), (5, -3, "left", "top", 0), (-5, 3, "right", "bottom", 0),
                (-5, -3, "right", "top", 0), (0, 8, "center", "bottom", 0), (0, -8, "center", "top", 0),
                (0, 7, "center", "bottom", 90), (0, -7, "center", "top", 90), (0, 20, "center", "bottom", 90),
                (0, -20, "center", "top", 90), (12, 12, "left", "bottom", 0), (12, -12, "left", "top", 0),
                (-12, 12, "right", "bottom", 0), (-12, -12, "right", "top", 0))


def label_points(figure, axes, points, front):
    """Every point's name beside it, rows at the very same place named together ("a, b"): the Pareto front's first,
    then this project's, then the vendor libraries', each at the first of LABEL_PLACES where it overlaps no name
    already placed, else at the place of least overlap (a name is never left out)."""
    from .plots import plain
    at = {}
    for p in sorted(points, key=lambda p: (p.backend not in front, p.library)):
        at.setdefault((p.gflops, p.error), []).append(p.backend.split("/", 1)[-1] or p.backend)
    renderer = figure.canvas.get_renderer()
    frame = axes.get_window_extent(renderer)
    placed = []
    for (gflops, error), names in at.items():
        best = None
        for dx, dy, align, vertical, angle in LABEL_PLACES:
            text = axes.annotate(plain(", ".join(names)), (gflops, error), xytext=(dx, dy), textcoords="offset points",
                                 fontsize="x-small", ha=align, va=vertical, rotation=angle)
            box = text.get_window_extent(renderer)
            overlap = sum(max(0, min(box.x1, b.x1) - max(box.x0, b.x0)) * max(0, min(box.y1, b.y1) - max(box.y0, b.y0))
                          for b in placed)
            outside = not (frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1)
            cost = overlap + (1e9 if outside else 0)
            if best is None or cost < best[0]:
                if best is not None:
                    best[1].remove()
                best = (cost, text, box)
            else:
                text.remove()
            if cost == 0:
                break
        placed.append(best[2])


def draw_accuracy_speed(spec, out_dir, name):
    """Draws spec = (title, SpeedMarks, fastest first) into out_dir/name; returns the name."""
    from .plots import ESTIMATE_NOTE, plain, plt, save_figure
    from matplotlib.lines import Line2D
    title, marks = spec
    figure, axes = plt.subplots(figsize=(10, 7))
    for key, label, color, marker in SPEED_GROUPS:
        group = [p for p in marks if p.group == key]
        measured = [(p.gflops, p.error) for p in group if not p.estimated]
        estimates = [(p.gflops, p.error) for p in group if p.estimated]
        if measured:
            axes.plot(*zip(*measured), linestyle="none", marker=marker, color=color, markersize=6, alpha=0.85,
                      label=label)
        if estimates:
            axes.plot(*zip(*estimates), linestyle="none", marker=marker, markerfacecolor="white",
                      markeredgecolor=color, markeredgewidth=1.5, markersize=6,
                      label=f"_estimated {label}" if measured else label)
    front = [p for p in marks if p.front]
    axes.plot([p.gflops for p in front], [p.error for p in front], color="black", linewidth=1.0,
              marker="o", markersize=13, markerfacecolor="none", markeredgecolor="black", label=FRONT_LABEL)
    axes.set_xscale("log")
    axes.set_yscale("log")
    # Room on the right for the names of the fastest points (rates are at most 10¹², so this stays finite).
    rates = [p.gflops for p in marks]
    axes.set_xlim(min(rates) / 2, max(rates) * 6)
    # Room above and below the points, and for their names: the points of the most accurate or least accurate rows
    # never touch the frame, however narrow the errors' range (a tenth of it, at least a quarter of a power of ten).
    errors = [p.error for p in marks]
    margin = max(10 ** 0.25, (max(errors) / min(errors)) ** 0.1)
    axes.set_ylim(min(errors) / margin, max(errors) * margin)
    label_points(figure, axes, marks, {p.backend for p in front})
    axes.grid(True, which="both", alpha=0.3)
    axes.set_xlabel("GFLOP/s (median), log scale")
    axes.set_ylabel("relative error ‖C − C_ref‖_F ÷ ‖C_ref‖_F, log scale")
    axes.set_title(plain(title), fontsize="medium")
    handles, labels = axes.get_legend_handles_labels()
    if any(p.estimated for p in marks):
        handles.append(Line2D([], [], color="gray", linestyle="none", marker="o", markerfacecolor="white",
                              markeredgecolor="gray"))
        labels.append(ESTIMATE_NOTE)
    axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return save_figure(figure, out_dir, name)


# What the accuracy-against-speed plot draws of a row, in plain values: the plot is a function of them alone.
SpeedMark = namedtuple("SpeedMark", "backend gflops error estimated group library front")


def plot_accuracy_speed(machine, out_dir):
    """The relative error against GFLOP/s of every row at the shape of the accuracy-against-speed table, with its
    Pareto front: [(alt text, file name)]."""
    shape = speed_shape(machine)
    if shape is None:
        return []
    points = [p for p in ordered(speed_points(machine, shape)) if p.error > 0]
    if not points:
        return []
    verdict = pareto_front(points)
    marks = tuple(SpeedMark(p.backend, p.gflops, p.error, p.estimated, speed_group(p), p.library,
                            verdict[index] is None) for index, p in enumerate(points))
    name = draw_accuracy_speed((f"{machine.label}\naccuracy against speed at {shape_label(shape)}", marks), out_dir,
                               f"{machine.slug}-accuracy-speed.png")
    return [(f"{machine.label}: relative error against GFLOP/s at {shape_label(shape)}, with the Pareto front", name)]
