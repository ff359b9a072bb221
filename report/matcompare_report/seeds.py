"""The seeds' own tables beside the backends that reproduce their steps.

The data below are the seeds' own steps in the seeds' order, their published figures and the
matcompare backend (src/core/registry.cpp) that reproduces each step. Published numbers are
strings, quoted exactly as the seed prints them (decimal point normalised), so no digit is lost or
invented; ratios derived from them are computed here.
"""
from collections import namedtuple

from .markdown import (DASH, Sourced, code, fmt_error, fmt_gflops, fmt_ms, fmt_ratio, marked, marked_table, shape_label,
                       status_text)
from .peaks import fmt_percent, percent_of_peak
from .runs import UNIFORM, flops, gflops_of, has_figure, is_estimate, is_ok, positive, shown

# ms, gflops: as printed. share: percent of cuBLAS, as printed. text: what the seed says where it
# gives no number. vendor: the seed's own vendor-library row (the denominator of seed × vendor).
# hardware: only where a row ran elsewhere than the rest of its table.
Step = namedtuple("Step", "label backend ms gflops share text vendor hardware",
                  defaults=(None, None, None, None, False, None))

# kind "ladder": one optimisation step per row; "loop_order": seed 004's loop permutations, which
# are compared by ratio to the fastest order; "error_sum": seed 003's Σ|error| over its size sweep.
# device: a machine gets its own copy of the table when it measured the table's backends there.
# shapes: the seed's own shape(s), tried before DEFAULT_SHAPE. most_complete: skip DEFAULT_SHAPE and
# take the size where most steps ran, for tables whose rows only mean something side by side.
SEEDS = [
    {
        "id": "000",
        "title": "openmlsys book, §8.4 GEMM on the GPU (Chinese)",
        "about": "Row-major SGEMM C = αAB + βC with M = N = 2048, K = 1024 (2·2048·2048·1024 flop agrees "
                 "with the printed ms/GFLOP/s pairs), each step's “Average Time” and “Average Throughput”.",
        "tables": [{
            "kind": "ladder",
            "device": "gpu",
            "title": "GPU optimisation steps",
            "hardware": "Ampere GPU (unnamed)",
            "hardware_note": "An Ampere GPU that the chapter does not name; it prints an FP32 peak of "
                             "29,767.680 GFLOP/s (= 2 × 8,704 FP32 units × 1.71 GHz, the RTX 3080's figures).",
            "shapes": [(2048, 2048, 1024)],
            "steps": [
                Step("8.4.2 gemmKernel: naive", "gpu/naive", ms="48.961", gflops="185.313"),
                Step("8.4.3 gemm_use_128: float4 loads", "gpu/float4-global", ms="6.232", gflops="1378.317"),
                Step("8.4.3 gemm_use_tile: larger thread tile", "gpu/thread-tile-global", ms="3.188",
                     gflops="2694.440"),
                Step("8.4.4 gemm_use_smem: shared-memory tiles", "gpu/smem-float4", ms="0.617", gflops="13925.168"),
                Step("8.4.5 gemm_transpose_smem: A tile transposed", "gpu/smem-transposed-a", ms="0.610",
                     gflops="14083.116"),
                Step("8.4.6 gemm_hide_smem_latency: register prefetch", "gpu/register-prefetch", ms="0.585",
                     gflops="14686.179"),
                Step("8.4.7 gemm_final: global prefetch, double buffer", "gpu/double-buffered", ms="0.542",
                     gflops="15838.302"),
                Step("8.4.8 cuBLAS", "gpu/cublas-fp32", ms="0.613", gflops="14002.600", vendor=True),
            ],
            "notes": ["The naive kernel's pair disagrees slightly: 2·2048·2048·1024 flop in 48.961 ms is "
                      "175.5 GFLOP/s, not 185.313; both are quoted as printed."],
        }],
    },
    {
        "id": "001",
        "title": "blog post, CUDA matrix multiplication v1–v10 (Chinese)",
        "about": "Code and ideas for ten versions but no timings, sizes or hardware; its v4 launch code "
                 "uses M = N = K = 1024, the shape used here when it was measured.",
        "tables": [{
            "kind": "ladder",
            "device": "gpu",
            "title": "GPU optimisation steps",
            "hardware": "not stated",
            "hardware_note": "The post names no GPU.",
            "shapes": [(1024, 1024, 1024)],
            "steps": [
                Step("v1 & v2: 2-D thread blocks, shared-memory tiles", "gpu/smem-tiled"),
                Step("v3: 128×128×8 block tile, 4×4 outputs per thread", "gpu/smem-thread-tile"),
                Step("v4: thread indices remapped for tile loads", "gpu/smem-remapped-loads"),
                Step("v5: float4 loads", "gpu/smem-float4"),
                Step("v6: A tile transposed (bank conflicts)", "gpu/smem-transposed-a"),
                Step("v7: outer product from float4 fragments", "gpu/smem-outer-product"),
                Step("v8: pipelined loads (double buffer)", "gpu/double-buffered"),
                Step("v9: cuBLAS", "gpu/cublas-fp32", vendor=True),
                Step("v10: Tensor Cores (WMMA; TF32 here)", "gpu/wmma-tf32"),
                Step("v10 baseline: cuBLAS with TF32 tensor-op math", "gpu/cublas-tf32"),
            ],
            "notes": [],
        }],
    },
    {
        "id": "002",
        "title": "cooperative-groups SGEMM kernels, column-major (Chinese)",
        "about": "Three column-major kernels built on cooperative groups, each reported as a share of "
                 "cuBLAS performance; no size, times or hardware are given.",
        "tables": [{
            "kind": "ladder",
            "device": "gpu",
            "title": "GPU kernels",
            "hardware": "not stated",
            "hardware_note": "The text names no GPU.",
            "shapes": [],
            "steps": [
                Step("sgemm_naive: 32×32 tile, warp shuffles, output tile in shared memory",
                     "gpu/cg-warp-shuffle", share="7"),
                Step("sgemm_shared (“sgemm opt”): outputs in registers", "gpu/cg-register-outputs", share="20"),
                Step("sgemm_thread_tile: 2×2 thread tile, padded tiles", "gpu/cg-thread-tile-2x2", share="22",
                     text="+12% over sgemm_shared"),
            ],
            "notes": [],
        }],
    },
    {
        "id": "003",
        "title": "course report, GEMM on CPU and GPU (Chinese)",
        "about": "1024×1024 matrices (and a sweep over 512, 1024, 1536, 2048, 2560), ten repetitions "
                 "averaged. The times appear only in charts, so the table quotes what the text says.",
        "tables": [
            {
                "kind": "ladder",
                "device": "cpu",
                "title": "CPU steps",
                "hardware": "Core i7-6700HQ",
                "hardware_note": "Intel Core i7-6700HQ (4 cores, 8 threads, 6 MB L3), g++ 8.1 (MinGW), Windows 10.",
                "shapes": [(1024, 1024, 1024)],
                "steps": [
                    Step("Gold: i-j-k triple loop", "cpu/gold", text="~20 s at 1024"),
                    Step("Gold_with_omp: OpenMP over rows", "cpu/gold-omp", text="~5× faster than Gold"),
                    Step("Gold_with_transpose (Transpose): B transposed", "cpu/transposed-b",
                         text="somewhat faster than Gold_with_omp"),
                    Step("S_packing: several columns at once", "cpu/single-packing",
                         text="faster than Gold_with_omp, slower than Transpose"),
                    Step("D_packing: 4×4 block of C", "cpu/double-packing", text="faster than Transpose"),
                    Step("Tiling: 4×4 tiles", "cpu/tiling", text="~2× over D_packing; ~14× over Gold overall"),
                ],
                "notes": [],
            },
            {
                "kind": "ladder",
                "device": "gpu",
                "title": "GPU steps",
                "hardware": "GTX 1060 6 GB",
                "hardware_note": "NVIDIA GTX 1060 6 GB, CUDA 11.5, 16×16 thread blocks.",
                "shapes": [(1024, 1024, 1024)],
                "steps": [
                    Step("matrixMul_naive: one thread per element", "gpu/naive-coalesced", text="~160 ms at 1024"),
                    Step("matrixMul_tiling: shared-memory tiles", "gpu/smem-tiled",
                         text="some gain over naive (chart only)"),
                    Step("matrixMul_coalescing: B transposed first", "gpu/dot-transposed-b",
                         text="faster than tiling; both gains small (chart only)"),
                ],
                "notes": ["Over its size sweep the report finds the three GPU kernels roughly equal."],
            },
            {
                "kind": "error_sum",
                "title": "Error sums Σ|gold − x| over the size sweep",
                "sizes": (512, 2560),
                "notes": ["Seed (chart only): Gold_with_omp, Transpose, S_packing and D_packing differ from "
                          "Gold by 0; only Tiling adds a small error. Our `sum_abs_error` is Σ|x − ref| against "
                          "a float64 reference, so the textbook loop has a nonzero sum too. The table is made from "
                          "runs with the seed's values (`matcompare --values reals-1-100`) where a machine has "
                          "them. With integers in 1..100 (`--values integers-1-100`) every product and partial sum "
                          "is an integer, and at these sizes they stay well below 2²⁴, above which FP32 skips "
                          "integers (at K = 2560 a sum is about 2560 × 50.5² ≈ 6.5·10⁶): every FP32 row is exact "
                          "and every sum is 0, so reals are what show how the rows round.",
                          "",
                          "Why so many sums are identical: the same additions in the same order give the same "
                          "bits. Gold, Gold with OpenMP, B transposed, both packings, the tiling and all six loop "
                          "orders compute each element of C as one FP32 sum a(i,0)·b(0,j) + a(i,1)·b(1,j) + … "
                          "taken in increasing k, rounding after every multiply and every add. They differ in "
                          "which element they work on when (rows per thread, B read along rows, 1×4 or 4×4 "
                          "outputs in registers, 64×256 blocks of C whose k blocks are walked in increasing "
                          "order and added straight into C, the loop nest), never in the order of the additions "
                          "within an element, and the library is built without `-march`, so the compiler has no "
                          "fused multiply-add to contract them into. Their results are bit for bit the same, and "
                          "so are their error sums. `cpu/blis` and OpenBLAS round differently: their vector "
                          "micro-kernels use fused multiply-adds (one rounding per step instead of two) and sum "
                          "each KC-deep block of k in registers before adding it to C (KC: the run context's "
                          "`cpu_blis`; OpenBLAS blocks its own way), so their sums are different "
                          "numbers, and smaller. An estimated row's sum covers only the rows it timed, as its "
                          "cell says."],
            },
        ],
    },
    {
        "id": "004",
        "title": "lecture, matrix multiplication in CUDA C (Polish)",
        "about": "Kernel-only times on an RTX 4070 for tile size 32. The size is not stated; each printed "
                 "ms × GFLOP/s pair implies about 2.13·10⁹ flop per product (≈ 1021³).",
        "tables": [
            {
                "kind": "ladder",
                "device": "gpu",
                "title": "GPU steps (kernel time)",
                "hardware": "RTX 4070",
                "hardware_note": "NVIDIA GeForce RTX 4070.",
                "shapes": [],
                "steps": [
                    Step("CPU (milestone table)", "cpu/gold", ms="48.761", hardware="CPU not named"),
                    Step("GPU3: naive, one thread per element", "gpu/naive-coalesced", ms="1.039", gflops="2047.927"),
                    Step("GPU4 (matmul4): shared tiles, dynamic size, bounds checks", "gpu/smem-tiled", ms="1.147",
                         gflops="1855.841"),
                    Step("GPU5 (matmul5): padded pitched matrices", "gpu/smem-tiled-pitched", ms="1.122",
                         gflops="1898.01"),
                    Step("GPU6 (matmul6): tile size as template", "gpu/smem-tiled-template", ms="0.734",
                         gflops="2902.049"),
                    Step("GPU7 (matmul7): Volkov outer product", "gpu/volkov-outer-product", ms="0.309",
                         gflops="6883.357"),
                    Step("GPU8 (matmul8): Volkov, A tile transposed (+1)", "gpu/volkov-transposed-a", ms="0.287",
                         gflops="7424.192"),
                    Step("GPU-CUBLAS (matmulC)", "gpu/cublas-fp32", ms="0.166", gflops="12905.551", vendor=True),
                ],
                "notes": ["The milestone table's CPU time is quoted as printed; the lecture does not say which "
                          "CPU code or size it is. With transfers, the lecture's totals are 48.688 ms (GPU8) "
                          "and 57.939 ms (CUBLAS)."],
            },
            {
                "kind": "loop_order",
                "device": "cpu",
                "most_complete": True,
                "title": "CPU loop orders",
                "hardware_note": "The lecture names neither the CPU nor the size of this experiment, so "
                                 "orders are compared by their ratio to the fastest order.",
                "shapes": [],
                "steps": [
                    Step("ijk", "cpu/loop-ijk", ms="1746"),
                    Step("ikj", "cpu/loop-ikj", ms="342"),
                    Step("jik", "cpu/loop-jik", ms="1496"),
                    Step("jki", "cpu/loop-jki", ms="10272"),
                    Step("kij", "cpu/loop-kij", ms="376"),
                    Step("kji", "cpu/loop-kji", ms="11445"),
                ],
                "notes": [],
            },
        ],
    },
]

