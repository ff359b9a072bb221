"""The vendor libraries: the best of each precision per shape, each row against it, each library's version and
path, and the kernel each chose. All of it is read from the fields matcompare writes (`vendor_library`,
`vs_best_vendor`, `best_vendor`, `kernel`, context `vendors`); files written before them show none of it."""
from .markdown import DASH, Sourced, code, fmt_gflops, fmt_plain, fmt_ratio, marked, marked_table, shape_label, table
from .runs import gflops_of, has_figure, is_ok, positive


def is_library(row):
    return row is not None and row.get("vendor_library") is True


def from_vendor(row):
    """The row is a vendor library's, as the plots draw it: flagged `vendor_library`, or the device's baseline vendor
    (files written before that flag mark only the baseline, which is a library all the same)."""
    return row is not None and (row.get("vendor") is True or is_library(row))


def best_of(row):
    """(× best vendor, the best vendor's name) of a row with a figure, as matcompare wrote them; else None."""
    if not has_figure(row):
        return None
    ratio, name = positive(row.get("vs_best_vendor")), row.get("best_vendor")
    return (ratio, name) if ratio and isinstance(name, str) else None


def short_name(backend):
    # The best vendor runs on the row's own device: its device prefix says nothing new.
    return backend.split("/", 1)[-1] or backend


def best_vendor_cell(row):
    """“0.96× `cublaslt-tf32`”: the row against the fastest vendor library of its precision; an estimate's marked."""
    best = best_of(row)
    return marked(row, f"{fmt_ratio(best[0])} {code(short_name(best[1]))}") if best else DASH


def best_shapes(machine, backends, shapes):
    """The shapes at which any of `backends` has a × best vendor: only they get a “× best vendor” column."""
    return {shape for shape in shapes if any(best_of(machine.row(b, shape)) for b in backends)}


def shape_headers(shapes, with_best):
    """A table's shape columns, each of `with_best` followed by its “× best vendor” column."""
    headers = []
    for shape in shapes:
        headers.append(shape_label(shape))
        if shape in with_best:
            headers.append(f"× best vendor at {shape_label(shape)}")
    return headers


# ------------------------------------------------------------------------------ the best vendor per precision

BEST_HEADER = ["Size", "Device", "Precision", "Best vendor", "GFLOP/s", "× baseline", "Fastest own row", "GFLOP/s",
               "× best vendor"]


def best_vendor_section(machines):
    lines = []
    for machine in machines:
        rows = [cells for shape in machine.sweep_shapes for cells in best_vendor_rows(machine, shape)]
        if rows:
            lines += [f"### {machine.label}", ""] + marked_table(machine, BEST_HEADER, rows)
    if not lines:
        return []
    return ["## 2a. Best vendor per precision", "",
            "Per size, device and precision: the fastest vendor library measured in full in the run (matcompare's "
            "`best_vendor`), its GFLOP/s and its ratio to the baseline vendor of its precision (“× baseline”: "
            "OpenBLAS on the CPU; cuBLAS FP32 for FP32 and 3xTF32 rows, cuBLAS TF32 for TF32 rows on the GPU); and "
            "the fastest measured row of this project of that precision, with its “× best vendor” and the vendor it "
            "names. The ratios are matcompare's, from paired samples, not quotients of the GFLOP/s shown.", ""] + lines


def precision_groups(machine, shape):
    """{(device, precision): [backend, …]}: the backends with a × best vendor at `shape`, in registry order."""
    groups = {}
    for backend in machine.backends:
        row = machine.row(backend, shape)
        if best_of(row):
            groups.setdefault((machine.device(backend), fmt_plain(row.get("precision"))), []).append(backend)
    return groups


def fastest(machine, shape, backends):
    """The backend of `backends` whose measured row stands highest against the best vendor, or None. matcompare's own
    ratios decide, so that the choice is its `best_vendor` (whose ratio is 1) and not a reading of the medians."""
    measured = [b for b in backends if is_ok(machine.row(b, shape))]
    return max(measured, key=lambda b: machine.row(b, shape)["vs_best_vendor"], default=None)


def best_vendor_rows(machine, shape):
    rows = []
    for (device, precision), backends in sorted(precision_groups(machine, shape).items()):
        vendor = fastest(machine, shape, [b for b in backends if is_library(machine.row(b, shape))])
        own = fastest(machine, shape, [b for b in backends if not is_library(machine.row(b, shape))])
        # A group may lack either side where files of several runs were merged: its cells are dashes.
        vendor_row, own_row = machine.row(vendor, shape) or {}, machine.row(own, shape)
        vendor_row = vendor_row or None
        rows.append([shape_label(shape), device.upper(), precision,
                     code(vendor) if vendor else DASH, Sourced(fmt_gflops(gflops_of(vendor_row)), vendor_row),
                     Sourced(fmt_ratio(positive((vendor_row or {}).get("vs_precision_vendor"))), vendor_row),
                     code(own) if own else DASH, Sourced(fmt_gflops(gflops_of(own_row)), own_row),
                     Sourced(best_vendor_cell(own_row), own_row)])
    return rows


# ------------------------------------------------------------------------------ the libraries and their kernels

def library_lines(context):
    """The machines section's lines on each vendor library of the run (context `vendors`)."""
    lines = []
    for vendor in context.get("vendors") or []:
        name = f"{code(fmt_plain(vendor.get('backend')))} ({fmt_plain(vendor.get('library'))})"
        if vendor.get("available") is False:
            lines.append(f"  - {name}: unavailable ({fmt_plain(vendor.get('unavailable_reason'))})")
        else:
            lines.append(f"  - {name} {fmt_plain(vendor.get('version'))}; {fmt_plain(vendor.get('build'))}; path "
                         f"{fmt_plain(vendor.get('kernel_path'))}; {fmt_plain(vendor.get('threads'))} threads")
    return ["- **Vendor libraries**:"] + lines if lines else []


# Sizes listed per library and kernel; a suite's 160 problems once made a line of 2,772 characters.
MAX_KERNEL_SIZES = 6


def kernel_table(machine):
    """What each vendor library chose per shape (`kernel`: cuBLASLt's algorithm, CUTLASS's schedule), where it says;
    one line per library and kernel, since a library often keeps one kernel over many sizes: the smallest
    MAX_KERNEL_SIZES of them, and how many more."""
    sizes = {}
    for backend in machine.backends:
        for shape in machine.shapes:
            row = machine.row(backend, shape)
            if is_library(row) and row.get("kernel"):
                sizes.setdefault((backend, row["kernel"]), []).append(shape_label(shape))
    if not sizes:
        return []
    def listed(labels):
        more = len(labels) - MAX_KERNEL_SIZES
        return ", ".join(labels[:MAX_KERNEL_SIZES]) + (f" and {more} more" if more > 0 else "")
    rows = [[code(backend), listed(labels), kernel] for (backend, kernel), labels in sizes.items()]
    return ["Kernels the vendor libraries chose:", ""] + table(["Backend", "Sizes", "Kernel"], rows)
