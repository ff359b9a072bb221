"""Past one GPU: the multi-GPU rows (cuBLASXt, cuBLASMp) against cuBLAS FP32 on one GPU of the same run, by GPU
count and size, and a plot of their speedup. Files without multi-GPU rows get no section at all."""
from .markdown import code, fmt_gflops, fmt_ms, shape_label, status_text, table
from .runs import flops, gflops_of, is_ok, positive

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
                         status_text(row, fmt_ms(positive(row.get("median_ms")))),
                         status_text(row, fmt_gflops(gflops_of(row))),
                         fmt_factor(positive(row.get("speedup"))), fmt_factor(positive(row.get("efficiency"))),
                         BASIS_TEXT.get(row.get("speedup_basis"), str(row.get("speedup_basis"))), verified_text(row)])
        lines += [f"### {machine.label}", ""]
        lines += table(["Backend", "GPUs", "Size", "ms", "GFLOP/s", "Speedup", "Efficiency", "Compared with",
                        "Verified"], rows)
        reasons = [f"- {code(backend)} on {devices} GPU(s) at {shape_label(shape)}: {row.get('status')}: "
                   f"{row.get('reason')}"
                   for backend, devices, shape in keys
                   for row in [machine.scaling_rows[(backend, devices) + shape]]
                   if not is_ok(row) and row.get("reason")]
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


def plot_scaling(machine, out_dir, plt, save_figure):
    """Speedup against size, one line per backend and GPU count, with each count's ideal as a dotted line:
    [(alt text, file name)] of the plot's parts, and the (backend, GPUs) left out."""
    from .plots import MAX_LINES, part_alt, part_file, split
    series = {}
    for backend, devices, shape in scaling_keys(machine):
        row = machine.scaling_rows[(backend, devices) + shape]
        speedup = positive(row.get("speedup")) if is_ok(row) else None
        if speedup and len(shape) == 3 and shape[0] == shape[1] == shape[2]:
            series.setdefault((backend, devices), []).append((shape[0], speedup))
    parts, left_out = split(list(series.items()), MAX_LINES)
    made = []
    for index, part in enumerate(parts):
        name = draw_scaling(machine, part, out_dir, part_file(f"{machine.slug}-scaling", index), plt, save_figure)
        made.append((part_alt(f"{machine.label}: speedup of the multi-GPU rows over one GPU", index, len(parts)),
                     name))
    return made, [key for key, _ in left_out]


def draw_scaling(machine, series, out_dir, name, plt, save_figure):
    from .plots import plain, size_ticks
    figure, axes = plt.subplots(figsize=(8, 5))
    for (backend, devices), points in series:
        xs, ys = zip(*points)
        axes.plot(xs, ys, marker="o", label=plain(f"{backend} on {devices} GPU(s)"))
    for devices in sorted({d for (_, d), _ in series}):
        axes.axhline(devices, color="gray", linewidth=0.8, linestyle=":")
    axes.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    size_ticks(axes, sorted({x for _, points in series for x, _ in points}))
    axes.set_xlabel("size (M = N = K)")
    axes.set_ylabel("speedup over cuBLAS FP32 on one GPU")
    axes.set_title(plain(f"{machine.label}: scaling past one GPU (dotted: ideal for each GPU count)"))
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")
    return save_figure(figure, out_dir, name)
