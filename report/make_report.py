#!/usr/bin/env python3
"""Markdown report with plots from `matcompare --format json` result files.

    python3 report/make_report.py FILE.json [FILE.json ...] --out DIR

Writes DIR/README.md and the PNG plots it links. The Markdown depends only on the contents of
the JSON files (not on their order on the command line, the clock or the locale), so the same
files always give the same bytes.
"""
import argparse
import json
import math
import os
import re
import sys
from collections import namedtuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402

# ==========================================================================================
# SEED TABLES: the seeds' own steps in the seeds' order, their published figures and the
# matcompare backend (src/core/registry.cpp) that reproduces each step.
# Published numbers are strings, quoted exactly as the seed prints them (decimal point
# normalised), so no digit is lost or invented; ratios derived from them are computed below.
# ==========================================================================================

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
                          "a float64 reference, so the textbook loop has a nonzero sum too."],
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
# The sizes that get a × vendor bar chart, each only when measured.
BAR_CHART_SIZES = (2048, 4096)
PLOT_DPI = 110
DASH = "—"


# ---------------------------------------------------------------------------------- loading

def nested(mapping, *keys):
    """mapping[k1][k2]…, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(mapping, dict):
            return None
        mapping = mapping.get(key)
    return mapping


def shape_of(row):
    shape = (row.get("m"), row.get("n"), row.get("k"))
    return shape if all(isinstance(v, int) and not isinstance(v, bool) for v in shape) else None


def flops(shape):
    return 2 * shape[0] * shape[1] * shape[2]


def shape_label(shape):
    m, n, k = shape
    return str(m) if m == n == k else f"{m}x{n}x{k}"


def is_ok(row):
    return row is not None and row.get("status") == "ok"


def positive(value):
    """The number, or None: matcompare writes 0 or null for a ratio it could not form."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


Run = namedtuple("Run", "path name context results")


class Machine:
    """Everything measured on one machine, merged over the files that came from it."""

    def __init__(self, key):
        self.key = key
        self.runs = []        # oldest first
        self.rows = {}        # (backend, m, n, k) -> result row
        self.backends = []    # in matcompare's registry order
        self.latest_row = {}  # backend -> its row from the newest run, for device and precision
        self.number = 0
        self.slug = ""

    def add(self, run):
        self.runs.append(run)
        sequence = []
        for row in run.results:
            backend, shape = row.get("backend"), shape_of(row)
            if not isinstance(backend, str) or shape is None:
                continue
            # Runs arrive oldest first, so a repeated backend and shape keeps the newer row.
            self.rows[(backend,) + shape] = row
            self.latest_row[backend] = row
            if backend not in sequence:
                sequence.append(backend)
        merge_order(self.backends, sequence)

    @property
    def context(self):
        return self.runs[-1].context

    @property
    def label(self):
        # Hostnames of lent machines are often generic ("vm"): say what the machine is, too.
        gpu = self.context.get("gpu") or {}
        cores = self.context.get("cpu_cores")
        what = gpu.get("name") or (f"CPU only, {cores} cores" if cores else "CPU only")
        return f"M{self.number} · {self.key[0] or 'unnamed host'} ({what})"

    @property
    def shapes(self):
        found = {key[1:] for key in self.rows}
        return sorted(found, key=lambda s: (flops(s), s))

    def row(self, backend, shape):
        return self.rows.get((backend,) + shape)

    def device(self, backend):
        row = self.latest_row[backend]
        return row.get("device") or backend.split("/")[0]


def merge_order(order, sequence):
    """Adds the names of `sequence` missing from `order` right after their predecessor in
    `sequence`, so a backend that only some files measured still sits where the registry puts it."""
    for index, name in enumerate(sequence):
        if name not in order:
            order.insert(order.index(sequence[index - 1]) + 1 if index else 0, name)


def load_runs(paths):
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        if not isinstance(nested(document, "context"), dict) or not isinstance(nested(document, "results"), list):
            sys.exit(f"make_report: {path} is not a `matcompare --format json` file")
        runs.append(Run(path, os.path.basename(path), document["context"],
                        [row for row in document["results"] if isinstance(row, dict)]))
    # Oldest first, ties by file name: later runs then overwrite earlier rows of the same machine.
    runs.sort(key=lambda r: (str(r.context.get("timestamp_utc") or ""), r.name, r.path))
    return runs


