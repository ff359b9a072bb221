#!/usr/bin/env python3
"""Checks report/make_report.py on the synthetic fixtures next to this file, each of its modules
(report/matcompare_report/) alone, and its answer to a table of bad input files.

    /usr/bin/python3 tests/report/test_report.py      (needs a Python with matplotlib)

Plain script, no pytest: prints one line per failed check and "N passed, M failed"; exits
non-zero when any check failed.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT_DIR = os.path.join(HERE, "..", "..", "report")
SCRIPT = os.path.join(REPORT_DIR, "make_report.py")
sys.path.insert(0, REPORT_DIR)
from matcompare_report import markdown, plots, runs, seeds, tables  # noqa: E402
FIXTURES = [os.path.join(HERE, "sample_cpu.json"), os.path.join(HERE, "sample_gpu.json")]

passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {name}" + (f" ({detail})" if detail else ""))


def make_report(files, out_dir):
    """Runs the generator; returns README.md's text, or None when it failed."""
    completed = subprocess.run([sys.executable, SCRIPT, *files, "--out", out_dir],
                               capture_output=True, text=True)
    check(f"make_report exits 0 for {len(files)} file(s)", completed.returncode == 0, completed.stderr.strip())
    path = os.path.join(out_dir, "README.md")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def section(text, start, end):
    """The Markdown from heading `start` up to heading `end` (or the end)."""
    begin = text.find(start)
    if begin < 0:
        return ""
    stop = text.find(end, begin + len(start)) if end else -1
    return text[begin:stop if stop >= 0 else len(text)]


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def test_deterministic_and_complete(tmp):
    first_dir, second_dir = os.path.join(tmp, "first"), os.path.join(tmp, "second")
    first = make_report(FIXTURES, first_dir)
    second = make_report(list(reversed(FIXTURES)), second_dir)
    check("README.md is written", first is not None and second is not None)
    if first is None or second is None:
        return
    check("README.md is not empty", len(first.strip()) > 0)
    check("README.md is identical whatever the input order", first == second)

    for seed in ("000", "001", "002", "003", "004"):
        check(f"seed {seed} has its section", f"### Seed {seed}" in first)
    for heading in ("## 1. Machines", "## 2. Overview", "## 3. Seeds", "## 4. Plots"):
        check(f"section '{heading}' exists", heading in first)

    overview = section(first, "## 2. Overview", "## 3. Seeds")
    for fixture in FIXTURES:
        document = load(fixture)
        host = document["context"]["hostname"]
        block = re.search(rf"### M\d+ · {re.escape(host)} \([^)]*\)\n(.*?)(?=\n### |\Z)", overview, re.S)
        check(f"overview has a table for {host}", block is not None)
        for backend in sorted({row["backend"] for row in document["results"]}):
            check(f"overview lists {backend} for {host}", block is not None and f"`{backend}`" in block.group(1))

    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", first)
    check("the report links plots", len(links) > 0)
    for link in links:
        check(f"linked plot {link} exists", os.path.isfile(os.path.join(first_dir, link)))
        check(f"linked plot {link} is a PNG", link.endswith(".png"))
        if os.path.isfile(os.path.join(first_dir, link)) and os.path.isfile(os.path.join(second_dir, link)):
            with open(os.path.join(first_dir, link), "rb") as a, open(os.path.join(second_dir, link), "rb") as b:
                check(f"plot {link} is identical in both runs", a.read() == b.read())

    check("the 2048x2048x1024 shape is a column", "2048x2048x1024" in overview)
    check("skipped rows are shown", "| skipped |" in overview)
    check("failed rows are shown", "| failed |" in overview)
    check("seed 000 uses its own shape", "shape 2048x2048x1024, the seed's own" in first)


