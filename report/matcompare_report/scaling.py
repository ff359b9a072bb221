"""Past one GPU: the multi-GPU rows (cuBLASXt, cuBLASMp) against cuBLAS FP32 on one GPU of the same run, by GPU
count and size, and a plot of their speedup. Files without multi-GPU rows get no section at all."""
from collections import namedtuple

from .markdown import Sourced, code, fmt_gflops, fmt_ms, marked_table, shape_label, status_text
from .runs import flops, gflops_of, has_figure, is_estimate, is_ok, positive, whole

BASIS_TEXT = {"end-to-end": "end to end (1-GPU cuBLAS upload + compute + download)",
              "compute": "compute (1-GPU cuBLAS compute only)"}


def fmt_factor(value):
    return "—" if value is None else f"{value:.2f}"


def scaling_keys(machine):
    """(backend, GPUs, shape) of every multi-GPU row, by backend, GPU count, then size."""
    keys = [(key[0], key[1], key[2:]) for key in machine.scaling_rows]
    return sorted(keys, key=lambda k: (machine.backends.index(k[0]) if k[0] in machine.backends else 0, k[1],
                                       flops(k[2]), k[2]))


def verified_text(row):
    sample = row.get("verification_sample")
    if sample:
        return "sample: " + sample
    if row.get("passed") is not True:
        return "—"
    rows = row.get("estimate_rows") if row.get("status") == "estimated" else None
    return f"rows 0–{rows - 1}" if isinstance(rows, int) and rows > 0 else "all rows"


def scaling_section(machines):
    lines = []
    for machine in machines:
        keys = scaling_keys(machine)
        # A machine where no multi-GPU row could run (no GPU) has nothing to scale: the overview says why.
        if all(machine.scaling_rows[(k[0], k[1]) + k[2]].get("status") == "unavailable" for k in keys):
            continue
        rows = []
        for backend, devices, shape in keys:
            row = machine.scaling_rows[(backend, devices) + shape]
            rows.append([code(backend), str(devices), shape_label(shape),
                         Sourced(status_text(row, fmt_ms(positive(row.get("median_ms")))), row),
                         Sourced(status_text(row, fmt_gflops(gflops_of(row))), row),
                         Sourced(fmt_factor(positive(row.get("speedup"))), row),
                         Sourced(fmt_factor(positive(row.get("efficiency"))), row),
                         BASIS_TEXT.get(row.get("speedup_basis"), str(row.get("speedup_basis"))), verified_text(row)])
        lines += [f"### {machine.label}", ""]
        lines += marked_table(machine, ["Backend", "GPUs", "Size", "ms", "GFLOP/s", "Speedup", "Efficiency",
                                        "Compared with", "Verified"], rows)
        # One line per backend, GPU count, status and reason, with the sizes it concerns.
        by_reason = {}
        for backend, devices, shape in keys:
            row = machine.scaling_rows[(backend, devices) + shape]
            if not is_ok(row) and row.get("reason"):
                by_reason.setdefault((backend, devices, str(row.get("status")), str(row.get("reason"))), []).append(
                    shape_label(shape))
        reasons = [f"- {code(backend)} on {devices} GPU(s) at {', '.join(sizes)}: {status}: {reason}"
                   for (backend, devices, status, reason), sizes in by_reason.items()]
        if reasons:
            lines += ["Rows without a full measurement:", ""] + reasons + [""]
    if not lines:
        return []
    return ["## 2c. Past one GPU: scaling", "",
            "Rows that run on several GPUs, against cuBLAS FP32 on one GPU of the same run and shape. Speedup = the "
            "one-GPU time ÷ the row's time; efficiency = speedup ÷ GPUs. cuBLASXt keeps the matrices in host "
            "memory, so its time is end to end and it is compared with cuBLAS's upload + compute + download; a row "
            "whose data is already on its GPUs is compared with cuBLAS's compute time. Problems too large for a "
            "full float64 reference are verified on a sample of C's rows (named in the last column).", ""] + lines