def group_machines(runs):
    machines = {}
    for run in runs:
        context = run.context
        key = (str(context.get("hostname") or ""), str(context.get("cpu_model") or ""),
               str(nested(context, "gpu", "name") or "none"))
        machines.setdefault(key, Machine(key)).add(run)
    ordered = [machines[key] for key in sorted(machines)]
    for number, machine in enumerate(ordered, start=1):
        machine.number = number
        host = re.sub(r"[^a-z0-9]+", "-", machine.key[0].lower()).strip("-")[:40]
        machine.slug = f"m{number}-{host}" if host else f"m{number}"
    return ordered


def check_seed_mapping(machines):
    """Warns when a seed table names a backend whose own `seed` field does not mention that
    seed: the hard-coded tables and the registry have drifted apart."""
    for seed in SEEDS:
        for spec in seed["tables"]:
            for step in spec.get("steps", []):
                for machine in machines:
                    row = machine.latest_row.get(step.backend)
                    if row is not None and seed["id"] not in str(row.get("seed") or ""):
                        print(f"make_report: warning: seed {seed['id']} step '{step.label}' maps to "
                              f"{step.backend}, whose seed field is '{row.get('seed')}'", file=sys.stderr)
                        break


# ------------------------------------------------------------------------------- formatting

def fmt_gflops(value):
    if value is None:
        return DASH
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def fmt_ratio(value):
    """Two decimals, or two significant digits below 0.1 so tiny ratios do not round to 0."""
    if value is None:
        return DASH
    digits = 2 if value >= 0.1 else min(6, 1 - math.floor(math.log10(value)))
    return f"{value:.{digits}f}×"


def fmt_ms(value):
    if value is None:
        return DASH
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.3f}"


def fmt_error(value):
    if value is None:
        return DASH
    return "0" if value == 0 else f"{value:.3g}"


def fmt_plain(value):
    if value is None or value == "":
        return DASH
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def code(text):
    """An inline code span that survives backticks inside `text`."""
    text = str(text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header, rows):
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return lines + [""]


def status_text(row, ok_text):
    """What a table cell shows for one measurement."""
    if row is None:
        return DASH
    return ok_text if is_ok(row) else str(row.get("status") or DASH)


def gflops_of(row):
    return positive(row.get("gflops")) if is_ok(row) else None


# ------------------------------------------------------------------------------- sections

def header_section(runs, machines):
    names = ", ".join(code(name) for name in sorted({run.name for run in runs}))
    vendors = sorted({(machine.device(b), b) for machine in machines for b in machine.backends
                      if machine.latest_row[b].get("vendor") is True})
    vendor_text = ", ".join(f"{code(b)} on {d.upper()}" for d, b in vendors) or "none in these files"
    return [
        "# matcompare report",
        "",
        f"Generated by `report/make_report.py` from {len(runs)} result file(s) ({names}), "
        f"{len(machines)} machine(s).",
        "",
        "GFLOP/s is 2·M·N·K divided by the median compute time (data already resident on the device). "
        "“× vendor” divides by the vendor library measured in the same run on the same device and shape "
        f"({vendor_text}). Sizes are M = N = K unless written MxNxK. Files from one machine are merged; "
        "where they measure the same backend and shape, the file with the later `timestamp_utc` wins.",
        "",
        "1. [Machines](#1-machines)",
        "2. [Overview](#2-overview)",
        "3. [Seeds](#3-seeds)",
        "4. [Plots](#4-plots)",
        "",
    ]