# Seed tables fall back to this shape when the seed's own was not measured.
DEFAULT_SHAPE = (2048, 2048, 2048)


def check_seed_mapping(machines):
    """Where a seed table names a backend whose own `seed` field does not mention that seed (the hard-coded tables
    and the registry have drifted apart, or the file is not matcompare's): one text per step, for a warning."""
    found = []
    for seed in SEEDS:
        for spec in seed["tables"]:
            for step in spec.get("steps", []):
                for machine in machines:
                    row = machine.latest_row.get(step.backend)
                    if row is not None and seed["id"] not in str(row.get("seed") or ""):
                        found.append(f"seed {seed['id']} step '{step.label}' maps to {step.backend}, whose seed field "
                                     f"is {shown(row.get('seed'), 40)}")
                        break
    return found


def choose_shape(machine, backends, own_shapes, most_complete):
    """The seed's own shape where measured, else 2048³ (unless most_complete), else the shape
    where most steps ran, the larger on a tie."""
    def ok_count(shape):
        return sum(1 for backend in backends if has_figure(machine.row(backend, shape)))

    def has_rows(shape):
        return any(machine.row(backend, shape) is not None for backend in backends)

    preferred = list(own_shapes) + [s for s in [DEFAULT_SHAPE] if s not in own_shapes and not most_complete]
    others = sorted((s for s in machine.shapes if s not in preferred), key=lambda s: (-ok_count(s), -flops(s), s))
    candidates = preferred + others
    for usable in (ok_count, has_rows):
        for shape in candidates:
            if usable(shape):
                return shape
    return None