def test_merge_keeps_newer_file(tmp):
    """A second file from the same machine merges into it; its rows win when it is newer."""
    gpu = load(FIXTURES[1])
    row = next(r for r in gpu["results"] if r["backend"] == "gpu/naive" and r["m"] == r["n"] == r["k"] == 2048)
    row["gflops"] = 123.0
    newer = dict(gpu, context=dict(gpu["context"], timestamp_utc="2099-01-01T00:00:00Z"))
    older = dict(gpu, context=dict(gpu["context"], timestamp_utc="2000-01-01T00:00:00Z"))
    for label, document, expect_new in (("newer", newer, True), ("older", older, False)):
        path = os.path.join(tmp, f"rerun_{label}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(document, handle)
        text = make_report(FIXTURES + [path], os.path.join(tmp, f"merged_{label}"))
        if text is None:
            return
        machines = section(text, "## 1. Machines", "## 2. Overview")
        check(f"{label} rerun merges into its machine", machines.count("\n### M") == 2)
        overview = section(text, "## 2. Overview", "## 3. Seeds")
        naive = next((line for line in overview.splitlines() if line.startswith("| `gpu/naive` |")), "")
        shows_new = "| 123 (" in naive
        check(f"{label} rerun's row {'replaces' if expect_new else 'does not replace'} the old one",
              shows_new == expect_new, naive)


def test_machines_told_apart_by_caches(tmp):
    """Lent VMs with the same hostname and CPU model are two machines where cpu/blis read different caches; a file
    that names none joins the host's one machine."""
    cpu = load(FIXTURES[0])
    def variant(name, caches, stamp):
        context = dict(cpu["context"], timestamp_utc=stamp)
        if caches:
            context["cpu_blis"] = f"avx512 12x32, KC 512 MC 252 NC 4096 ({caches})"
        path = os.path.join(tmp, f"caches_{name}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(dict(cpu, context=context), handle)
        return path
    small = variant("small", "L1d 32 KiB, L2 1024 KiB, L3 320 MiB", "2026-11-21T00:00:00Z")
    large = variant("large", "L1d 48 KiB, L2 1024 KiB, L3 384 MiB", "2026-11-22T00:00:00Z")
    unnamed = variant("unnamed", "", "2026-11-23T00:00:00Z")
    machines = runs.group_machines(runs.load_runs([small, large, unnamed]))
    labels = [m.label for m in machines]
    check("caches: two caches, two machines, and the file without caches alone", len(machines) == 3, labels)
    check("caches: the labels name the caches", any("L1d 32 KiB" in label for label in labels)
          and any("L1d 48 KiB" in label for label in labels)
          and any("caches not recorded" in label for label in labels), labels)
    machines = runs.group_machines(runs.load_runs([small, unnamed]))
    check("caches: a file without caches joins its host's one machine", len(machines) == 1
          and "L1d" not in machines[0].label, [m.label for m in machines])


def test_estimates_and_seed_values(tmp):
    """An estimated row is shown with its figure marked and the rows it came from; a run on seed 003's values
    feeds the error-sum table only, which names the values and the backends whose sums agree exactly."""
    cpu = load(FIXTURES[0])
    gold = next(r for r in cpu["results"] if r["backend"] == "cpu/gold" and r["m"] == r["n"] == r["k"] == 2048)
    gold.update(status="estimated", median_ms=40000.0, gflops=0.43, vs_vendor=0.002, estimate_rows=96,
                estimate_subset_ms=1875.0, estimate_ms_per_row=19.5, sum_abs_error=0.125, passed=True,
                reason="estimate from rows 0-95 of 2048 (3 runs, median 1875 ms, verified) plus 19.5 ms per "
                       "further row: one full run, ~40 s, does not fit its budget of 3.1 s")
    estimated_path = os.path.join(tmp, "estimated.json")
    with open(estimated_path, "w", encoding="utf-8") as handle:
        json.dump(cpu, handle)

    seed_values = load(FIXTURES[0])
    seed_values["context"] = dict(seed_values["context"], input_values="reals-1-100",
                                  timestamp_utc="2099-01-01T00:00:00Z")
    for row in seed_values["results"]:
        row["gflops"] = 999.0 if row["status"] == "ok" else row.get("gflops")
        row["sum_abs_error"] = {"cpu/gold-omp": 7.25, "cpu/transposed-b": 7.25, "cpu/blis": 3.5}.get(
            row["backend"], row.get("sum_abs_error"))
    seed_path = os.path.join(tmp, "seed_values.json")
    with open(seed_path, "w", encoding="utf-8") as handle:
        json.dump(seed_values, handle)

    text = make_report([estimated_path, seed_path], os.path.join(tmp, "estimates"))
    if text is None:
        return
    overview = section(text, "## 2. Overview", "## 3. Seeds")
    gold_line = next((line for line in overview.splitlines() if line.startswith("| `cpu/gold` |")), "")
    check("an estimate's GFLOP/s is marked as one", "~0.43 (0.0020×) est." in gold_line, gold_line)
    check("the overview lists the estimate with the rows it came from",
          "- `cpu/gold` at 2048: estimate from rows 0-95 of 2048" in overview, overview)
    check("a run on other values does not replace a uniform row", "999" not in overview)
    check("the overview explains the mark", "“~… est.” marks an estimate" in overview)
    plots_text = section(text, "## 4. Plots", "")
    check("the plots say estimates are left out", "estimates (“~… est.” in the tables) are left out" in plots_text)

    error_table = section(text, "#### Error sums", "### Seed 004")
    check("the error-sum table is made from the seed's values", "inputs reals in [1, 100], as seed 003" in error_table,
          error_table)
    check("the error-sum table names the backends whose sums agree exactly",
          "Identical sums (to every digit the JSON holds, at every size both measured in full): " in error_table
          and "; `cpu/gold-omp`, `cpu/transposed-b`;" in error_table and "`cpu/blis`," not in error_table,
          error_table)
    check("the error-sum table explains the identical sums", "the same additions in the same order give the same "
          "bits" in error_table)
    check("the runs list names the seed values' run", "(inputs `reals-1-100`: only seed 003's error-sum table uses it)"
          in text)

    uniform_only = make_report([estimated_path], os.path.join(tmp, "estimates_uniform"))
    if uniform_only is None:
        return
    error_table = section(uniform_only, "#### Error sums", "### Seed 004")
    check("without a run on the seed's values the table says its inputs are not the seed's",
          "inputs uniform in [−1, 1], not seed 003's values" in error_table, error_table)
    check("an estimate's error sum says which rows it covers", "| 0.125 (rows 0–95 only) |" in error_table,
          error_table)
    ladder = section(uniform_only, "#### CPU steps", "#### GPU steps")
    check("a seed ladder marks the estimate and the speedup that depends on it",
          "~0.43 est." in ladder and ladder.count(" est. |") >= 3, ladder)


VALID_ROW = {"backend": "cpu/gold", "device": "cpu", "m": 8, "n": 8, "k": 8, "status": "ok", "median_ms": 1.0,
             "gflops": 2.0}


def document_bytes(**changes):
    """A small valid result file, as bytes, with `changes` applied to its first row (None removes a field)."""
    row = dict(VALID_ROW)
    for key, value in changes.items():
        if value is None:
            row.pop(key)
        else:
            row[key] = value
    return json.dumps({"context": {"hostname": "h"}, "results": [row]}).encode()


# name, the file's bytes, what the one error line must say besides the file's name.
BAD_INPUTS = [
    ("random bytes", bytes(range(256)) * 4, "not UTF-8"),
    ("empty file", b"", "is empty"),
    ("truncated file", document_bytes()[:-10], "truncated"),
    ("not JSON", b"context: results", "not valid JSON"),
    ("a JSON array", b"[1, 2]", "must be an object"),
    ("no context", b'{"results": []}', "context must be an object but is missing"),
    ("results not an array", b'{"context": {}, "results": "x"}', "results must be an array but is a string"),
    ("a row not an object", b'{"context": {}, "results": [3]}', "results[0] must be an object"),
    ("row without shape, status or time", b'{"context": {}, "results": [{"backend": "x"}]}',
     "results[0].m must be an integer from 1 to 2147483647 but is missing"),
    ("empty backend", document_bytes(backend=""), "results[0].backend"),
    ("string size", document_bytes(m="8"), "results[0].m must be an integer from 1 to 2147483647 but is a string"),
    ("zero size", document_bytes(k=0), "results[0].k must be an integer from 1"),
    ("boolean size", document_bytes(n=True), "results[0].n must be an integer from 1"),
    ("size beyond the CLI's", document_bytes(m=2**31), "results[0].m must be an integer from 1 to 2147483647 but is a number (2147483648)"),
    ("unknown status", document_bytes(status="great"), "results[0].status must be one of"),
    ("ok row without time", document_bytes(median_ms=None), "results[0].median_ms (status ok)"),
    ("estimate without its rows", document_bytes(status="estimated"),
     "results[0].estimate_rows (status estimated) must be a positive integer but is missing"),
    ("text where a number goes", document_bytes(vs_vendor="fast"), "results[0].vs_vendor must be a number"),
    ("number where text goes", document_bytes(precision=32), "results[0].precision must be a string"),
    ("context gpu not an object", b'{"context": {"gpu": "H100"}, "results": []}', "context.gpu must be an object"),
    ("NaN", document_bytes().replace(b'"gflops": 2.0', b'"gflops": NaN'), "NaN"),
    ("Infinity", document_bytes().replace(b'"gflops": 2.0', b'"gflops": -Infinity'), "-Infinity"),
    ("a number beyond float", document_bytes().replace(b'"gflops": 2.0', b'"gflops": 1e999'),
     "results[0].gflops is a number too large"),
    ("deep nesting", b"[" * 100000 + b"]" * 100000, "too deeply"),
    ("a lone surrogate in a backend name", document_bytes(backend="cpu/gold\ud800"),
     "results[0].backend holds a lone surrogate (\\ud800)"),
    ("vs_vendor 1e308 on an ok row", document_bytes(vs_vendor=1e308),
     "results[0].vs_vendor must be a number (0, or from 1e-09 to 1e+12) or null but is a number (1e+308)"),
    ("a fractional sample count", document_bytes(samples=2.5), "results[0].samples must be a whole number"),
    ("an integer of 5000 digits", b'{"context": {"x": ' + b"9" * 5000 + b'}, "results": []}', "thousands of digits"),
    ("2000 ok backends", json.dumps({"context": {}, "results": [dict(VALID_ROW, backend=f"cpu/b{n}") for n in
                                                                range(2000)]}).encode(), "holds 2000 backends"),
]


def run_generator(files, out_dir):
    return subprocess.run([sys.executable, SCRIPT, *files, "--out", out_dir], capture_output=True, text=True)


def expect_refused(name, completed, out_dir, *wanted):
    check(f"{name}: exit status 2", completed.returncode == 2, f"{completed.returncode}: {completed.stderr}")
    check(f"{name}: nothing on stdout", completed.stdout == "", completed.stdout)
    lines = completed.stderr.splitlines()
    check(f"{name}: one line on stderr", len(lines) == 1, completed.stderr)
    check(f"{name}: the line is the CLI's error", completed.stderr.startswith("matcompare: error: "),
          completed.stderr)
    for text in wanted:
        check(f"{name}: the message says {text!r}", text in completed.stderr, completed.stderr)
    check(f"{name}: no output folder", not os.path.exists(out_dir))


def test_bad_inputs(tmp):
    good = os.path.join(tmp, "good.json")
    with open(good, "wb") as handle:
        handle.write(document_bytes())
    for index, (name, data, wanted) in enumerate(BAD_INPUTS):
        path = os.path.join(tmp, f"bad_{index}.json")
        with open(path, "wb") as handle:
            handle.write(data)
        out_dir = os.path.join(tmp, f"bad_out_{index}")
        # Beside a good file, so that the bad one is what stops the report.
        expect_refused(name, run_generator([good, path], out_dir), out_dir, path, wanted)

    huge = os.path.join(tmp, "huge.json")
    with open(huge, "wb") as handle:
        handle.truncate(runs.MAX_FILE_BYTES + 1)
    out_dir = os.path.join(tmp, "huge_out")
    expect_refused("a very large file", run_generator([huge], out_dir), out_dir, huge, "MiB")

    missing = os.path.join(tmp, "missing.json")
    out_dir = os.path.join(tmp, "missing_out")
    expect_refused("a missing file", run_generator([missing], out_dir), out_dir, missing, "cannot read")

    out_file = os.path.join(tmp, "out_is_a_file")
    with open(out_file, "w") as handle:
        handle.write("kept")
    completed = run_generator([good], out_file)
    check("--out naming a file: exit status 2", completed.returncode == 2, completed.stderr)
    check("--out naming a file: one error line", completed.stderr.startswith("matcompare: error: ")
          and len(completed.stderr.splitlines()) == 1, completed.stderr)
    with open(out_file) as handle:
        check("--out naming a file: the file is left alone", handle.read() == "kept")

    completed = run_generator([good], os.path.join(tmp, "good_out"))
    check("the small valid file makes a report", completed.returncode == 0, completed.stderr)
    leftovers = [n for n in os.listdir(os.path.join(tmp, "good_out")) if n.endswith(".partial")]
    check("no temporary files are left", leftovers == [], str(leftovers))


def scaling_document(devices, speedups, timestamp):
    """A run on one two-GPU machine: cuBLAS FP32 and cuBLASXt on `devices` GPUs at 4096 and 8192 (the given
    speedups), and cuBLASXt alone at 131072, verified on a sample, where cuBLAS did not fit one GPU."""
    context = {"hostname": "gpu2", "cpu_model": "x", "timestamp_utc": timestamp, "gpu": {"name": "NVIDIA H200"}}
    rows = []
    for size, speedup in zip((4096, 8192), speedups):
        base = {"m": size, "n": size, "k": size, "status": "ok", "median_ms": 10.0, "gflops": 1000.0, "passed": True}
        rows.append(dict(base, backend="gpu/cublas-fp32", device="gpu", vendor=True, devices=1, speedup=None,
                         efficiency=None, speedup_basis=None))
        rows.append(dict(base, backend="gpu/cublasxt-fp32", device="gpu", devices=devices, speedup=speedup,
                         efficiency=speedup / devices, speedup_basis="end-to-end"))
    big = {"m": 131072, "n": 131072, "k": 131072, "device": "gpu"}
    rows.append(dict(big, backend="gpu/cublas-fp32", status="unavailable", reason="needs 192.00 GiB of GPU memory",
                     devices=1))
    rows.append(dict(big, backend="gpu/cublasxt-fp32", status="ok", median_ms=90000.0, gflops=50000.0, passed=True,
                     devices=devices, speedup=None, efficiency=None, speedup_basis="end-to-end",
                     verification_sample="64 rows of 131072, evenly spread", verified_rows=64))
    rows.append(dict(big, m=8192, n=8192, k=8192, backend="gpu/cublasmp-fp32", status="estimated", median_ms=30.0,
                     gflops=36000.0, passed=True, devices=devices, speedup=None, efficiency=None,
                     speedup_basis="compute", estimate_rows=256, verified_rows=256,
                     reason="estimate from rows 0-255 of 8192 (3 runs, median 0.9 ms, verified)"))
    rows.append(dict(big, m=4096, n=4096, k=4096, backend="gpu/cublasmp-fp32", status="unavailable", devices=devices,
                     speedup_basis="compute", reason="cuBLASMp was not found when matcompare was built"))
    return {"context": context, "results": rows}


def cpu_only_document():
    """A machine without a GPU: its multi-GPU rows are unavailable, and have nothing to scale."""
    context = {"hostname": "cpu2", "cpu_model": "y", "timestamp_utc": "2025-01-03T00:00:00Z"}
    base = {"m": 512, "n": 512, "k": 512, "device": "gpu", "status": "unavailable", "devices": 1,
            "speedup_basis": "end-to-end", "reason": "no NVIDIA GPU or driver on this machine"}
    return {"context": context, "results": [dict(base, backend="gpu/cublas-fp32", vendor=True),
                                            dict(base, backend="gpu/cublasxt-fp32")]}


def test_scaling(tmp):
    """Multi-GPU rows get a scaling section and plot; one run per GPU count, both kept; none without them."""
    paths = []
    for devices, speedups, stamp in ((1, (0.5, 0.7), "2025-01-01T00:00:00Z"), (2, (0.9, 1.6), "2025-01-02T00:00:00Z")):
        paths.append(os.path.join(tmp, f"scaling_{devices}.json"))
        with open(paths[-1], "w") as handle:
            json.dump(scaling_document(devices, speedups, stamp), handle)
    paths.append(os.path.join(tmp, "scaling_cpu_only.json"))
    with open(paths[-1], "w") as handle:
        json.dump(cpu_only_document(), handle)
    out_dir = os.path.join(tmp, "scaling_report")
    text = make_report(paths, out_dir) or ""
    part = section(text, "## 2c. Past one GPU: scaling", "## 3. Seeds")
    check("scaling: the section exists", part != "")
    check("scaling: both GPU counts are kept", "| `gpu/cublasxt-fp32` | 1 | 4096 |" in part
          and "| `gpu/cublasxt-fp32` | 2 | 4096 |" in part, part)
    check("scaling: speedup and efficiency shown", "| 1.60 | 0.80 |" in part, part)
    check("scaling: the basis is named", "end to end (1-GPU cuBLAS upload + compute + download)" in part)
    check("scaling: the sampled verification is named", "sample: 64 rows of 131072" in part, part)
    check("scaling: the vendor that did not fit is not a scaling row", "`gpu/cublas-fp32` | 1 |" not in part)
    check("scaling: an estimate names the rows it verified", "| rows 0–255 |" in part, part)
    check("scaling: a machine without a GPU has no scaling table", "cpu2" not in part, part)
    check("scaling: a GPU machine's unavailable row keeps its reason", "cuBLASMp was not found" in part, part)
    check("scaling: a plot is written and linked", "-scaling.png" in text
          and any(name.endswith("-scaling.png") for name in os.listdir(out_dir)))
    plain = os.path.join(tmp, "no_scaling_report")
    check("scaling: no section for files without multi-GPU rows",
          "2c. Past one GPU" not in (make_report(FIXTURES, plain) or ""))


# An estimate's figure that no measured row of plots_document comes near.
EXTREME = 987654.0


def plots_document():
    """A run with measured rows around estimated ones whose figures are far beyond any measurement: cpu/gold is
    measured at 1024 and estimated at 2048 and 4096, cpu/naive estimated alone, cuBLASXt estimated at 2048."""
    context = {"hostname": "plots", "cpu_model": "x", "timestamp_utc": "2025-02-01T00:00:00Z",
               "gpu": {"name": "NVIDIA H200"}}
    rows = []
    for size in (1024, 2048, 4096):
        base = {"m": size, "n": size, "k": size, "status": "ok", "passed": True, "median_ms": 1.0}
        scale = size // 1024
        rows.append(dict(base, backend="cpu/openblas", device="cpu", vendor=True, gflops=100.0 * scale,
                         vs_vendor=1.0))
        rows.append(dict(base, backend="cpu/tiling", device="cpu", gflops=50.0 * scale, vs_vendor=0.5))
        rows.append(dict(base, backend="cpu/gold", device="cpu", gflops=2.0 * scale, vs_vendor=0.02))
        if size > 1024:
            rows[-1].update(status="estimated", gflops=EXTREME, vs_vendor=EXTREME, estimate_rows=96)
        rows.append(dict(base, backend="cpu/naive", device="cpu", gflops=EXTREME, vs_vendor=EXTREME))
        if size == 1024:
            rows[-1].update(status="estimated", estimate_rows=64)
        else:
            rows[-1].update(status="failed", gflops=None, vs_vendor=None, passed=False)
        rows.append(dict(base, backend="gpu/cublas-fp32", device="gpu", vendor=True, devices=1, gflops=1000.0 * scale,
                         vs_vendor=1.0, speedup_basis="end-to-end"))
        rows.append(dict(base, backend="gpu/cublasxt-fp32", device="gpu", devices=2, gflops=800.0 * scale,
                         vs_vendor=0.8, speedup=1.5 * scale, efficiency=0.75 * scale, speedup_basis="end-to-end"))
        if size == 2048:
            rows[-1].update(status="estimated", estimate_rows=128, gflops=EXTREME, vs_vendor=EXTREME,
                            speedup=EXTREME, efficiency=EXTREME)
    return {"context": context, "results": rows}


def plotted(tmp, document, name):
    """What the report's plots draw for `document`: per plot file, its lines ({label: (xs, ys)}, the ideal and
    vendor guides included) and bars ({label: width}), read from the figures before they are saved."""
    path = os.path.join(tmp, f"{name}.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    out_dir = os.path.join(tmp, name)
    os.makedirs(out_dir)
    drawn = {}
    real_save = plots.save_figure

    def record(figure, directory, file_name):
        axes = figure.axes[0]
        lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in axes.get_lines()}
        labels = [tick.get_text() for tick in axes.get_yticklabels()]
        bars = {label: patch.get_width() for label, patch in zip(labels, axes.patches)}
        drawn[file_name] = {"lines": lines, "bars": bars}
        return real_save(figure, directory, file_name)

    plots.save_figure = record
    try:
        plots.plots_section(runs.group_machines(runs.load_runs([path])), out_dir)
    finally:
        plots.save_figure = real_save
    return drawn


def test_plots_leave_out_estimates(tmp):
    """README: "plots show measured rows only". An estimate's extreme figures are in no line and no bar, and a
    backend measured nowhere has no line; the measured rows beside them are drawn."""
    drawn = plotted(tmp, plots_document(), "plots_estimates")
    names = sorted(drawn)
    check("plots: the CPU and GPU GFLOP/s plots, both bar charts and the scaling plot are drawn",
          names == ["m1-plots-cpu-gflops.png", "m1-plots-gpu-gflops.png", "m1-plots-scaling.png",
                    "m1-plots-vs-vendor-2048.png", "m1-plots-vs-vendor-4096.png"], names)
    for name, figure in drawn.items():
        values = [v for xs, ys in figure["lines"].values() for v in xs + ys] + list(figure["bars"].values())
        check(f"plots: {name} draws no estimated figure", EXTREME not in values, figure)

    cpu = drawn.get("m1-plots-cpu-gflops.png", {"lines": {}})["lines"]
    check("plots: a backend measured at one size and estimated at the others is a point at that size",
          cpu.get("cpu/gold") == ([1024], [2.0]), cpu.get("cpu/gold"))
    check("plots: a backend that was only estimated has no line", "cpu/naive" not in cpu, sorted(cpu))
    check("plots: the measured lines are drawn whole",
          cpu.get("cpu/tiling") == ([1024, 2048, 4096], [50.0, 100.0, 200.0])
          and cpu.get("cpu/openblas") == ([1024, 2048, 4096], [100.0, 200.0, 400.0]), cpu)
    gpu = drawn.get("m1-plots-gpu-gflops.png", {"lines": {}})["lines"]
    check("plots: the estimated multi-GPU size is left out of its GFLOP/s line",
          gpu.get("gpu/cublasxt-fp32") == ([1024, 4096], [800.0, 3200.0]), gpu.get("gpu/cublasxt-fp32"))
    measured = {"cpu/openblas": 1.0, "cpu/tiling": 0.5, "gpu/cublas-fp32": 1.0}
    for size, expected in ((2048, measured), (4096, dict(measured, **{"gpu/cublasxt-fp32": 0.8}))):
        bars = drawn.get(f"m1-plots-vs-vendor-{size}.png", {"bars": {}})["bars"]
        check(f"plots: the x vendor bars at {size} are the measured rows'", bars == expected, bars)
    scaling = drawn.get("m1-plots-scaling.png", {"lines": {}})["lines"]
    check("plots: the scaling line leaves out the estimated size",
          scaling.get("gpu/cublasxt-fp32 on 2 GPU(s)") == ([1024, 4096], [1.5, 6.0]), scaling)


def fixture_machines():
    return runs.group_machines(runs.load_runs(FIXTURES))


def test_modules_alone(tmp):
    """Each module on its own, without the others' sections around it."""
    check("runs: merge_order puts a new name after its predecessor",
          (lambda order: (runs.merge_order(order, ["a", "x", "b"]), order)[1])(["a", "b"]) == ["a", "x", "b"])
    machines = fixture_machines()
    check("runs: one machine per fixture", len(machines) == 2)
    check("runs: machines are numbered and slugged", [m.number for m in machines] == [1, 2]
          and all(m.slug.startswith(f"m{m.number}") for m in machines))

    check("markdown: a table has a header, a rule and the rows",
          markdown.table(["a", "b"], [["1", "x|y"]]) == ["| a | b |", "|---|---|", "| 1 | x\\|y |", ""])
    check("markdown: a code span survives a backtick", markdown.code("a`b") == "``a`b``")
    check("markdown: tiny ratios keep two digits", markdown.fmt_ratio(0.0123) == "0.012×")
    check("markdown: an unknown number is a dash", markdown.fmt_gflops(None) == markdown.DASH)

    overview = tables.overview_section(machines)
    check("tables: the overview has a table per machine", sum(line.startswith("### M") for line in overview) == 2)
    check("tables: no fast-path section without same-precision ratios", tables.fast_path_section(machines) == [])

    steps = seeds.SEEDS[0]["tables"][0]["steps"]
    check("seeds: seed 000's naive step is 185.313 / 14002.6 of cuBLAS",
          abs(seeds.seed_vs_vendor(steps[0], steps) - 185.313 / 14002.600) < 1e-12)
    seed_lines = seeds.seeds_section(machines)
    check("seeds: every seed has its section", all(f"### Seed {s['id']}: {s['title']}" in seed_lines
                                                   for s in seeds.SEEDS))

    plot_dir = os.path.join(tmp, "plots_alone")
    os.makedirs(plot_dir)
    cpu_machine = next(m for m in machines if m.device(m.backends[0]) == "cpu")
    made, left_out = plots.plot_gflops_vs_size(cpu_machine, "cpu", plot_dir)
    name = made[0][1] if len(made) == 1 else None
    check("plots: a GFLOP/s plot is written as a PNG", name is not None and os.path.isfile(os.path.join(plot_dir, name)))
    check("plots: every backend fits one plot", left_out == [], left_out)
    check("plots: no plot for a device without results", plots.plot_gflops_vs_size(cpu_machine, "gpu", plot_dir)
          == ([], []))
    check("plots: only the PNG is left", os.listdir(plot_dir) == [name])


def main():
    # make_report runs under this same interpreter.
    if importlib.util.find_spec("matplotlib") is None:
        sys.exit(f"{sys.executable} has no matplotlib; run this with a Python that has it, e.g. /usr/bin/python3")
    with tempfile.TemporaryDirectory() as tmp:
        test_deterministic_and_complete(tmp)
        test_merge_keeps_newer_file(tmp)
        test_machines_told_apart_by_caches(tmp)
        test_estimates_and_seed_values(tmp)
        test_bad_inputs(tmp)
        test_modules_alone(tmp)
        test_scaling(tmp)
        test_plots_leave_out_estimates(tmp)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