def machines_section(machines):
    lines = ["## 1. Machines", ""]
    for machine in machines:
        context = machine.context
        gpu = context.get("gpu") if isinstance(context.get("gpu"), dict) else None
        lines += [f"### {machine.label}", ""]
        lines.append(f"- **CPU**: {fmt_plain(context.get('cpu_model'))}; "
                     f"{fmt_plain(context.get('cpu_cores'))} logical processors; "
                     f"{fmt_plain(context.get('omp_threads'))} OpenMP threads")
        lines.append(f"- **OpenBLAS**: {fmt_plain(nested(context, 'openblas', 'config'))} "
                     f"(core {fmt_plain(nested(context, 'openblas', 'core'))}, "
                     f"{fmt_plain(nested(context, 'openblas', 'parallel'))}, "
                     f"{fmt_plain(nested(context, 'openblas', 'threads'))} threads)")
        if gpu:
            lines.append(f"- **GPU**: {fmt_plain(gpu.get('name'))} (compute capability "
                         f"{fmt_plain(gpu.get('compute_capability'))}, {fmt_plain(gpu.get('multiprocessors'))} SMs, "
                         f"{fmt_plain(gpu.get('l2_mib'))} MiB L2, {fmt_plain(gpu.get('memory_gib'))} GiB); "
                         f"SM clock {fmt_plain(gpu.get('sm_clock_observed_mhz'))} MHz observed, "
                         f"{fmt_plain(gpu.get('sm_clock_max_mhz'))} MHz max; memory clock "
                         f"{fmt_plain(gpu.get('memory_clock_max_mhz'))} MHz max")
            lines.append(f"- **CUDA**: driver {fmt_plain(gpu.get('driver_version'))}, runtime "
                         f"{fmt_plain(gpu.get('runtime_version'))}, cuBLAS {fmt_plain(gpu.get('cublas_version'))}")
        else:
            lines.append(f"- **GPU**: none ({fmt_plain(context.get('gpu_unavailable_reason'))})")
        cache = f"host: {fmt_plain(context.get('host_cache_policy'))}"
        if gpu:
            cache += f"; GPU: {fmt_plain(gpu.get('cache_policy'))}"
        lines.append(f"- **Cache policy**: {cache}")
        lines.append(f"- **Build**: matcompare {fmt_plain(context.get('version'))} "
                     f"({fmt_plain(context.get('build_type'))}); C++ {fmt_plain(context.get('cxx_compiler'))}; "
                     f"CUDA {fmt_plain(context.get('cuda_compiler'))}")
        timing = context.get("timing") if isinstance(context.get("timing"), dict) else {}
        lines.append(f"- **Timing**: at least {fmt_plain(timing.get('repetitions'))} samples and "
                     f"{fmt_plain(timing.get('min_time_s'))} s of timed work per measurement; "
                     f"{fmt_plain(timing.get('time_limit_s'))} s limit per backend and shape; cache flush "
                     f"{fmt_plain(timing.get('flush_cache'))}")
        lines.append("- **Runs** (oldest first):")
        for run in machine.runs:
            lines.append(f"  - {fmt_plain(run.context.get('timestamp_utc'))}, {code(run.name)}, git "
                         f"{code(fmt_plain(run.context.get('git_commit')))}: "
                         f"{code(fmt_plain(run.context.get('command_line')))}")
        lines.append("")
    return lines


def overview_section(machines):
    lines = ["## 2. Overview", "",
             "GFLOP/s (× vendor) per backend and size; “skipped” rows were planned to exceed the time "
             "limit, “failed” rows did not run or did not verify.", ""]
    for machine in machines:
        shapes = machine.shapes
        rows = []
        for backend in machine.backends:
            cells = [code(backend), fmt_plain(machine.latest_row[backend].get("precision"))]
            for shape in shapes:
                row = machine.row(backend, shape)
                ratio = positive(row.get("vs_vendor")) if row else None
                ok_text = fmt_gflops(gflops_of(row)) + (f" ({fmt_ratio(ratio)})" if ratio else "")
                cells.append(status_text(row, ok_text))
            rows.append(cells)
        lines += [f"### {machine.label}", ""]
        if not rows:
            lines += ["No results in these files.", ""]
            continue
        lines += table(["Backend", "Precision"] + [shape_label(s) for s in shapes], rows)
        reasons = []
        for backend in machine.backends:
            # One line per backend and distinct reason, so e.g. "unavailable" is not repeated per size.
            sizes_by_reason = {}
            for shape in shapes:
                row = machine.row(backend, shape)
                if row is not None and not is_ok(row):
                    why = (str(row.get("status") or "unknown"), str(row.get("reason") or "").strip())
                    sizes_by_reason.setdefault(why, []).append(shape_label(shape))
            for (status, reason), sizes in sizes_by_reason.items():
                reasons.append(f"- {code(backend)} at {', '.join(sizes)}: {status}" + (f": {reason}" if reason else ""))
        if reasons:
            lines += ["Not measured:", ""] + reasons + [""]
    return lines