def shape_note(shape, own_shapes, most_complete):
    label = f"shape {shape_label(shape)}"
    if shape in own_shapes:
        return f"{label}, the seed's own"
    if own_shapes:
        own = " / ".join(shape_label(s) for s in own_shapes)
        return f"{label} (the seed's {own} was not measured here)"
    if most_complete:
        return f"{label} (the seed does not state its size; the largest size where most of these backends ran)"
    return f"{label} (the seed does not state its size)"


def participating(machines, backends, device):
    """Machines that ran (or tried to run) at least one of the backends on `device`: a CPU-only
    machine gets no copy of a GPU table just because the table starts with a CPU row."""
    return [m for m in machines
            if any(row.get("status") not in (None, "unavailable")
                   for key, row in m.rows.items() if key[0] in backends and m.device(key[0]) == device)]


def seed_figure(step):
    parts = []
    if step.ms:
        parts.append(f"{step.ms} ms")
    if step.gflops:
        parts.append(f"{step.gflops} GFLOP/s")
    if step.share:
        parts.append(f"{step.share}% of cuBLAS")
    if step.text:
        parts.append(step.text)
    return "; ".join(parts) or DASH


def seed_vs_vendor(step, steps):
    if step.share:
        return float(step.share) / 100
    vendor = next((s for s in steps if s.vendor), None)
    if step.gflops and vendor and vendor.gflops:
        return float(step.gflops) / float(vendor.gflops)
    return None