# One line of the scaling plot: backend and GPU count, and its points (size, speedup, estimated).
ScalingSeries = namedtuple("ScalingSeries", "backend devices points")
ScalingPlot = namedtuple("ScalingPlot", "title series counts")


def plot_scaling(machine, out_dir):
    """Speedup against size, one line per backend and GPU count, with each count's ideal: [(alt text, file name)] of
    the plot's parts, and the (backend, GPUs) left out. Only where some row ran on more than one GPU: rows on one GPU
    alone say nothing of scaling (the table keeps them)."""
    from .plots import MAX_SERIES, part_alt, part_file, plain, split
    series = {}
    for backend, devices, shape in scaling_keys(machine):
        row = machine.scaling_rows[(backend, devices) + shape]
        speedup = positive(row.get("speedup")) if has_figure(row) else None
        if speedup and len(shape) == 3 and shape[0] == shape[1] == shape[2]:
            series.setdefault((backend, devices), []).append((shape[0], speedup, is_estimate(row)))
    if not any((whole(devices) or 1) > 1 for _, devices in series):
        return [], []
    parts, left_out = split(list(series.items()), MAX_SERIES)
    made = []
    for index, part in enumerate(parts):
        spec = ScalingPlot(plain(f"{machine.label}\nspeedup past one GPU"),
                           tuple(ScalingSeries(plain(b), d, tuple(points)) for (b, d), points in part),
                           tuple(sorted({d for (_, d), _ in part})))
        name = draw_scaling(spec, out_dir, part_file(f"{machine.slug}-scaling", index))
        made.append((part_alt(f"{machine.label}: speedup of the multi-GPU rows over one GPU", index, len(parts)),
                     name))
    return made, [key for key, _ in left_out]


def draw_scaling(spec, out_dir, name):
    from .plots import FP32_COLORS, MARKERS, plt, save_figure, size_ticks
    from matplotlib.lines import Line2D
    figure, axes = plt.subplots(figsize=(8, 5))
    estimated_any = False
    for index, series in enumerate(spec.series):
        color, marker = FP32_COLORS[index % len(FP32_COLORS)], MARKERS[index % len(MARKERS)]
        label = f"{series.backend} on {series.devices} GPU(s)"
        measured = [(x, y) for x, y, estimated in series.points if not estimated]
        estimates = [(x, y) for x, y, estimated in series.points if estimated]
        if estimates:
            estimated_any = True
            axes.plot(*zip(*[(x, y) for x, y, _ in series.points]), color=color, linestyle=":", linewidth=1.0,
                      label=f"_joined {label}")
            axes.plot(*zip(*estimates), linestyle="none", marker=marker, markerfacecolor="white",
                      markeredgecolor=color, label=f"_estimated {label}" if measured else label)
        if measured:
            axes.plot(*zip(*measured), color=color, marker=marker, label=label)
    for devices in spec.counts:
        if devices != 1:
            axes.axhline(devices, color="gray", linewidth=1.0, linestyle=":", label=f"ideal on {devices} GPUs (dotted)")
    axes.axhline(1.0, color="black", linewidth=0.8, linestyle="--", label="1×: as fast as one GPU (dashed)")
    size_ticks(axes, sorted({x for series in spec.series for x, _, _ in series.points}))
    axes.set_xlabel("size (M = N = K)")
    axes.set_ylabel("speedup over cuBLAS FP32 on one GPU")
    axes.set_title(spec.title, fontsize="medium")
    axes.grid(True, alpha=0.3)
    handles, labels = axes.get_legend_handles_labels()
    if estimated_any:
        handles.append(Line2D([], [], color="gray", linestyle=":", marker="o", markerfacecolor="white",
                              markeredgecolor="gray"))
        labels.append("hollow marker: estimate")
    axes.legend(handles, labels, fontsize="small")
    return save_figure(figure, out_dir, name)