def fast_path_section(machines):
    """The rows beyond the seeds and the vendors on each GPU, each against cuBLAS FP32 and against the vendor row of
    its own precision, with its error: where the end of each ladder stands."""
    lines = []
    for machine in machines:
        backends = [b for b in machine.backends
                    if machine.latest_row[b].get("device") == "gpu"
                    and (machine.latest_row[b].get("vendor") or "beyond" in str(machine.latest_row[b].get("seed", "")))]
        measured = [s for s in machine.shapes
                    if any(positive((machine.row(b, s) or {}).get("vs_precision_vendor")) for b in backends)]
        if not measured:
            continue
        rows = []
        for backend in backends:
            cells = [code(backend), fmt_plain(machine.latest_row[backend].get("precision"))]
            for shape in measured:
                row = machine.row(backend, shape)
                ok_text = (f"{fmt_gflops(gflops_of(row))}; {fmt_ratio(positive(row.get('vs_vendor')))} FP32; "
                           f"{fmt_ratio(positive(row.get('vs_precision_vendor')))} same precision; "
                           f"err {fmt_error(row.get('max_abs_error'))}") if row else ""
                cells.append(status_text(row, ok_text))
            rows.append(cells)
        lines += [f"### {machine.label}", ""]
        lines += table(["Backend", "Precision"] + [shape_label(s) for s in measured], rows)
    if not lines:
        return []
    return ["## 2b. The fast path against the vendor", "",
            "GFLOP/s; × cuBLAS FP32; × the vendor row of the same precision (cuBLAS TF32 for TF32 rows, cuBLAS "
            "FP32 for FP32 and 3xTF32 rows); max |x − ref|. The steps beyond the seeds and the vendor rows only.",
            ""] + lines


def choose_shape(machine, backends, own_shapes, most_complete):
    """The seed's own shape where measured, else 2048³ (unless most_complete), else the shape
    where most steps ran, the larger on a tie."""
    def ok_count(shape):
        return sum(1 for backend in backends if is_ok(machine.row(backend, shape)))

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


def ladder_rows(spec, machine, shape):
    rows, previous = [], None
    for step in spec["steps"]:
        row = machine.row(step.backend, shape) if machine else None
        gflops = gflops_of(row)
        speedup = gflops / previous if gflops and previous else None
        ratio = positive(row.get("vs_vendor")) if is_ok(row) else None
        rows.append([step.label, seed_figure(step), step.hardware or spec["hardware"],
                     fmt_ratio(seed_vs_vendor(step, spec["steps"])),
                     code(step.backend), status_text(row, fmt_gflops(gflops)), fmt_ratio(speedup), fmt_ratio(ratio)])
        previous = gflops
    return rows


def loop_order_rows(spec, machine, shape):
    seed_fastest = min(float(step.ms) for step in spec["steps"])
    ours = {step.backend: machine.row(step.backend, shape) if machine else None for step in spec["steps"]}
    our_ms = {b: positive(row.get("median_ms")) for b, row in ours.items() if is_ok(row)}
    our_fastest = min((ms for ms in our_ms.values() if ms), default=None)
    rows = []
    for step in spec["steps"]:
        row, ms = ours[step.backend], our_ms.get(step.backend)
        rows.append([step.label, step.ms, fmt_ratio(float(step.ms) / seed_fastest), code(step.backend),
                     status_text(row, fmt_ms(ms)), fmt_ratio(ms / our_fastest if ms and our_fastest else None),
                     status_text(row, fmt_gflops(gflops_of(row)))])
    return rows