# What the step speedup says where the previous step ran on another device: a ratio across devices measures the
# devices, not the step.
OTHER_DEVICE = "n/a: other device"


def ladder_rows(spec, machine, shape):
    rows, previous, previous_row, previous_device = [], None, None, None
    for step in spec["steps"]:
        row = machine.row(step.backend, shape) if machine else None
        device = machine.device(step.backend) if machine and step.backend in machine.latest_row else \
            step.backend.split("/")[0]
        gflops = gflops_of(row)
        ratio = positive(row.get("vs_vendor")) if has_figure(row) else None
        if previous_device is not None and device != previous_device:
            speedup_text = OTHER_DEVICE
        else:
            speedup = gflops / previous if gflops and previous else None
            # A speedup with an estimate on either side is an estimate too.
            speedup_text = marked(row if is_estimate(row) else previous_row, fmt_ratio(speedup))
        percent = percent_of_peak(machine, row) if machine else None
        rows.append([step.label, seed_figure(step), step.hardware or spec["hardware"],
                     fmt_ratio(seed_vs_vendor(step, spec["steps"])),
                     code(step.backend), Sourced(status_text(row, fmt_gflops(gflops)), row),
                     Sourced(marked(row, fmt_percent(percent)), row) if has_figure(row) else DASH,
                     Sourced(speedup_text, row) if speedup_text != OTHER_DEVICE else speedup_text,
                     Sourced(marked(row, fmt_ratio(ratio)), row)])
        previous, previous_row, previous_device = gflops, row, device
    return rows


def loop_order_rows(spec, machine, shape):
    seed_fastest = min(float(step.ms) for step in spec["steps"])
    ours = {step.backend: machine.row(step.backend, shape) if machine else None for step in spec["steps"]}
    our_ms = {b: positive(row.get("median_ms")) for b, row in ours.items() if has_figure(row)}
    our_fastest = min((ms for ms in our_ms.values() if ms), default=None)
    rows = []
    for step in spec["steps"]:
        row, ms = ours[step.backend], our_ms.get(step.backend)
        rows.append([step.label, step.ms, fmt_ratio(float(step.ms) / seed_fastest), code(step.backend),
                     Sourced(status_text(row, fmt_ms(ms)), row),
                     Sourced(marked(row, fmt_ratio(ms / our_fastest if ms and our_fastest else None)), row),
                     Sourced(status_text(row, fmt_gflops(gflops_of(row))), row)])
    return rows


LADDER_HEADER = ["Source step", "Source figure", "Source hardware", "Source × vendor", "Our backend", "Our GFLOP/s",
                 "Our % of peak", "Our step speedup", "Our × vendor"]
LOOP_HEADER = ["Loop order", "Source ms", "Source ÷ fastest", "Our backend", "Our ms", "Our ÷ fastest", "Our GFLOP/s"]


def step_table(spec, machines):
    """A ladder or loop-order table, once per machine that measured its backends."""
    backends = {step.backend for step in spec["steps"]}
    build = ladder_rows if spec["kind"] == "ladder" else loop_order_rows
    header = LADDER_HEADER if spec["kind"] == "ladder" else LOOP_HEADER
    lines = [spec["hardware_note"], ""]
    measured = participating(machines, backends, spec["device"])
    if not measured:
        lines += ["No input file measured these backends.", ""] + marked_table(None, header, build(spec, None, None))
    for machine in measured:
        most_complete = spec.get("most_complete", False)
        shape = choose_shape(machine, backends, spec["shapes"], most_complete)
        lines += [f"**{machine.label}**, {shape_note(shape, spec['shapes'], most_complete)}:", ""]
        lines += marked_table(machine, header, build(spec, machine, shape))
    return lines