LADDER_HEADER = ["Seed step", "Seed figure", "Seed hardware", "Seed × vendor", "Our backend", "Our GFLOP/s",
                 "Our step speedup", "Our × vendor"]
LOOP_HEADER = ["Loop order", "Seed ms", "Seed ÷ fastest", "Our backend", "Our ms", "Our ÷ fastest", "Our GFLOP/s"]


def step_table(spec, machines):
    """A ladder or loop-order table, once per machine that measured its backends."""
    backends = {step.backend for step in spec["steps"]}
    build = ladder_rows if spec["kind"] == "ladder" else loop_order_rows
    header = LADDER_HEADER if spec["kind"] == "ladder" else LOOP_HEADER
    lines = [spec["hardware_note"], ""]
    measured = participating(machines, backends, spec["device"])
    if not measured:
        lines += ["No input file measured these backends.", ""] + table(header, build(spec, None, None))
    for machine in measured:
        most_complete = spec.get("most_complete", False)
        shape = choose_shape(machine, backends, spec["shapes"], most_complete)
        lines += [f"**{machine.label}**, {shape_note(shape, spec['shapes'], most_complete)}:", ""]
        lines += table(header, build(spec, machine, shape))
    return lines


def error_cell(row):
    return status_text(row, fmt_error(row.get("sum_abs_error") if row else None))


def error_sum_table(spec, machines):
    low, high = spec["sizes"]
    lines = []
    for machine in machines:
        sizes = [s for s in machine.shapes if s[0] == s[1] == s[2] and low <= s[0] <= high]
        backends = [b for b in machine.backends if machine.device(b) == "cpu"]
        if not sizes or not backends:
            continue
        rows = [[code(b)] + [error_cell(machine.row(b, s)) for s in sizes] for b in backends]
        lines += [f"**{machine.label}**, Σ|x − ref|:", ""]
        lines += table(["CPU backend"] + [shape_label(s) for s in sizes], rows)
    if not lines:
        lines = [f"No CPU results between {low} and {high}.", ""]
    return lines


def seeds_section(machines):
    lines = ["## 3. Seeds", "",
             "Each seed's own table, in its order, next to our backend for the same step. “Seed × vendor” "
             "is printed by the seed (002) or derived from its GFLOP/s (000, 004). “Our step speedup” is "
             "our GFLOP/s over the previous row's; “Our × vendor” is against cuBLAS FP32 for GPU rows and "
             "OpenBLAS for CPU rows.", ""]
    for seed in SEEDS:
        lines += [f"### Seed {seed['id']}: {seed['title']}", "", seed["about"], ""]
        for spec in seed["tables"]:
            lines += [f"#### {spec['title']}", ""]
            lines += error_sum_table(spec, machines) if spec["kind"] == "error_sum" else step_table(spec, machines)
            lines += spec["notes"] + ([""] if spec["notes"] else [])
    return lines


# ----------------------------------------------------------------------------------- plots

def save_figure(figure, out_dir, name):
    # No "Software" entry: the PNG then carries neither a version nor (Agg writes none) a date.
    figure.savefig(os.path.join(out_dir, name), dpi=PLOT_DPI, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    return name


def plot_gflops_vs_size(machine, device, out_dir):
    sizes = [s for s in machine.shapes if s[0] == s[1] == s[2]]
    series = []
    for backend in machine.backends:
        if machine.device(backend) != device:
            continue
        points = [(s[0], gflops_of(machine.row(backend, s))) for s in sizes]
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
        lines += [f"![{alt}]({name})\n" for alt, name in made] or ["No successful measurements to plot.", ""]
    return lines


# ------------------------------------------------------------------------------------ main

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="output of `matcompare --format json`")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for README.md and the plots")
    args = parser.parse_args()

    # The user's matplotlibrc must not change the plots.
    matplotlib.rcdefaults()
    os.makedirs(args.out, exist_ok=True)
    runs = load_runs(args.files)
    machines = group_machines(runs)
    check_seed_mapping(machines)
    lines = (header_section(runs, machines) + machines_section(machines) + overview_section(machines)
             + fast_path_section(machines) + seeds_section(machines) + plots_section(machines, args.out))
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