# Seed 003 drew its values from 1 to 100; its error table is made from runs with such values where there are any.
SEED_003_VALUES = ("reals-1-100", "integers-1-100")
VALUES_TEXT = {"reals-1-100": "reals in [1, 100], as document 003", "integers-1-100": "integers in 1..100, as document 003",
               UNIFORM: "uniform in [−1, 1], not document 003's values"}


def error_cell(row):
    if is_estimate(row):
        # Only the rows timed for the estimate were checked: the sum covers those, which the cell says.
        return f"{fmt_error(row.get('sum_abs_error'))} (rows 0–{row.get('estimate_rows', 0) - 1} only)"
    return status_text(row, fmt_error(row.get("sum_abs_error") if row else None))


def identical_sums(rows_of, backends, sizes):
    """Groups of backends whose Σ|x − ref| agree exactly (every digit the JSON holds) at every size where both
    were measured in full, in order of first appearance; each group has at least two members."""
    def full_sum(backend, size):
        row = rows_of(backend, size)
        value = row.get("sum_abs_error") if is_ok(row) else None
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def agree(first, second):
        common = [s for s in sizes if full_sum(first, s) is not None and full_sum(second, s) is not None]
        return bool(common) and all(full_sum(first, s) == full_sum(second, s) for s in common)

    groups = []
    for backend in backends:
        group = next((g for g in groups if agree(g[0], backend)), None)
        if group is None:
            groups.append([backend])
        else:
            group.append(backend)
    return [group for group in groups if len(group) > 1]


def error_sum_table(spec, machines):
    low, high = spec["sizes"]
    lines = []
    for machine in machines:
        def square_sizes(rows):
            return sorted({key[1:] for key in rows if key[1] == key[2] == key[3] and low <= key[1] <= high})
        # The seed's values where a run on them has the table's sizes (an error-vs-k run on them has none).
        values = next((v for v in SEED_003_VALUES if square_sizes(machine.rows_by_values.get(v, {}))), UNIFORM)
        rows = machine.rows if values == UNIFORM else machine.rows_by_values[values]

        def rows_of(backend, shape, rows=rows):
            return rows.get((backend,) + shape)

        sizes = square_sizes(rows)
        backends = [b for b in machine.backends if machine.device(b) == "cpu"]
        if not sizes or not backends:
            continue
        table_rows = [[code(b)] + [Sourced(error_cell(rows_of(b, s)), rows_of(b, s)) for s in sizes] for b in backends]
        lines += [f"**{machine.label}**, Σ|x − ref|, inputs {VALUES_TEXT.get(values, values)}:", ""]
        lines += marked_table(machine, ["CPU backend"] + [shape_label(s) for s in sizes], table_rows, fixed=1)
        groups = identical_sums(rows_of, backends, sizes)
        if groups:
            lines += ["Identical sums (to every digit the JSON holds, at every size both measured in full): "
                      + "; ".join(", ".join(code(b) for b in group) for group in groups) + ".", ""]
    if not lines:
        lines = [f"No CPU results between {low} and {high}.", ""]
    return lines


def seeds_section(machines):
    lines = ["## 3. Source documents", "",
             "The five documents this project is built from (000 the openmlsys GEMM chapter, 001 a blog's kernels "
             "v1–v10, 002 column-major cooperative-groups kernels, 003 a course report, 004 a lecture): each "
             "document's own table, in its order, next to our backend for the same step. “Source × vendor” "
             "is printed by the document (002) or derived from its GFLOP/s (000, 004). “Our step speedup” is "
             "our GFLOP/s over the previous row's (“" + OTHER_DEVICE + "” where the previous row ran on another "
             "device); “Our % of peak” is against the device's peak for the row's precision (section 1a); “Our × "
             "vendor” is against cuBLAS FP32 for GPU rows and OpenBLAS for CPU rows.", ""]
    for seed in SEEDS:
        lines += [f"### Source document {seed['id']}: {seed['title']}", "", seed["about"], ""]
        for spec in seed["tables"]:
            lines += [f"#### {spec['title']}", ""]
            lines += error_sum_table(spec, machines) if spec["kind"] == "error_sum" else step_table(spec, machines)
            lines += spec["notes"] + ([""] if spec["notes"] else [])
    return lines

