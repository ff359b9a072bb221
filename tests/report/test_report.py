#!/usr/bin/env python3
"""Checks report/make_report.py on the synthetic fixtures next to this file, each of its modules
(report/matcompare_report/) alone, and the contract of `matcompare report`: a table of bad inputs and --out
folders (exit 2, one line, nothing written), odd but valid files (escaped, cut, split, within seconds), the
folder replaced whole or not at all, INT, TERM, HUP, QUIT and PIPE at any moment (one line, the end by the
signal, the old report or none), and a seeded fuzzer over the JSON (fuzz_report.py). The generator runs in this
process (report_harness.py) except where a signal needs a process of its own.

    /usr/bin/python3 tests/report/test_report.py [content|contract|fuzz ...]   (needs a Python with matplotlib)

Plain script, no pytest: prints one line per failed check and "N passed, M failed"; exits
non-zero when any check failed.
"""
import ast
import contextlib
import copy
import errno
import importlib.util
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

# The report's modules load matplotlib as they are imported: say so plainly where this Python has none.
if importlib.util.find_spec("matplotlib") is None:
    sys.exit(f"{sys.executable} has no matplotlib; run this with a Python that has it, e.g. /usr/bin/python3")

import fuzz_report  # noqa: E402
import matplotlib.colors  # noqa: E402
from matplotlib.markers import MarkerStyle  # noqa: E402
from report_harness import (HERE, REPORT_DIR, SCRIPT, DrawOnce, contract_problems, differences,  # noqa: E402
                            drawing_for_real, report_problems, run_in_process, snapshot)

from matcompare_report import (accuracy, checks, interrupt, markdown, output, peaks, plots, runs, seeds,  # noqa: E402
                               tables, vendors)
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


def read_report(out_dir, raw=False):
    """README.md of a report; unless `raw`, with its wrapped prose joined again, so that a phrase can be looked for
    whatever line it was broken across (tables are as written)."""
    path = os.path.join(out_dir, "README.md")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return text if raw else markdown.unwrap(text)


def make_report(files, out_dir, raw=False):
    """Runs the generator (in this process); returns README.md's text, or None when it failed."""
    status, _, stderr = run_in_process([*files, "--out", out_dir])
    check(f"make_report exits 0 for {len(files)} file(s)", status == 0, stderr.strip())
    return read_report(out_dir, raw)


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
    # Drawn for real twice: what lets every other check draw a plot once (DrawOnce).
    with drawing_for_real():
        first = make_report(FIXTURES, first_dir)
        second = make_report(list(reversed(FIXTURES)), second_dir)
    check("README.md is written", first is not None and second is not None)
    if first is None or second is None:
        return
    check("README.md is not empty", len(first.strip()) > 0)
    check("README.md is identical whatever the input order", first == second)

    for seed in ("000", "001", "002", "003", "004"):
        check(f"seed {seed} has its section", f"### Source document {seed}" in first)
    for heading in ("## 1. Machines", "## 2. Overview", "## 3. Source documents", "## 4. Plots"):
        check(f"section '{heading}' exists", heading in first)

    overview = section(first, "## 2. Overview", "## 3. Source documents")
    labels = {m.key.hostname: m.label for m in fixture_machines()}
    for fixture in FIXTURES:
        document = load(fixture)
        host = document["context"]["hostname"]
        block = re.search(rf"### {re.escape(labels[host])}\n(.*?)(?=\n### |\Z)", overview, re.S)
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

    check("machines are named by their hardware, not their hostnames",
          sorted(labels.values()) == ["M1 · 16-core AMD Ryzen 7 5800X 8-Core (AVX2)",
                                      "M2 · NVIDIA H100 80GB HBM3 (16-core Intel Xeon Platinum 8480+ host)"]
          and "### M1 · 16-core AMD Ryzen 7 5800X 8-Core (AVX2)" in first, sorted(labels.values()))
    check("plot files are named by the hardware", all(re.match(r"m1-ryzen-16c-|m2-h100-", link) for link in links),
          links)
    raw = read_report(first_dir, raw=True)
    long_lines = [line[:80] for line in raw.splitlines() if len(line) > 300]
    check("no line of the Markdown is over 300 characters", not long_lines, long_lines[:3])
    check("the 2048x2048x1024 shape is a column", "2048x2048x1024" in overview)
    check("skipped rows are shown", "| skipped |" in overview)
    check("failed rows are shown", "| failed |" in overview)
    check("seed 000 uses its own shape", "shape 2048x2048x1024, the seed's own" in first)


def test_layouts_are_shapes_of_their_own(tmp):
    """A transposed run of a shape is its own column, labelled with its layout; NN keeps the plain label."""
    rows = [dict(VALID_ROW, backend="cpu/blis", vs_vendor=1.1), dict(VALID_ROW, backend="cpu/blis", layout="TN",
                                                                      median_ms=2.0, gflops=1.0, vs_vendor=0.9)]
    path = os.path.join(tmp, "layouts.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document(rows=rows), handle)
    text = make_report([path], os.path.join(tmp, "layouts"))
    if text is None:
        return
    overview = section(text, "## 2. Overview", "## 3. Source documents")
    check("the NN run keeps its plain label and the TN run has a column of its own", "| 8 | 8 TN |" in overview,
          overview[:600])
    check("each column holds its own run", "| 2.00 (1.10×) | 1.00 (0.90×) |" in overview, overview[:600])


def test_suite_section(tmp):
    """A suite run: per problem the fastest own row against the best vendor, the geometric mean and the worst; a plot."""
    def row(backend, m, ratio, library=False, layout="NN"):
        return dict(VALID_ROW, backend=backend, m=m, n=8, k=8, layout=layout, precision="fp32", vs_best_vendor=ratio,
                    best_vendor="cpu/openblas", vendor_library=library)
    rows = [row("cpu/blis", 8, 0.5), row("cpu/tiling", 8, 0.25), row("cpu/openblas", 8, 1.0, library=True),
            dict(row("cpu/blis", 16, 2.0, layout="NT"), vs_vendor_pairs=1),
            row("cpu/openblas", 16, 1.0, library=True, layout="NT"),
            dict(VALID_ROW, backend="cpu/loop-ijk", m=16, layout="NT", status="failed", reason="NaN or Inf in the result",
                 median_ms=None, gflops=None)]
    suite = {"name": "tiny", "title": "two problems", "shapes": [{"m": 8, "n": 8, "k": 8, "layout": "NN", "name": "first"},
                                                               {"m": 16, "n": 8, "k": 8, "layout": "NT", "name": "second"}]}
    path = os.path.join(tmp, "suite.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document(rows=rows, context={"hostname": "h", "suite": suite}), handle)
    out = os.path.join(tmp, "suite_report")
    text = make_report([path], out)
    if text is None:
        return
    section_text = section(text, "## 2d. Suites", "## 3. Source documents")
    check("the suite has its section", "suite `tiny`" in section_text and "two problems." in section_text, section_text)
    check("each problem: the fastest own row and its ratio, marked where it rests on one pair",
          "| 8 | first | 0.50× `blis` |" in section_text
          and "| 16x8x8 NT | second | 2.00× (1 pair) `blis` |" in section_text, section_text)
    check("the geometric mean over the problems, with how many rest on one pair",
          "**1.00×** over 2, 1 of one pair" in section_text, section_text)
    check("the worst, with its row and problem", "**0.50×** `blis` at 8" in section_text, section_text)
    check("a plot of the suite", os.path.exists(os.path.join(out, "m1-suite-tiny.png")) and "m1-suite-tiny.png" in text)
    overview = section(text, "## 2. Overview", "## 2d. Suites")
    check("a suite's problems are not columns of the overview, which says where they are",
          "16x8x8 NT" not in overview.split("Not measured:")[0]
          and "Only suites ran here (sections 2d and 2e show them)." in overview, overview)
    check("a suite's failed row is still named under the overview",
          "- failed, “NaN or Inf in the result”: `cpu/loop-ijk`" in overview, overview)
    # With a run by sizes on the same machine, the overview has that run's sizes only.
    sizes = dict(VALID_ROW, backend="cpu/blis", m=32, n=32, k=32, precision="fp32")
    sizes_path = os.path.join(tmp, "sizes.json")
    with open(sizes_path, "w", encoding="utf-8") as handle:
        json.dump(document(rows=[sizes], context={"hostname": "h"}), handle)
    both = make_report([path, sizes_path], os.path.join(tmp, "suite_and_sizes"))
    overview = section(both or "", "## 2. Overview", "## 2d. Suites")
    check("beside a run by sizes, the overview has its sizes and none of the suite's",
          "| Backend | Precision | 32 |" in overview and "16x8x8" not in overview and "suite `tiny`" in (both or ""),
          overview)
    # A run by sizes has no suite section.
    plain = make_report([FIXTURES[0]], os.path.join(tmp, "no_suite"))
    check("no suite, no section", plain is not None and "## 2d. Suites" not in plain)


def test_run_time_against_budget(tmp):
    """A run that recorded how long it took (timing.run_s) says so in its machine's list of runs, beside its budget;
    one that did not (runs before 2026-11-30, a stopped run's .partial file) says nothing of it."""
    paths = []
    for name, timing in (("long", {"budget_s": 330, "run_s": 370.4}), ("older", {"budget_s": 20}),
                         ("stopped", {"budget_s": 20, "run_s": None})):
        path = os.path.join(tmp, f"{name}.json")
        context = {"hostname": name, "cpu_model": name, "timestamp_utc": "2026-11-30T00:00:00Z",
                   "command_line": f"matcompare {name}", "timing": timing}
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(document(context=context), handle)
        paths.append(path)
    text = make_report(paths, os.path.join(tmp, "run_time"))
    if text is None:
        return
    runs = [line for line in text.splitlines() if line.startswith("  - 2026-11-30T00:00:00Z")]
    check("three runs listed", len(runs) == 3, "\n".join(runs))
    long_run = next((line for line in runs if "`long.json`" in line), "")
    check("the run's time beside its budget", "`matcompare long`; took 370 s of a 330-s budget" in long_run, long_run)
    check("runs without it say nothing of it", all("took" not in line for line in runs if line != long_run),
          "\n".join(runs))


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
        overview = section(text, "## 2. Overview", "## 3. Source documents")
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


def test_machines_told_apart_by_gpus(tmp):
    """A lent 2-GPU host and a 1-GPU one share hostname ("vm"), CPU model and GPU model: their logical processors and
    GPU counts make them two machines, the 2-GPU one labelled and its plots named so; its run on `--devices 0` stays
    with it (the context lists every GPU); a file that does not record its GPUs or its processors joins its host's one
    known count, the plots' names following the label."""
    def variant(name, cores, gpus, stamp, devices=1, caches=True):
        context = {"hostname": "vm", "cpu_model": "Intel(R) Xeon(R) Processor", "timestamp_utc": stamp,
                   "gpu": {"name": "NVIDIA H200"}}
        if cores:
            context["cpu_cores"] = cores
        if gpus:
            context["gpus"] = [{"index": i, "name": "NVIDIA H200"} for i in range(gpus)]
        if cores and caches:  # each host's own: hosts of different processor counts are no twins told apart by them
            context["cpu_blis"] = f"avx512 12x32, KC 768 ({'L1d 48 KiB, L2 2048 KiB, L3 %d MiB' % (cores * 10)})"
        path = os.path.join(tmp, f"gpus_{name}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(dict(scaling_document(devices, (0.5, 0.7), stamp), context=context), handle)
        return path
    one = variant("one", 16, 1, "2026-11-21T00:00:00Z")
    old = variant("old", 16, 0, "2026-11-20T00:00:00Z", caches=False)  # from before the GPU list and the caches
    two = variant("two", 32, 2, "2026-11-22T00:00:00Z", devices=2)
    two_on_one = variant("two_on_one", 32, 2, "2026-11-23T00:00:00Z")  # --devices 0 on the 2-GPU host
    wide = variant("wide", 32, 1, "2026-11-24T00:00:00Z")
    machines = runs.group_machines(runs.load_runs([one, old, two, two_on_one, wide]))
    labels = [m.label for m in machines]
    check("gpus: hosts of one GPU on 16 and 32 cores and one of two GPUs, three machines", len(machines) == 3, labels)
    check("gpus: the file without a GPU list or caches joins the 1-GPU host, the --devices 0 run the 2-GPU one",
          sorted(sorted(r.name for r in m.runs) for m in machines) == [["gpus_old.json", "gpus_one.json"],
                                                                      ["gpus_two.json", "gpus_two_on_one.json"],
                                                                      ["gpus_wide.json"]],
          [[r.name for r in m.runs] for m in machines])
    check("gpus: caches are compared among files of one processor count: no label names them",
          not any("L1d" in label for label in labels), labels)
    check("gpus: the 2-GPU machine's label counts its GPUs", any(label.endswith("2× NVIDIA H200 (32-core Intel Xeon "
          "host)") for label in labels) and any(label.endswith("· NVIDIA H200 (16-core Intel Xeon host)")
          for label in labels), labels)
    check("gpus: the 2-GPU machine's plots are named so, the others not",
          sorted(re.sub(r"^m\d+-", "", m.slug) for m in machines) == ["2x-h200", "h200", "h200"],
          [m.slug for m in machines])
    # The newest file of the 2-GPU host lists no GPUs and no processors: it joins, and the names follow the label.
    unlisted = variant("unlisted", 0, 0, "2026-11-25T00:00:00Z")
    machines_two = runs.group_machines(runs.load_runs([two, unlisted]))
    check("gpus: a file without a GPU list or processors joins its host's one count of two, label and plots alike",
          len(machines_two) == 1 and "2× NVIDIA H200 (32-core" in machines_two[0].label
          and "-2x-h200" in machines_two[0].slug, [(m.label, m.slug) for m in machines_two])
    text = make_report([two_on_one], os.path.join(tmp, "gpus_report")) or ""
    overview = section(text, "## 2. Overview", "## 2a.")
    cells = (table_line(overview, "| `gpu/cublasxt-fp32` |"), table_line(overview, "| `gpu/cublas-fp32` |"))
    check("gpus: a multi-GPU row run on one GPU of two says so in the overview, a one-GPU vendor nothing",
          cells[0].count(" on 1 GPU |") == 3 and cells[1] and " GPU" not in cells[1], cells)


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
    overview = section(text, "## 2. Overview", "## 3. Source documents")
    gold_line = next((line for line in overview.splitlines() if line.startswith("| `cpu/gold` |")), "")
    check("an estimate's GFLOP/s is marked as one", "~0.43 (0.0020×) est." in gold_line, gold_line)
    check("the overview lists the estimate with the rows it came from",
          "- `cpu/gold` at 2048: estimate from rows 0-95 of 2048" in overview, overview)
    check("a run on other values does not replace a uniform row", "999" not in overview)
    check("the overview explains the mark", "“~… est.” marks an estimate" in overview)
    plots_text = section(text, "## 4. Plots", "")
    check("the plots say how estimates are drawn",
          "Estimates (“~… est.” in the tables) are hollow markers" in plots_text, plots_text[:600])

    error_table = section(text, "#### Error sums", "### Source document 004")
    check("the error-sum table is made from the seed's values", "inputs reals in [1, 100], as document 003" in error_table,
          error_table)
    check("the error-sum table names the backends whose sums agree exactly",
          "Identical sums (to every digit the JSON holds, at every size both measured in full): " in error_table
          and "; `cpu/gold-omp`, `cpu/transposed-b`;" in error_table and "`cpu/blis`," not in error_table,
          error_table)
    check("the error-sum table explains the identical sums", "the same additions in the same order give the same "
          "bits" in error_table)
    check("the runs list names the seed values' run", "(inputs `reals-1-100`: only source document 003's error-sum table uses it)"
          in text)

    uniform_only = make_report([estimated_path], os.path.join(tmp, "estimates_uniform"))
    if uniform_only is None:
        return
    error_table = section(uniform_only, "#### Error sums", "### Source document 004")
    check("without a run on the seed's values the table says its inputs are not the seed's",
          "inputs uniform in [−1, 1], not document 003's values" in error_table, error_table)
    check("an estimate's error sum says which rows it covers", "| 0.125 (rows 0–95 only) |" in error_table,
          error_table)
    ladder = section(uniform_only, "#### CPU steps", "#### GPU steps")
    check("a seed ladder marks the estimate and the speedup that depends on it",
          "~0.43 est." in ladder and ladder.count(" est. |") >= 3, ladder)


VALID_ROW = {"backend": "cpu/gold", "device": "cpu", "m": 8, "n": 8, "k": 8, "status": "ok", "median_ms": 1.0,
             "gflops": 2.0}


def document(rows=None, context=None, **changes):
    """A small valid result file with `changes` applied to its first row (None removes a field)."""
    row = dict(VALID_ROW)
    for key, value in changes.items():
        if value is None:
            row.pop(key)
        else:
            row[key] = value
    return {"context": {"hostname": "h"} if context is None else context, "results": [row] if rows is None else rows}


def document_bytes(**changes):
    return json.dumps(document(**changes)).encode()


def many_rows(count, vary):
    """`count` ok rows that differ in `vary` ("backend", "m" or nothing)."""
    rows = []
    for number in range(count):
        row = dict(VALID_ROW, vs_vendor=0.5)
        if vary == "backend":
            row["backend"] = f"cpu/b{number}"
        elif vary == "m":
            row["m"] = row["n"] = row["k"] = 8 + number
        rows.append(row)
    return json.dumps(document(rows=rows)).encode()


# name, the file's bytes, what the one error line must say besides the file's name. Each is given beside a good
# file, so that the bad one is what stops the report.
BAD_FILES = [
    ("random bytes", bytes(range(256)) * 4, "not UTF-8"),
    ("a surrogate encoded in the bytes", b'{"context": {"hostname": "\xed\xa0\x80"}, "results": []}', "not UTF-8"),
    ("empty file", b"", "is empty"),
    ("truncated file", document_bytes()[:-10], "truncated"),
    ("truncated in a string", document_bytes()[:20], "truncated"),
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
    ("size beyond the CLI's", document_bytes(m=2**31),
     "results[0].m must be an integer from 1 to 2147483647 but is a number (2147483648)"),
    ("unknown status", document_bytes(status="great"), "results[0].status must be one of"),
    ("unknown layout", document_bytes(layout="XY"), "results[0].layout must be one of NN, NT, TN, TT"),
    ("suite not an object", json.dumps(document(context={"suite": [1]})).encode(), "context.suite must be an object"),
    ("suite problem of a bad size", json.dumps(document(context={"suite": {"name": "s", "shapes": [
        {"m": "x", "n": 8, "k": 8}]}})).encode(), "context.suite.shapes[0].m must be an integer"),
    ("suite problem of an unknown layout", json.dumps(document(context={"suite": {"name": "s", "shapes": [
        {"m": 8, "n": 8, "k": 8, "layout": "QQ"}]}})).encode(), "context.suite.shapes[0].layout must be one of"),
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
    # Issue 28: every string and number is untrusted.
    ("a lone surrogate in a backend name", document_bytes(backend="cpu/gold\ud800"),
     "results[0].backend holds a lone surrogate (\\ud800)"),
    ("a lone surrogate in the hostname", json.dumps(document(context={"hostname": "h\udfff"})).encode(),
     "context.hostname holds a lone surrogate"),
    ("vs_vendor 1e308 on an ok row", document_bytes(vs_vendor=1e308),
     "results[0].vs_vendor must be a number (0, or from 1e-09 to 1e+12) or null but is a number (1e+308)"),
    ("a ratio too small to plot", document_bytes(vs_vendor=5e-324), "results[0].vs_vendor must be a number"),
    ("GFLOP/s beyond any machine", document_bytes(gflops=1e13), "results[0].gflops must be a number"),
    ("a negative time on a failed row", document_bytes(status="failed", median_ms=-1.0), "results[0].median_ms"),
    ("a fractional sample count", document_bytes(samples=2.5),
     "results[0].samples must be a whole number from 0 to 2147483647 or null but is a number (2.5)"),
    ("a negative GPU count", document_bytes(devices=-1), "results[0].devices must be a whole number"),
    ("a negative error", document_bytes(max_abs_error=-0.5), "results[0].max_abs_error must be a number from 0 up"),
    ("a factor that is text", document_bytes(alpha="1"), "results[0].alpha must be a number or null"),
    ("an integer of 5000 digits", b'{"context": {"x": ' + b"9" * 5000 + b'}, "results": []}', "thousands of digits"),
    ("a shown context field that is an array", json.dumps(document(context={"cpu_cores": [1, 2]})).encode(),
     "context.cpu_cores must be a string, a number, true/false or null but is an array"),
    ("a shown context number beyond any machine",
     json.dumps(document(context={"gpu": {"multiprocessors": 1e300}})).encode(), "context.gpu.multiprocessors"),
    ("a GPU name that is a number", json.dumps(document(context={"gpu": {"name": 7}})).encode(),
     "context.gpu.name must be a string or null"),
    ("text where a × best vendor goes", document_bytes(vs_best_vendor="fast"),
     "results[0].vs_best_vendor must be a number"),
    ("a best vendor that is a number", document_bytes(best_vendor=3),
     "results[0].best_vendor must be a string or null"),
    ("a vendor_library flag that is text", document_bytes(vendor_library="yes"),
     "results[0].vendor_library must be true, false or null"),
    ("context.vendors not an array", json.dumps(document(context={"vendors": {"backend": "cpu/onemkl"}})).encode(),
     "context.vendors must be an array or null but is an object"),
    ("a vendor library that is not an object", json.dumps(document(context={"vendors": [3]})).encode(),
     "context.vendors[0] must be an object but is a number"),
    ("a vendor library's version that is an array", json.dumps(document(context={"vendors": [{"version": [1]}]}))
     .encode(), "context.vendors[0].version must be a string, a number, true/false or null but is an array"),
    ("more vendor libraries than a file may list", json.dumps(document(context={"vendors": [{}] * 51})).encode(),
     "context.vendors lists 51 libraries; a file may list at most 50"),
    ("peaks not an array", json.dumps(document(context={"peaks": {"device": "gpu"}})).encode(),
     "context.peaks must be an array or null but is an object"),
    ("a peak that is not an object", json.dumps(document(context={"peaks": [7]})).encode(),
     "context.peaks[0] must be an object but is a number"),
    ("a peak rate that is text", json.dumps(document(context={"peaks": [{"device": "gpu", "fp32_gflops": "fast"}]}))
     .encode(), "context.peaks[0].fp32_gflops must be a number (0, or from 1e-09 to 1e+12) or null but is a string"),
    ("a peak rate beyond any machine", json.dumps(document(context={"peaks": [{"bandwidth_gbs": 1e13}]})).encode(),
     "context.peaks[0].bandwidth_gbs must be a number"),
    ("a peak's basis that is a number", json.dumps(document(context={"peaks": [{"basis": 3}]})).encode(),
     "context.peaks[0].basis must be a string or null"),
    ("a bus width that is an array", json.dumps(document(context={"gpu": {"memory_bus_bits": [5120]}})).encode(),
     "context.gpu.memory_bus_bits must be a string, a number, true/false or null but is an array"),
    ("a quartile that is text", document_bytes(vs_vendor_q1="low"), "results[0].vs_vendor_q1 must be a number"),
    ("a pair count that is fractional", document_bytes(vs_vendor_pairs=2.5),
     "results[0].vs_vendor_pairs must be a whole"),
    ("more rows than a file may hold", many_rows(20_001, None), "holds 20001 results; a file may hold at most 20000"),
    ("2000 ok backends", many_rows(2000, "backend"), "holds 2000 backends; a report takes at most 200 per machine"),
    ("more shapes than a report takes", many_rows(201, "m"), "holds 201 shapes; a report takes at most 200"),
]


def write_file(root, name, data):
    path = os.path.join(root, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def old_report(root, name="out"):
    """A report made before, at root/name: what a refused run must leave as it was."""
    out = os.path.join(root, name)
    status, _, stderr = run_in_process([write_file(root, "old.json", document_bytes()), "--out", out])
    check("an old report to write over is made", status == 0, stderr)
    return out


@contextlib.contextmanager
def patched(owner, name, value):
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


@contextlib.contextmanager
def saving_with(function):
    """plots.save_figure replaced by `function`, every plot drawn for real so that each of its saves reaches it."""
    with drawing_for_real(), patched(plots, "save_figure", function):
        yield


@contextlib.contextmanager
def working_folder(path):
    saved = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(saved)


def fail_writing(*args):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "plot.png")


def fail_inside(*args):
    raise ValueError("a bug")


def out_cases():
    """name -> setup(root): (arguments, expected status, texts the error line must hold, context manager or None).
    Every case's files live under root, whose snapshot before and after must be equal."""
    def input_in_out(name):
        def setup(root):
            return [write_file(root, f"d/{name}", document_bytes()), "--out", os.path.join(root, "d")], \
                2, ["holds the input file", name], None
        return setup

    def out_holding(name, data=b"x", folder=False, old=False):
        def setup(root):
            out = old_report(root, "d") if old else os.path.join(root, "d")
            if folder:
                os.makedirs(os.path.join(out, name))
            else:
                write_file(out, name, data)
            return [write_file(root, "in.json", document_bytes()), "--out", out], 2, ["holds", name], None
        return setup

    def hard_link(root):
        good = write_file(root, "in.json", document_bytes())
        os.makedirs(os.path.join(root, "d"))
        os.link(good, os.path.join(root, "d", "README.md"))
        return [good, "--out", os.path.join(root, "d")], 2, ["holds the input file 'README.md' (a link to it)"], None

    def symlink_in_out(root):
        out = old_report(root, "d")
        os.symlink("/etc/passwd", os.path.join(out, "m9-elsewhere.png"))
        return [write_file(root, "in.json", document_bytes()), "--out", out], 2, ["not part of a matcompare report"], None

    def out_is_file(root):
        return [write_file(root, "in.json", document_bytes()), "--out", write_file(root, "f", b"kept")], 2, \
            ["is a file, not a folder"], None

    def out_is_cwd(target):
        def setup(root):
            os.makedirs(os.path.join(root, "here", "below"))
            return [write_file(root, "in.json", document_bytes()), "--out", target], 2, \
                ["holds the current folder"], working_folder(os.path.join(root, "here", "below"))
        return setup

    def plain(args, wanted):
        def setup(root):
            return [a.replace("ROOT", root) for a in args], 2, wanted, None
        return setup

    def one_machine_over_the_limit(root):
        # Each file within the limit, both files of one host beyond it.
        halves = [write_file(root, f"half{h}.json", json.dumps(document(rows=[
            dict(VALID_ROW, backend=f"cpu/b{h}-{n}") for n in range(checks.MAX_BACKENDS // 2 + 1)])).encode())
            for h in (0, 1)]
        return halves + ["--out", os.path.join(root, "d")], 2, ["the files of host 'h'", "hold 202 backends together"], \
            None

    def missing_input(root):
        return [os.path.join(root, "missing.json"), "--out", os.path.join(root, "d")], 2, ["cannot read"], None

    def huge_input(root):
        path = os.path.join(root, "huge.json")
        with open(path, "wb") as handle:
            handle.truncate(checks.MAX_FILE_BYTES + 1)
        return [path, "--out", os.path.join(root, "d")], 2, ["MiB"], None

    def failing_write(old):
        def setup(root):
            out = old_report(root) if old else os.path.join(root, "new", "deeper", "out")
            # Two sizes, so that a plot is drawn (and its write fails).
            two_sizes = json.dumps(document(rows=[VALID_ROW, dict(VALID_ROW, m=16, n=16, k=16)])).encode()
            return [write_file(root, "in.json", two_sizes), "--out", out], 2, \
                ["cannot write the report into --out", "No space left"], saving_with(fail_writing)
        return setup

    def internal_error(root):
        out = old_report(root)
        return [write_file(root, "in.json", document_bytes()), "--out", out], 1, \
            ["internal error in the report generator (ValueError: a bug)"], patched(seeds, "seeds_section", fail_inside)

    def no_matplotlib(root):
        @contextlib.contextmanager
        def hidden():
            package = sys.modules["matcompare_report"]
            saved = {name: sys.modules.get(name) for name in ("matplotlib", "matcompare_report.plots")}
            sys.modules["matplotlib"] = None  # the import fails as if it were not installed
            sys.modules.pop("matcompare_report.plots", None)
            delattr(package, "plots")
            try:
                yield
            finally:
                sys.modules.update(saved)
                package.plots = saved["matcompare_report.plots"]
        return [write_file(root, "in.json", document_bytes()), "--out", os.path.join(root, "d")], 2, \
            ["cannot load matplotlib"], hidden()

    return {
        "an input named README.md in --out": input_in_out("README.md"),
        "an input named like a plot in --out": input_in_out("m1-h-cpu-gflops.png"),
        "an input deeper in --out": input_in_out("runs/run.json"),
        "a hard link to an input in --out": hard_link,
        "out/README.md is a folder": out_holding("README.md", folder=True),
        "--out holds a file of its own": out_holding("notes.txt"),
        "--out holds someone else's README.md": out_holding("README.md", b"# My project\n"),
        "a report folder with a file added": out_holding("todo.txt", old=True),
        "a report folder with a link in it": symlink_in_out,
        "--out is a file": out_is_file,
        "--out is the current folder": out_is_cwd("."),
        "--out holds the current folder": out_is_cwd(".."),
        "--out is the root folder": plain(["ROOT/in.json", "--out", "/"], ["root folder"]),
        "--out is empty": plain(["ROOT/in.json", "--out", ""], ["--out is empty"]),
        "an unknown option": plain(["ROOT/in.json", "--out", "ROOT/d", "--bogus"], ["unrecognized arguments"]),
        "no input file": plain(["--out", "ROOT/d"], ["required"]),
        "no --out": plain(["ROOT/in.json"], ["required: --out"]),
        "two files of one machine over the backend limit": one_machine_over_the_limit,
        "a missing input": missing_input,
        "an input over the size limit": huge_input,
        "a write that fails, no old report": failing_write(False),
        "a write that fails over an old report": failing_write(True),
        "a fault of the generator": internal_error,
        "no matplotlib": no_matplotlib,
    }


def test_bad_inputs(tmp):
    """The table of bad input: exit 2 (1 for the generator's own fault), exactly one error line, nothing on stdout,
    and no file or folder made or changed anywhere under the case's folder."""
    cases = [(f"bad file: {name}", (lambda data: lambda root: (
        [write_file(root, "good.json", document_bytes()), write_file(root, "bad.json", data), "--out",
         os.path.join(root, "out")], 2, [os.path.join(root, "bad.json")], None))(data), wanted)
        for name, data, wanted in BAD_FILES]
    cases += [(name, setup, None) for name, setup in out_cases().items()]
    for index, (name, setup, wanted) in enumerate(cases):
        root = os.path.join(tmp, f"bad{index}")
        os.makedirs(root)
        write_file(root, "in.json", document_bytes())
        args, status, texts, context = setup(root)
        texts = list(texts) + ([wanted] if wanted else [])
        before = snapshot(root)
        with context or contextlib.nullcontext():
            result, stdout, stderr = run_in_process(args)
            out = os.path.abspath(args[args.index("--out") + 1]) if "--out" in args else os.path.join(root, "d")
        problems = contract_problems(result, stdout, stderr, root, before, out, expected=status)
        check(f"{name}: the contract holds", not problems, "; ".join(problems))
        for text in texts:
            check(f"{name}: the message says {text!r}", text in stderr, stderr)


def tables_are_whole(text):
    """Every Markdown table row has as many cells as its header: no text broke a row with | or a line break."""
    broken = []
    header_cells = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header_cells = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line))
        if header_cells is None:
            header_cells = cells
        elif cells != header_cells:
            broken.append(line[:120])
    return broken


def odd_document(path, change):
    """The CPU fixture with `change(document)` applied, written to `path`."""
    document = load(FIXTURES[0])
    change(document)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    return path


def rename_backend(old, new):
    def change(document):
        for row in document["results"]:
            if row["backend"] == old:
                row["backend"] = new
    return change


def set_context(key, value):
    return lambda document: document["context"].__setitem__(key, value)


def failed_row(key, value):
    """Sets `key` of the first failed row, whose reason the overview shows."""
    return lambda document: next(r for r in document["results"] if r["status"] == "failed").__setitem__(key, value)


def many_backends(count):
    def change(document):
        row = next(r for r in document["results"] if r["status"] == "ok" and r["m"] == r["n"] == r["k"] == 2048)
        document["results"] += [dict(row, backend=f"cpu/extra-{n}", vs_vendor=0.5 + n / 1000) for n in range(count)]
    return change


def no_seed_fields(document):
    for row in document["results"]:
        row["seed"] = None


# name, change to the CPU fixture, texts the report must hold, texts it must not hold. Each must make a complete
# report (exit 0, at most one warning line) within ODD_SECONDS.
ODD_SECONDS = 20.0
ODD_FILES = [
    ("a 100,000-character backend name", rename_backend("cpu/gold", "cpu/" + "g" * 100_000),
     ["`results[0].backend`: 100004 characters, cut to 100", "`cpu/ggg"], []),
    ("a 1 MB hostname", set_context("hostname", "h" * 2**20), ["`context.hostname`: 1048576 characters, cut to 100"],
     []),
    ("a 10 MB backend name", rename_backend("cpu/tiling", "cpu/" + "t" * 10 * 2**20), ["cut to 100"], []),
    ("control characters in a reason", failed_row("reason", "line one\nline two\x1b[31m\tred"),
     ["line one\\nline two\\u001b[31m\\tred", "control or bidirectional characters, shown escaped"], ["\x1b"]),
    ("a right-to-left override in the hostname", set_context("hostname", "vm\u202egnp.exe"),
     ["vm\\u202egnp.exe"], ["\u202e"]),
    ("glyphs no font here has", rename_backend("cpu/gold", "cpu/🚀 漢字 عربى"), ["`cpu/🚀 漢字 عربى`"], []),
    ("pipes and backticks in names", rename_backend("cpu/tiling", "cpu/a|b`c"), ["``cpu/a\\|b`c``"], []),
    ("dollars in names", rename_backend("cpu/blis", "cpu/$\\bogus$ $x^$"), ["`cpu/$\\bogus$ $x^$`"], []),
    ("brackets in the CPU model", set_context("cpu_model", "a]b[c"), ["![M1 · 16-core a\\]b\\[c"], []),
    ("150 backends at one size", many_backends(150),
     ["vs-vendor-2048-2.png", "Not plotted in × vendor at 2048 (more than 2 plots' worth): "], []),
    ("no seed fields", no_seed_fields, [], []),
]


def test_odd_but_valid(tmp):
    """Texts are escaped or cut with a note, never written raw; big inputs finish within seconds; plots split."""
    for index, (name, change, wanted, unwanted) in enumerate(ODD_FILES):
        root = os.path.join(tmp, f"odd{index}")
        os.makedirs(root)
        path = odd_document(os.path.join(root, "odd.json"), change)
        out = os.path.join(root, "out")
        before = snapshot(root)
        began = time.monotonic()
        status, stdout, stderr = run_in_process([path, "--out", out])
        took = time.monotonic() - began
        problems = contract_problems(status, stdout, stderr, root, before, out, expected=0)
        check(f"{name}: a complete report", not problems, "; ".join(problems))
        check(f"{name}: made within {ODD_SECONDS:.0f} s", took < ODD_SECONDS, f"{took:.1f} s")
        if status != 0:
            continue
        with open(os.path.join(out, "README.md"), encoding="utf-8") as handle:
            text = handle.read()
        check(f"{name}: every table row is whole", tables_are_whole(text) == [], tables_are_whole(text)[:3])
        flat = markdown.unwrap(text)
        for item in wanted:
            check(f"{name}: the report says {item[:60]!r}", item in flat)
        for item in unwanted:
            check(f"{name}: the report has no raw {item!r}", item not in text)
        check(f"{name}: no control character in the report",
              not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text))
        warnings = stderr.splitlines()
        check(f"{name}: at most one warning line", len(warnings) <= 1, stderr)
    # A file name is the user's, but shown escaped too.
    root = os.path.join(tmp, "odd_name")
    os.makedirs(root)
    path = odd_document(os.path.join(root, "a|b\nc\u202e.json"), lambda document: None)
    before = snapshot(root)
    status, stdout, stderr = run_in_process([path, "--out", os.path.join(root, "out")])
    problems = contract_problems(status, stdout, stderr, root, before, os.path.join(root, "out"), expected=0)
    check("an odd file name: a complete report", not problems, "; ".join(problems))
    if status == 0:
        with open(os.path.join(root, "out", "README.md"), encoding="utf-8") as handle:
            text = handle.read()
        check("an odd file name: shown escaped", "`a|b\\nc\\u202e.json`" in text and "\u202e" not in text)
    # The seed-field warning is one line however many steps it concerns.
    root = os.path.join(tmp, "seedwarn")
    os.makedirs(root)
    status, _, stderr = run_in_process([odd_document(os.path.join(root, "x.json"), no_seed_fields), "--out",
                                        os.path.join(root, "out")])
    check("seed fields: one warning line that counts the steps", status == 0 and len(stderr.splitlines()) == 1
          and re.match(r"matcompare: warning: \d+ seed-table step\(s\) name a backend", stderr), stderr)


def test_output_folder(tmp):
    """--out is replaced whole by a complete report: stale plots go, the folder keeps its mode, nothing is left
    beside it; and whatever step the replacement stops at, abandon() leaves the old report or none."""
    root = os.path.join(tmp, "replace")
    os.makedirs(root)
    out = os.path.join(root, "out")
    status, _, stderr = run_in_process([FIXTURES[1], "--out", out])
    check("replace: the first report", status == 0, stderr)
    os.chmod(out, 0o750)
    before = snapshot(root)
    status, stdout, stderr = run_in_process([FIXTURES[0], "--out", out])
    check("replace: the second report", not contract_problems(status, stdout, stderr, root, before, out, 0))
    check("replace: the old report's plots are gone", not any("gpu-node" in name for name in os.listdir(out)),
          os.listdir(out))
    check("replace: the folder keeps its mode", os.stat(out).st_mode & 0o777 == 0o750, oct(os.stat(out).st_mode))
    check("replace: nothing beside it", sorted(os.listdir(root)) == ["out"], os.listdir(root))

    umask = os.umask(0o022)
    try:
        status, _, _ = run_in_process([FIXTURES[0], "--out", os.path.join(root, "fresh")])
    finally:
        os.umask(umask)
    check("a new folder has the umask's mode", os.stat(os.path.join(root, "fresh")).st_mode & 0o777 == 0o755)

    class Stop(Exception):
        pass

    # Stop after the n-th step on the file system (the step done), as a signal between two steps would.
    for old in (True, False):
        for stop_at in range(1, 6):
            case = os.path.join(tmp, f"steps_{old}_{stop_at}")
            target = os.path.join(case, "new", "out")
            os.makedirs(case)
            if old:
                write_file(target, "README.md", b"# matcompare report\nold\n")
                write_file(target, "m1-old.png", b"old")
            before = snapshot(case)
            folder = output.OutputFolder(target, [])
            steps = []

            def counted(function):
                def step(*args, **kwargs):
                    result = function(*args, **kwargs)
                    steps.append(function.__name__)
                    if len(steps) == stop_at:
                        raise Stop()
                    return result
                return step
            complete = None
            with patched(output.os, "rename", counted(os.rename)), patched(output.os, "mkdir", counted(os.mkdir)), \
                    patched(output.shutil, "rmtree", counted(output.shutil.rmtree)):
                try:
                    temp = folder.create()
                    with open(os.path.join(temp, "README.md"), "wb") as handle:
                        handle.write(b"# matcompare report\nnew\n")
                    folder.commit()
                    complete = True
                except Stop:
                    complete = folder.abandon()
            interrupt._cleanups.clear()
            after = snapshot(case)
            readme = b""
            if os.path.exists(os.path.join(target, "README.md")):
                with open(os.path.join(target, "README.md"), "rb") as handle:
                    readme = handle.read()
            name = f"commit {'over an old report' if old else 'into a new folder'}, stopped after step {stop_at} " \
                   f"({', '.join(steps)})"
            if complete:
                check(f"{name}: the new report, whole, and nothing else", readme.endswith(b"new\n")
                      and sorted(os.listdir(target)) == ["README.md"] and os.listdir(os.path.dirname(target))
                      == ["out"], snapshot(case))
            else:
                check(f"{name}: the old report as it was, or none", after == before, differences(before, after))


SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE)


def spawn(files, out, blocked=False):
    """make_report.py as `matcompare report` starts it: its own process. `blocked`: the signals held across exec,
    as a launcher does so that none comes before the script can answer it."""
    hold = (lambda: signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)) if blocked else None
    return subprocess.Popen([sys.executable, SCRIPT, *files, "--out", out], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=hold)


def wait_for_handlers(process, timeout=10.0):
    """Returns once the process catches every signal of SIGNALS (Linux: SigCgt in /proc), or has ended."""
    wanted = sum(1 << (number - 1) for number in SIGNALS)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as handle:
                caught = int(re.search(r"^SigCgt:\s*([0-9a-f]+)", handle.read(), re.M).group(1), 16)
        except (OSError, AttributeError):
            return
        if caught & wanted == wanted:
            return
        time.sleep(0.0005)


def signal_case(tmp, name, number, when, old):
    """Sends `number` at `when` ("early": 0.01 s after the start, the signals held across exec; "installed": as soon
    as the handlers are in place; a number: that many seconds into the run) and checks the contract."""
    root = os.path.join(tmp, name.replace(" ", "_"))
    os.makedirs(root)
    out = os.path.join(root, "out")
    if old:
        run_in_process([FIXTURES[1], "--out", out])
    before = snapshot(root)
    process = spawn(FIXTURES[:1], out, blocked=when == "early")
    if when == "early":
        time.sleep(0.01)
    elif when == "installed":
        wait_for_handlers(process)
    else:
        time.sleep(when)
    process.send_signal(number)
    stdout, stderr = process.communicate()
    stderr = stderr.decode("utf-8", "replace")
    if process.returncode == 0:
        return "finished"
    expected = interrupt.message(number, False).strip()
    check(f"{name}: ended by the signal", process.returncode == -number, f"{process.returncode}: {stderr!r}")
    check(f"{name}: exactly the one line {expected!r}", stderr == expected + "\n", repr(stderr))
    check(f"{name}: nothing on stdout", stdout == b"", stdout)
    after = snapshot(root)
    check(f"{name}: the old report {'as it was' if old else 'absent'}, nothing beside it", after == before,
          differences(before, after))
    return "ended"


def test_handlers_first(_tmp):
    """make_report.py installs its signal handlers before anything else it runs: its first statement after the
    docstring is the block that does, and that block imports nothing but the small interrupt module."""
    with open(SCRIPT, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    first = tree.body[1] if isinstance(tree.body[0], ast.Expr) else tree.body[0]
    source = ast.unparse(first)
    check("make_report.py: the signal handlers come first", isinstance(first, ast.If) and "interrupt.install()" in source
          and all(name.name == "interrupt" for node in ast.walk(first) if isinstance(node, ast.ImportFrom)
                  for name in node.names), source)


def test_signals(tmp):
    """INT, TERM, HUP, QUIT and PIPE at any moment: one line, status 128 + the signal, the old report or none."""
    began = time.monotonic()
    with drawing_for_real():  # as long as the process of its own takes, which draws every plot
        status, _, stderr = run_in_process(FIXTURES[:1] + ["--out", os.path.join(tmp, "timed")])
    full = time.monotonic() - began + 0.3  # in this process matplotlib is loaded already: a new one loads it too
    check("signals: a reference run", status == 0, stderr)
    for index, number in enumerate(SIGNALS):
        name = signal.Signals(number).name
        old = index % 2 == 0
        outcome = signal_case(tmp, f"{name} at 0.01 s", number, "early", old)
        # CPython ignores SIGPIPE while it starts, which drops one that comes before the script runs: the run then
        # completes (interrupt.py's module text). Every other signal, and SIGPIPE once the script runs, must count.
        check(f"{name} at 0.01 s: the run was stopped", outcome == "ended" or number == signal.SIGPIPE, outcome)
        check(f"{name} as the handlers are installed: the run was stopped",
              signal_case(tmp, f"{name} at install", number, "installed", not old) == "ended")
        for attempt, fraction in enumerate((0.5, 0.25, 0.1)):
            outcome = signal_case(tmp, f"{name} mid-run {attempt}", number, full * fraction, old)
            if outcome == "ended":
                break
        check(f"{name} mid-run: the run was stopped", outcome == "ended", outcome)


COMMIT_SNIPPET = """
import os, signal, sys
sys.path.insert(0, {report_dir!r})
from matcompare_report import interrupt
interrupt.install()
import make_report
from matcompare_report import output
owner = output.os if {function!r} != "rmtree" else output.shutil
real = getattr(owner, {function!r})
calls = []
def hooked(*args, **kwargs):
    result = real(*args, **kwargs)
    calls.append(1)
    if len(calls) == {at}:
        os.kill(os.getpid(), signal.SIGTERM)
    return result
setattr(owner, {function!r}, hooked)
make_report.main({args!r})
"""


def test_signal_while_committing(tmp):
    """SIGTERM sent (and held) during the steps that put the report in place: before the old report is removed the
    run is undone (the old report back, "no report written"); once its removal began, the new report stays
    ("the report was written"). Either way the process ends by SIGTERM with one line."""
    cases = [("during the first mkdir, into a new folder", "mkdir", 1, False, False),
             ("as the old report moves aside", "rename", 1, True, False),
             ("as the new report moves in", "rename", 2, True, False),
             ("as the new report moves in, no old one", "rename", 1, False, False),
             ("while the old report is removed", "rmtree", 1, True, True)]
    for name, function, at, old, written in cases:
        root = os.path.join(tmp, "commit_" + name.replace(" ", "_").replace(",", ""))
        os.makedirs(root)
        out = os.path.join(root, "new", "out")
        if old:
            run_in_process([FIXTURES[1], "--out", out])
        before = snapshot(root)
        code = COMMIT_SNIPPET.format(report_dir=REPORT_DIR, function=function, at=at,
                                     args=[FIXTURES[0], "--out", out])
        completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        expected = interrupt.message(signal.SIGTERM, written)
        check(f"SIGTERM {name}: ended by it, with one line", completed.returncode == -signal.SIGTERM
              and completed.stderr == expected, f"{completed.returncode}: {completed.stderr!r}")
        after = snapshot(root)
        if written:
            check(f"SIGTERM {name}: the new report, complete", report_problems(out) == []
                  and sorted(os.listdir(os.path.dirname(out))) == ["out"], os.listdir(os.path.dirname(out)))
        else:
            check(f"SIGTERM {name}: the old report as it was, or none", after == before, differences(before, after))


def test_fuzz(tmp):
    """The seeded fuzzer (fuzz_report.py): every mutation keeps the contract."""
    checked, failures = fuzz_report.fuzz()
    check("fuzz: mutations were checked", checked >= 300, checked)
    for failure in failures[:20]:
        check(failure, False)
    check("fuzz: every mutation keeps the contract", not failures, f"{len(failures)} failed")


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
    part = section(text, "## 2c. Past one GPU: scaling", "## 3. Source documents")
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
    overview = section(text, "## 2. Overview", "## 2a.")
    cells = (table_line(overview, "| `gpu/cublasxt-fp32` |"), table_line(overview, "| `gpu/cublas-fp32` |"))
    check("scaling: the overview's cells of the newer 2-GPU run say so, those on one GPU nothing",
          cells[0].count(" on 2 GPUs") == 3 and cells[1] and " GPU" not in cells[1], cells)
    # The same runs with the one-GPU run the newer (as bench/multi_gpu_session.sh makes them): the overview keeps the
    # rows on two GPUs, the scaling section both counts.
    swapped = []
    for devices, speedups, stamp in ((1, (0.5, 0.7), "2025-01-03T00:00:00Z"), (2, (0.9, 1.6), "2025-01-02T00:00:00Z")):
        swapped.append(os.path.join(tmp, f"scaling_swapped_{devices}.json"))
        with open(swapped[-1], "w") as handle:
            json.dump(scaling_document(devices, speedups, stamp), handle)
    text_swapped = make_report(swapped, os.path.join(tmp, "scaling_swapped_report")) or ""
    row = table_line(section(text_swapped, "## 2. Overview", "## 2a."), "| `gpu/cublasxt-fp32` |")
    check("scaling: a newer run on one GPU does not replace the overview's rows on two", row.count(" on 2 GPUs") == 3,
          row)
    check("scaling: ... and the scaling section keeps both", "| `gpu/cublasxt-fp32` | 1 | 4096 |" in text_swapped
          and "| `gpu/cublasxt-fp32` | 2 | 4096 |" in text_swapped)
    check("scaling: a plot is written and linked", "-scaling.png" in text
          and any(name.endswith("-scaling.png") for name in os.listdir(out_dir)))
    plain = os.path.join(tmp, "no_scaling_report")
    check("scaling: no section for files without multi-GPU rows",
          "2c. Past one GPU" not in (make_report(FIXTURES, plain) or ""))


# An estimate's figure that no measured row of plots_document comes near.
EXTREME = 987654.0


def plots_document():
    """A run with measured rows around estimated ones whose figures are far beyond any measurement: cpu/gold is
    measured at 1024 and estimated at 2048 and 4096, cpu/naive only estimated (at 1024 and 2048), cuBLASXt on two GPUs
    estimated at 2048;
    cpu/tiling has the quartiles of its pairs; gpu/cublasxt-fp32 the quartiles of one pair, which have no spread."""
    context = {"hostname": "plots", "cpu_model": "x", "timestamp_utc": "2025-02-01T00:00:00Z",
               "gpu": {"name": "NVIDIA H200"}}
    rows = []
    for size in (1024, 2048, 4096):
        base = {"m": size, "n": size, "k": size, "status": "ok", "passed": True, "median_ms": 1.0}
        scale = size // 1024
        rows.append(dict(base, backend="cpu/openblas", device="cpu", vendor=True, gflops=100.0 * scale,
                         vs_vendor=1.0))
        rows.append(dict(base, backend="cpu/tiling", device="cpu", gflops=50.0 * scale, vs_vendor=0.5,
                         vs_vendor_q1=0.45, vs_vendor_q3=0.55, vs_vendor_pairs=9))
        rows.append(dict(base, backend="cpu/gold", device="cpu", gflops=2.0 * scale, vs_vendor=0.02))
        if size > 1024:
            rows[-1].update(status="estimated", gflops=EXTREME, vs_vendor=EXTREME, estimate_rows=96)
        rows.append(dict(base, backend="cpu/naive", device="cpu", gflops=EXTREME, vs_vendor=EXTREME))
        if size < 4096:
            rows[-1].update(status="estimated", estimate_rows=64)
        else:
            rows[-1].update(status="failed", gflops=None, vs_vendor=None, passed=False)
        rows.append(dict(base, backend="gpu/cublas-fp32", device="gpu", vendor=True, devices=1, gflops=1000.0 * scale,
                         vs_vendor=1.0, speedup_basis="end-to-end"))
        rows.append(dict(base, backend="gpu/cublasxt-fp32", device="gpu", devices=2, gflops=800.0 * scale,
                         vs_vendor=0.8, vs_vendor_q1=0.8, vs_vendor_q3=0.8, vs_vendor_pairs=1, speedup=1.5 * scale,
                         efficiency=0.75 * scale, speedup_basis="end-to-end"))
        if size == 2048:
            rows[-1].update(status="estimated", estimate_rows=128, gflops=EXTREME, vs_vendor=EXTREME,
                            speedup=EXTREME, efficiency=EXTREME)
    return {"context": context, "results": rows}


WHITE = (1.0, 1.0, 1.0, 1.0)


def plotted(tmp, document, name):
    """What the report's plots draw for `document`: per plot file, its lines ({label: (xs, ys)}, the ideal, peak and
    vendor guides included), the lines' marker faces, colours and markers ({label: …}), the bars ({label: width}), the
    bars' hatches and colours ({label: hatch or None}, {label: RGBA}) and the error bars' spans ({y: (low, high)}),
    read from the figures before they are saved; once saved, per axes, the lines' markers where drawn (in pixels) and
    the bar panels' labels, ranges and heights. `document` may be a list of documents (one file each)."""
    paths = []
    for number, one in enumerate(document if isinstance(document, list) else [document]):
        paths.append(os.path.join(tmp, f"{name}-{number}.json"))
        with open(paths[-1], "w", encoding="utf-8") as handle:
            json.dump(one, handle)
    out_dir = os.path.join(tmp, name)
    os.makedirs(out_dir)
    drawn = {}
    real_save = plots.save_figure

    def record(figure, directory, file_name):
        axes = figure.axes[0]
        lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in axes.get_lines()}
        faces = {line.get_label(): matplotlib.colors.to_rgba(line.get_markerfacecolor()) for line in axes.get_lines()}
        styles = {line.get_label(): (matplotlib.colors.to_hex(line.get_color()), line.get_marker())
                  for line in axes.get_lines()}
        sizes = {line.get_label(): (line.get_markersize(), line.get_linewidth()) for line in axes.get_lines()}
        labels = [tick.get_text() for tick in axes.get_yticklabels()]
        bars = {label: patch.get_width() for label, patch in zip(labels, axes.patches)}
        hatches = {label: patch.get_hatch() for label, patch in zip(labels, axes.patches)}
        colors = {label: patch.get_facecolor() for label, patch in zip(labels, axes.patches)}
        spans = {}
        for collection in axes.collections:
            for segment in getattr(collection, "get_segments", lambda: [])():
                (x0, y0), (x1, _) = segment[0], segment[-1]
                spans[round(float(y0), 6)] = (float(min(x0, x1)), float(max(x0, x1)))
        legend = axes.get_legend()
        drawn[file_name] = {"lines": lines, "faces": faces, "styles": styles, "bars": bars, "hatches": hatches,
                            "colors": colors, "spans": spans, "ylabels": labels,
                            "legend": [t.get_text() for t in legend.get_texts()] if legend else [],
                            "limits": (axes.get_xlim(), axes.get_ylim()), "titles": [a.get_title() for a in figure.axes],
                            "sizes": sizes, "texts": [text.get_text() for text in axes.texts],
                            "value_labels": [(text.get_text(), tuple(map(float, text.xy)),
                                              tuple(map(float, text.xyann)), text.anncoords)
                                             for text in axes.texts if hasattr(text, "xyann")]}
        saved = real_save(figure, directory, file_name)
        # The tick labels as saved (the save may choose them): per axes, per log axis, the labels within its view.
        drawn[file_name]["log_labels"] = [
            (index, which, [label.get_text() for loc, label in
                            zip(list(axis.get_majorticklocs()) + list(axis.get_minorticklocs()),
                                axis.get_majorticklabels() + axis.get_minorticklabels())
                            if label.get_text() and min(axis.get_view_interval()) <= loc <= max(axis.get_view_interval())])
            for index, one in enumerate(figure.axes) for which, axis in (("x", one.xaxis), ("y", one.yaxis))
            if axis.get_scale() == "log"]
        drawn[file_name]["xticks"] = [list(one.get_xticks()) for one in figure.axes]
        drawn[file_name]["xlabels"] = [[label.get_text() for label in one.get_xticklabels()] for one in figure.axes]
        drawn[file_name]["inches"] = tuple(figure.get_size_inches())
        drawn[file_name]["markers"] = [drawn_markers(figure, one) for one in figure.axes]
        drawn[file_name]["dpi"] = figure.dpi
        drawn[file_name]["xlabel_extents"] = [[(label.get_text(), label.get_window_extent().x0,
                                                label.get_window_extent().x1)
                                               for label in one.get_xticklabels() if label.get_text()]
                                              for one in figure.axes]
        drawn[file_name]["panels"] = [{"ylabels": [tick.get_text() for tick in one.get_yticklabels()],
                                       "xlim": tuple(one.get_xlim()), "bars": len(one.patches),
                                       "height": one.get_position().height * figure.get_figheight()}
                                      for one in figure.axes]
        return saved

    with saving_with(record):
        plots.plots_section(runs.group_machines(runs.load_runs(paths)), out_dir)
    return drawn


def drawn_markers(figure, axes):
    """[(series, [(x, y) in pixels], marker size in pixels, alpha, filled)]: where the lines of `axes` put their
    markers as drawn (each through its own transform, so a series set aside shows where it is seen); a series' hollow
    estimates are named as the series."""
    found = []
    for line in axes.get_lines():
        if line.get_marker() in (None, "None", "", " "):
            continue
        points = [(x, y) for x, y in zip(line.get_xdata(), line.get_ydata()) if not (math.isnan(x) or math.isnan(y))]
        pixels = [tuple(map(float, p)) for p in line.get_transform().transform(points)] if points else []
        found.append((line.get_label().replace("_estimated ", ""), pixels, line.get_markersize() * figure.dpi / 72,
                      line.get_alpha(), MarkerStyle(line.get_marker()).is_filled()))
    return found


def covered_markers(markers):
    """[(series, series)]: pairs of series one of whose markers has its centre inside a marker of the other."""
    found = set()
    for index, (label, points, size, _, _) in enumerate(markers):
        for other, other_points, other_size, _, _ in markers[index + 1:]:
            reach = max(size, other_size) / 2
            if other != label and any(math.dist(p, q) < reach for p in points for q in other_points):
                found.add((label, other))
    return sorted(found)


def series_of(figure):
    """The labelled data series of a line plot: neither the peaks, the guides nor the hidden helpers."""
    return {label: style for label, style in figure["styles"].items()
            if not label.startswith("_") and "peak" not in label and not label.startswith(("ideal", "1×"))}


def with_gaps(line):
    """(xs, ys) of a drawn line with its breaks (NaN) as None, so that lists compare equal."""
    return tuple([None if math.isnan(v) else v for v in values] for values in line) if line else line


def segments_across_gaps(figure):
    """[(label, x0, x1)]: the segments of a line plot's series (the dotted joins included) that run straight across
    an x where the plot has points but the series none."""
    lines = {label: xs for label, (xs, _) in figure["lines"].items()
             if "peak" not in label and not label.startswith("guide")}
    plot_xs = {x for xs in lines.values() for x in xs if not math.isnan(x)}
    found = []
    for label, xs in lines.items():
        for x0, x1 in zip(xs, xs[1:]):
            if not (math.isnan(x0) or math.isnan(x1)) and any(x0 < x < x1 for x in plot_xs):
                found.append((label, x0, x1))
    return found


def warm(color):
    """Orange, red, pink, yellow: the colours the legend calls warm (a gray is neither)."""
    import colorsys
    hue_turns, saturation, _ = colorsys.rgb_to_hsv(*matplotlib.colors.to_rgb(color))
    return saturation >= 0.3 and not 70 < hue_turns * 360 < 290


def test_plots_gaps_and_colours(tmp):
    """Issue 32's plot review: a series that lacks a size of its plot is broken there, not joined straight across it;
    an FP32 row on the tensor cores (3xTF32) says so in its label; the colours keep the key "warm colours TF32, cool
    FP32", and no series shares the TF32 peak line's red."""
    context = {"hostname": "gaps", "cpu_model": "x", "gpu": {"name": "NVIDIA H200"}}
    rows = []
    for size in (1024, 2048, 4096):
        base = {"m": size, "n": size, "k": size, "status": "ok", "passed": True, "median_ms": 1.0, "precision": "fp32"}
        rows.append(dict(base, backend="cpu/openblas", device="cpu", vendor=True, gflops=100.0))
        rows.append(dict(base, backend="gpu/cublas-fp32", device="gpu", vendor=True, gflops=1000.0))
        if size != 2048:
            rows.append(dict(base, backend="cpu/tiling", device="cpu", gflops=50.0))
            rows.append(dict(base, backend="gpu/tensor-core-3xtf32", device="gpu", gflops=2000.0,
                             seed="beyond the seeds", idea="FP32 accuracy on TF32 tensor cores: three passes"))
    drawn = plotted(tmp, {"context": context, "results": rows}, "gaps")
    cpu = drawn.get("m1-h200-cpu-gflops-seed003.png", {"lines": {}})
    check("gaps: a series without the plot's middle size is broken there",
          with_gaps(cpu["lines"].get("cpu/tiling")) == ([1024, None, 4096], [50.0, None, 50.0]), cpu["lines"])
    gpu = drawn.get("m1-h200-gpu-gflops-fast.png", {"legend": []})
    check("gaps: the 3xTF32 row, FP32 on the tensor cores, says so",
          "gpu/tensor-core-3xtf32 (tensor cores)" in gpu["legend"], gpu["legend"])
    drawn.update(plotted(tmp, plots_document(), "gaps_estimates"))
    drawn.update(plotted(tmp, [load(path) for path in FIXTURES], "gaps_fixtures"))
    for name, figure in sorted(drawn.items()):
        if "-gflops-" in name:
            check(f"gaps: {name} joins no series across a size it lacks", not segments_across_gaps(figure),
                  segments_across_gaps(figure))
    peaks_drawn = [color for color, _ in plots.PEAK_STYLES.values()]
    for palette, name, is_warm in ((plots.FP32_COLORS, "FP32", False), (plots.TF32_COLORS, "TF32", True)):
        check(f"colours: every {name} colour is {'warm' if is_warm else 'cool'}",
              all(warm(color) == is_warm for color in palette), [c for c in palette if warm(c) != is_warm])
        near = [(color, peak) for color in palette for peak in peaks_drawn
                if math.dist(matplotlib.colors.to_rgb(color), matplotlib.colors.to_rgb(peak)) < 0.3]
        check(f"colours: no {name} colour passes for a peak line's", not near, near)
    for name, figure in sorted(drawn.items()):
        if "-gflops-" in name:
            # A TF32 row's label names TF32; an FP32 row on the tensor cores says "(tensor cores)" beside its name.
            wrong = {label: color for label, (color, _) in series_of(figure).items() if color != "#000000"
                     and warm(color) != ("tf32" in label.lower() and "(tensor cores)" not in label)}
            check(f"colours: {name} draws TF32 rows warm and FP32 rows cool", not wrong, wrong)


def test_plots_readable_axes(tmp):
    """Issue 32's plot review: every log axis of every plot has at least two labelled values within its view, the
    narrow ones too (a line plot over a factor of two, an accuracy plot whose errors lie within one power of ten, the
    committed runs); the accuracy plot's points keep off its frame."""
    fp32 = dict(VALID_ROW, precision="fp32", m=64, n=64, k=64)
    narrow = {"context": {"hostname": "narrow"},
              "results": [dict(fp32, backend="cpu/openblas", vendor=True, gflops=400.0, rel_error=3e-7),
                          dict(fp32, backend="cpu/tiling", gflops=40.0, rel_error=9e-7),
                          dict(fp32, backend="cpu/tiling", m=128, n=128, k=128, gflops=50.0, rel_error=9e-7),
                          dict(fp32, backend="cpu/openblas", vendor=True, m=128, n=128, k=128, gflops=90.0,
                               rel_error=3e-7)]}
    drawn = plotted(tmp, narrow, "narrow_axes")
    drawn.update(plotted(tmp, [load(path) for path in COMMITTED], "committed_axes"))
    check("axes: the narrow and committed runs give line, bar, roofline and accuracy plots",
          all(any(kind in name for name in drawn) for kind in ("-gflops-", "-vs-", "-roofline", "-accuracy-speed")),
          sorted(drawn))
    for name, figure in sorted(drawn.items()):
        sparse = [(index, which, labels) for index, which, labels in figure["log_labels"] if len(labels) < 2]
        check(f"axes: every log axis of {name} has two labelled values or more", figure["log_labels"] and not sparse,
              sparse)
    for name, figure in sorted(drawn.items()):
        if "accuracy-speed" not in name:
            continue
        (_, _), (bottom, top) = figure["limits"]
        errors = [y for label, (_, ys) in figure["lines"].items() if not label.startswith("Pareto") for y in ys]
        span = math.log(top / bottom)
        check(f"axes: {name} keeps its points off the top and bottom frame (5% of the axis at least)",
              errors and math.log(top / max(errors)) >= 0.05 * span and math.log(min(errors) / bottom) >= 0.05 * span,
              (bottom, top, min(errors or [0]), max(errors or [0])))


def test_plots_coinciding_series(tmp):
    """Issue 32's plot review: rows of identical figures are one series whose legend entry names them all; rows that
    lie on one another are drawn nested (the first drawn wider), not hidden; the parts of a split plot say which part
    and which rows."""
    rows = tuple(SWEEP_ROWS) + (("gpu/twin", "gpu", "fp32", False, False, 37000.0),)
    twins = error_sweep_document("uniform", "2026-02-01T00:00:00Z", rows=rows)
    simt = {row["k"]: row for row in twins["results"] if row["backend"] == "gpu/simt-tuned"}
    for row in twins["results"]:
        if row["backend"] == "gpu/twin":
            row.update({key: simt[row["k"]].get(key) for key in ("rel_error", "status", "estimate_rows")})
    figure = plotted(tmp, twins, "twins").get("m1-error-vs-k-uniform.png", {"legend": [], "lines": {}})
    check("coinciding: rows of identical errors are one series named for both",
          "gpu/simt-tuned = gpu/twin" in figure["legend"] and "gpu/twin" not in figure["lines"], figure["legend"])
    for row in twins["results"]:
        if row["backend"] == "gpu/twin" and row["status"] == "estimated":
            row["rel_error"] *= 1.02
    figure = plotted(tmp, twins, "near_twins").get("m1-error-vs-k-uniform.png", {"legend": []})
    check("coinciding: rows of the same measured errors whose estimates differ by 2% are one series, \"≈\"",
          "gpu/simt-tuned ≈ gpu/twin" in figure["legend"], figure["legend"])
    context = {"hostname": "loops", "cpu_model": "x"}
    near = []
    for size in (1024, 2048, 4096):
        base = dict(VALID_ROW, m=size, n=size, k=size, precision="fp32")
        near += [dict(base, backend="cpu/openblas", vendor=True, gflops=100.0),
                 dict(base, backend="cpu/loop-ijk", gflops=1.0), dict(base, backend="cpu/loop-jik", gflops=1.05),
                 dict(base, backend="cpu/loop-jki", gflops=1.1), dict(base, backend="cpu/loop-kji", gflops=1.12),
                 dict(base, backend="cpu/loop-ikj", gflops=10.0)]
    loops = plotted(tmp, {"context": context, "results": near}, "near").get(
        "m1-x-cpu-gflops-seed004-loops.png", {"sizes": {}, "lines": {}, "markers": [[]]})
    # Issue 32's second review: four rows within 15% (M4's smem-float4, smem-transposed-a, smem-outer-product and
    # double-buffered) were nested, each wider than the next, into one thick blot.
    close = ("cpu/loop-ijk", "cpu/loop-jik", "cpu/loop-jki", "cpu/loop-kji")
    check("coinciding: of four rows within 15%, no marker lies on another's: they stand side by side at each size",
          len(loops["markers"][0]) == 6 and not covered_markers(loops["markers"][0]),
          covered_markers(loops["markers"][0]))
    check("coinciding: no row is drawn wider than the others, and each keeps its sizes as its data",
          all(loops["sizes"].get(label) == (6, 1.5) and loops["lines"].get(label, ([],))[0] == [1024, 2048, 4096]
              for label in close + ("cpu/loop-ikj",)), loops["sizes"])
    many = tuple(SWEEP_ROWS) + tuple((f"gpu/extra-{n:02d}", "gpu", "fp32", False, False, 1000.0 - n)
                                     for n in range(16))
    drawn = plotted(tmp, [error_sweep_document("uniform", "2026-02-01T00:00:00Z", rows=many)], "parts_titles")
    titles = [drawn.get(name, {"titles": [""]})["titles"][0]
              for name in ("m1-error-vs-k-uniform.png", "m1-error-vs-k-uniform-2.png")]
    check("coinciding: each part's title says which part and which rows",
          "part 1 of 2: gpu/cublas-tf32 to " in titles[0] and "part 2 of 2: " in titles[1]
          and titles[0] != titles[1], titles)


def test_plots_suite(tmp):
    """Issue 32's plot review: a suite's plot names the rows it compares (this project's fastest and the best vendor
    of each problem), labels each problem with its shape at a whole tick, and wraps a long suite into panels of a
    page's width, not one strip."""
    def suite_document(count):
        shapes = [(8 + 8 * number, 8, 8) for number in range(count)]
        rows = []
        for m, n, k in shapes:
            base = dict(VALID_ROW, m=m, n=n, k=k, precision="fp32", best_vendor="cpu/openblas")
            rows += [dict(base, backend="cpu/blis", vs_best_vendor=0.7 if m % 16 else 1.1),
                     dict(base, backend="cpu/openblas", vs_best_vendor=1.0, vendor=True, vendor_library=True)]
        suite = {"name": "many", "shapes": [{"m": m, "n": n, "k": k, "name": f"p{m}"} for m, n, k in shapes]}
        return {"context": {"hostname": "suite", "suite": suite}, "results": rows}
    small = plotted(tmp, suite_document(5), "suite_small").get("m1-suite-many.png", {})
    check("suite plot: the legend names this project's fastest row and the best vendor",
          any("blis" in text and "openblas" in text for text in small.get("legend", [])), small.get("legend"))
    check("suite plot: a whole tick per problem, labelled with its shape",
          small.get("xticks", [[]])[0] == [0, 1, 2, 3, 4]
          and small.get("xlabels", [[]])[0] == ["8", "16x8x8", "24x8x8", "32x8x8", "40x8x8"],
          (small.get("xticks"), small.get("xlabels")))
    values = [float(text.replace("−", "-")) for index, which, labels in small.get("log_labels", [])
              if (index, which) == (0, "y") for text in labels]
    check("suite plot: its log axis has labelled values below and above 1 (ratios from 0.7 to 1.1)",
          any(v < 1 for v in values) and any(v > 1 for v in values), small.get("log_labels"))
    long = plotted(tmp, suite_document(100), "suite_long").get("m1-suite-many.png", {})
    check("suite plot: a hundred problems wrapped into four panels at most 12 inches wide",
          len(long.get("xticks", [])) == 4 and long.get("inches", (99, 0))[0] <= 12, (long.get("inches"),
                                                                                    len(long.get("xticks", []))))


def test_plots_draw_estimates_apart(tmp):
    """Estimates are drawn, hollow and apart from the measured lines and bars, never on them; a backend measured
    nowhere is hollow points only; the bars have the IQR where the file has it; the scaling plot is drawn only where a
    row ran on more than one GPU."""
    drawn = plotted(tmp, plots_document(), "plots_estimates")
    names = sorted(drawn)
    check("plots: the CPU and GPU GFLOP/s plots, both bar charts and the scaling plot are drawn",
          names == ["m1-h200-cpu-gflops-other.png", "m1-h200-cpu-gflops-seed003.png", "m1-h200-gpu-gflops-other.png",
                    "m1-h200-scaling.png", "m1-h200-vs-vendor-2048.png", "m1-h200-vs-vendor-4096.png"], names)
    for name, figure in drawn.items():
        measured = [v for label, (xs, ys) in figure["lines"].items() if not label.startswith("_estimated")
                    and not label.startswith("_joined") and figure["faces"].get(label) != WHITE for v in xs + ys]
        check(f"plots: {name} draws no estimated figure on a measured line", EXTREME not in measured, figure["lines"])

    cpu = drawn.get("m1-h200-cpu-gflops-seed003.png", {"lines": {}, "faces": {}})
    check("plots: a backend measured at one size and estimated at the others is a point at that size",
          cpu["lines"].get("cpu/gold") == ([1024], [2.0]), cpu["lines"].get("cpu/gold"))
    check("plots: its estimates are hollow points of their own",
          cpu["lines"].get("_estimated cpu/gold") == ([2048, 4096], [EXTREME, EXTREME])
          and cpu["faces"].get("_estimated cpu/gold") == WHITE and cpu["faces"].get("cpu/gold") != WHITE, cpu["lines"])
    check("plots: the measured lines are drawn whole",
          cpu["lines"].get("cpu/tiling") == ([1024, 2048, 4096], [50.0, 100.0, 200.0])
          and cpu["lines"].get("cpu/openblas") == ([1024, 2048, 4096], [100.0, 200.0, 400.0]), cpu["lines"])
    check("plots: the estimate is named in the legend", "hollow marker: estimate" in cpu.get("legend", []),
          cpu.get("legend"))
    other = drawn.get("m1-h200-cpu-gflops-other.png", {"lines": {}, "faces": {}})
    check("plots: a backend that was only estimated is hollow points under its own name",
          other["lines"].get("cpu/naive") == ([1024, 2048], [EXTREME, EXTREME])
          and other["faces"].get("cpu/naive") == WHITE,
          other["lines"])
    gpu = drawn.get("m1-h200-gpu-gflops-other.png", {"lines": {}, "faces": {}})
    check("plots: the estimated multi-GPU size is apart from its GFLOP/s line, which is broken there, and the line "
          "names its GPUs (above one GPU's peak it would pass for one GPU's row)",
          with_gaps(gpu["lines"].get("gpu/cublasxt-fp32 (2 GPUs)")) == ([1024, None, 4096], [800.0, None, 3200.0])
          and gpu["lines"].get("_estimated gpu/cublasxt-fp32 (2 GPUs)") == ([2048], [EXTREME]), gpu["lines"])
    for size in (2048, 4096):
        chart = drawn.get(f"m1-h200-vs-vendor-{size}.png", {"bars": {}, "colors": {}, "spans": {}, "ylabels": []})
        expected = {"cpu/openblas": 1.0, "cpu/tiling": 0.5, "cpu/gold": EXTREME, "gpu/cublas-fp32": 1.0,
                    "gpu/cublasxt-fp32": 0.8}
        if size == 2048:
            expected.update({"cpu/naive": EXTREME, "gpu/cublasxt-fp32": EXTREME})
        check(f"plots: the x vendor bars at {size}, estimates included", chart["bars"] == expected, chart["bars"])
        hollow = {label for label, color in chart["colors"].items() if tuple(color) == WHITE}
        check(f"plots: the estimated bars at {size} are hollow",
              hollow == ({"cpu/gold", "cpu/naive", "gpu/cublasxt-fp32"} if size == 2048 else {"cpu/gold"}), hollow)
        tiling = chart["ylabels"].index("cpu/tiling") if "cpu/tiling" in chart["ylabels"] else -1
        check(f"plots: the IQR of cpu/tiling at {size} is its error bar, and the only one",
              list(chart["spans"].values()) == [(0.45, 0.55)] and round(float(tiling), 6) in chart["spans"],
              chart["spans"])
    scaling_plot = drawn.get("m1-h200-scaling.png", {"lines": {}, "faces": {}, "legend": []})
    check("plots: the scaling line keeps the estimated size apart",
          scaling_plot["lines"].get("gpu/cublasxt-fp32 on 2 GPU(s)") == ([1024, 4096], [1.5, 6.0])
          and scaling_plot["lines"].get("_estimated gpu/cublasxt-fp32 on 2 GPU(s)") == ([2048], [EXTREME]),
          scaling_plot["lines"])
    check("plots: the scaling legend names each guide as drawn",
          "ideal on 2 GPUs (dotted)" in scaling_plot["legend"]
          and "1×: as fast as one GPU (dashed)" in scaling_plot["legend"], scaling_plot["legend"])
    one_gpu = plots_document()
    for row in one_gpu["results"]:
        if row["backend"] == "gpu/cublasxt-fp32":
            row["devices"] = 1
    check("plots: no scaling plot where every multi-GPU row ran on one GPU",
          not any("scaling" in name for name in plotted(tmp, one_gpu, "plots_one_gpu")))


def test_plots_series_and_peaks(tmp):
    """At most ten series a plot, no two alike in colour or marker; TF32 rows in warm colours; the peaks drawn where
    known (FP32, and TF32 on plots with TF32 rows); a roofline where the peak is known, CPU and GPU."""
    drawn = plotted(tmp, [load(path) for path in FIXTURES], "plots_fixtures")
    line_plots = {name: figure for name, figure in drawn.items() if "-gflops-" in name}
    check("plots: the fixtures have ladder plots of both devices",
          any("-cpu-gflops-" in name for name in line_plots)
          and any("-gpu-gflops-seed000" in name for name in line_plots),
          sorted(drawn))
    for name, figure in line_plots.items():
        series = series_of(figure)
        check(f"plots: {name} has at most ten series", 0 < len(series) <= 10, sorted(series))
        check(f"plots: {name} has no two series alike in colour or marker",
              len({c for c, _ in series.values()}) == len(series)
              and len({m for _, m in series.values()}) == len(series),
              series)
    seed001 = drawn.get("m2-h100-gpu-gflops-seed001.png", {"lines": {}, "styles": {}})
    tf32 = [label for label in series_of(seed001) if "tf32" in label]
    check("plots: TF32 rows are drawn in warm colours, FP32 rows not",
          tf32 and all(warm(seed001["styles"][label][0]) for label in tf32)
          and not any(warm(style[0]) for label, style in series_of(seed001).items() if label not in tf32),
          series_of(seed001))
    check("plots: the FP32 and TF32 peaks on a GPU plot with TF32 rows",
          [label for label in seed001["lines"] if "peak" in label]
          == ["FP32 peak, 66.9 TFLOP/s", "TF32 peak, 535 TFLOP/s"],
          list(seed001["lines"]))
    seed000 = drawn.get("m2-h100-gpu-gflops-seed000.png", {"lines": {}})
    check("plots: the FP32 peak alone where no TF32 row is drawn",
          [label for label in seed000["lines"] if "peak" in label] == ["FP32 peak, 66.9 TFLOP/s"],
          list(seed000["lines"]))
    cpu = drawn.get("m1-ryzen-16c-cpu-gflops-seed003.png", {"lines": {}})
    check("plots: a CPU peak the run recorded is drawn", "FP32 peak, 973 GFLOP/s" in cpu["lines"], list(cpu["lines"]))
    for name in ("m1-ryzen-16c-cpu-roofline.png", "m2-h100-gpu-roofline.png"):
        check(f"plots: a roofline where the peak is known: {name}", name in drawn, sorted(drawn))
    roof = drawn.get("m2-h100-gpu-roofline.png", {"lines": {}})
    slope = roof["lines"].get("memory bandwidth 3,352 GB/s", ([], []))
    tf32_peak, bandwidth = 132 * 2048 * 1980 / 1000, 2619 * 2 * 5120 / 8 / 1000
    check("plots: the roofline's slope is the bandwidth and meets the TF32 ceiling at its ridge",
          slope[0] and abs(slope[1][-1] - tf32_peak) < 1e-6 and abs(slope[0][-1] - tf32_peak / bandwidth) < 1e-9,
          slope[0][-1:] + slope[1][-1:])
    points = roof["lines"].get("FP32, this project", ([], []))
    check("plots: the roofline's x is the arithmetic intensity 2MNK / (4(MK + KN + MN))",
          all(any(abs(x - expected) < 1e-9 for x in points[0]) for expected in (512 / 6, 2048 / 6,
              2 * 2048 * 2048 * 1024 / (4 * (2048 * 1024 * 2 + 2048 * 2048)))), sorted(set(points[0])))
    check("plots: no roofline for a device without a peak", "m2-h100-cpu-roofline.png" not in drawn, sorted(drawn))
    # Where both groups are drawn (the fixtures have no GPU vendor library), at one intensity: their layers.
    layers = {}
    spec = plots.Roofline("layers", (("FP32 peak", 100.0, "fp32"),), 10.0,
                          (("fp32", "FP32, this project", "tab:blue", "o", False, ((1.0, 5.0, False),)),
                           ("fp32", "FP32, vendor libraries", "navy", "s", True, ((1.0, 6.0, False),))))
    try:
        with saving_with(lambda figure, directory, name: layers.update(
                {line.get_label(): (line.get_zorder(), line.get_alpha()) for line in figure.axes[0].get_lines()})
                or name):
            plots.draw_roofline(spec, tmp, "roofline-layers.png")
    finally:
        plots.plt.close("all")
    own, library = layers.get("FP32, this project"), layers.get("FP32, vendor libraries")
    check("plots: the roofline draws this project's points over the vendor libraries', which are paler",
          own and library and own[0] > library[0] and own[1] > library[1], layers)


# (backend, device, precision, GFLOP/s, × vendor, × its precision's vendor, × best vendor, best vendor, kernel) at
# 2048: two vendor libraries (or more) per precision, the fastest a different kind of library in each: oneMKL on the
# CPU, the baseline cuBLAS for FP32 and cuBLASLt for TF32 on the GPU.
VENDOR_ROWS = [
    ("cpu/blis", "cpu", "fp32", 1192.0, 1.25, 1.25, 1.03, "cpu/onemkl", None),
    ("cpu/openblas", "cpu", "fp32", 1042.0, 1.0, 1.0, 0.82, "cpu/onemkl", None),
    ("cpu/onemkl", "cpu", "fp32", 1329.0, 1.21, 1.21, 1.0, "cpu/onemkl", None),
    ("gpu/warp-tiled", "gpu", "fp32", 45482.0, 0.91, 0.91, 0.91, "gpu/cublas-fp32", None),
    ("gpu/simt-tuned", "gpu", "fp32", 50255.0, 0.99, 0.99, 0.99, "gpu/cublas-fp32", None),
    ("gpu/wmma-tf32", "gpu", "tf32", 67967.0, 1.35, 0.2, 0.19, "gpu/cublaslt-tf32", None),
    ("gpu/tensor-core-tf32-ws", "gpu", "tf32", 335335.0, 6.69, 1.0, 0.96, "gpu/cublaslt-tf32", None),
    ("gpu/cublas-tf32", "gpu", "tf32", 339362.0, 6.76, 1.0, 0.95, "gpu/cublaslt-tf32", None),
    ("gpu/cublas-fp32", "gpu", "fp32", 50524.0, 1.0, 1.0, 1.0, "gpu/cublas-fp32", None),
    ("gpu/cublaslt-tf32", "gpu", "tf32", 341087.0, 6.81, 1.05, 1.0, "gpu/cublaslt-tf32", "cuBLASLt algo 43, tile 256"),
    ("gpu/cublaslt-fp32", "gpu", "fp32", 50147.0, 0.97, 0.97, 0.97, "gpu/cublas-fp32", "cuBLASLt algo 20, tile 128"),
    ("gpu/cutlass-tf32", "gpu", "tf32", 277740.0, 5.54, 0.83, 0.79, "gpu/cublaslt-tf32", "cooperative: CUTLASS 4.2.0"),
]
VENDOR_LIBRARIES = {"cpu/openblas", "cpu/onemkl", "gpu/cublas-tf32", "gpu/cublas-fp32", "gpu/cublaslt-tf32",
                    "gpu/cublaslt-fp32", "gpu/cutlass-tf32"}


def vendors_documents():
    """One H100 machine in two files: a run with the best-vendor fields at 2048 (VENDOR_ROWS, an unavailable BLIS
    library and cuBLASXt, which has no best vendor), and an older one at 4096 written before those fields."""
    context = {"hostname": "vendors", "cpu_model": "x", "gpu": {"name": "NVIDIA H100"}}
    base = {"m": 2048, "n": 2048, "k": 2048, "status": "ok", "median_ms": 1.0, "passed": True}
    rows = [dict(base, backend=backend, device=device, precision=precision, gflops=gflops, vs_vendor=vs_vendor,
                 vs_precision_vendor=vs_precision, vs_best_vendor=vs_best, best_vendor=best, kernel=kernel,
                 vendor=backend in ("cpu/openblas", "gpu/cublas-fp32"), vendor_library=backend in VENDOR_LIBRARIES)
            for backend, device, precision, gflops, vs_vendor, vs_precision, vs_best, best, kernel in VENDOR_ROWS]
    rows.append(dict(base, backend="cpu/libblis", device="cpu", precision="fp32", vendor_library=True,
                     status="unavailable", median_ms=None, reason="the BLIS plugin was not built"))
    rows.append(dict(base, backend="gpu/cublasxt-fp32", device="gpu", precision="fp32", gflops=1565.0,
                     devices=1, speedup=0.44, efficiency=0.44, speedup_basis="end-to-end", host_resident=True))
    vendors = [{"backend": "cpu/openblas", "library": "OpenBLAS", "available": True, "version": "0.3.26",
                "build": "pthreads", "kernel_path": "Cooperlake", "threads": 16},
               {"backend": "cpu/libblis", "library": "BLIS", "available": False,
                "unavailable_reason": "the BLIS plugin was not built"},
               {"backend": "cpu/onemkl", "library": "oneMKL", "available": True, "version": "2026.2",
                "build": "static, LP64", "kernel_path": "AVX512_E1", "threads": 16}]
    new = {"context": dict(context, timestamp_utc="2026-11-25T00:00:00Z", vendors=vendors), "results": rows}
    old_base = dict(base, m=4096, n=4096, k=4096)
    old = {"context": dict(context, timestamp_utc="2025-01-01T00:00:00Z"), "results": [
        dict(old_base, backend="cpu/blis", device="cpu", precision="fp32", gflops=1300.0, vs_vendor=1.2),
        dict(old_base, backend="cpu/openblas", device="cpu", precision="fp32", gflops=1100.0, vs_vendor=1.0,
             vendor=True),
        dict(old_base, backend="gpu/cublas-fp32", device="gpu", precision="fp32", gflops=51000.0, vs_vendor=1.0,
             vendor=True),
        dict(old_base, backend="gpu/cublasxt-fp32", device="gpu", precision="fp32", gflops=3130.0, devices=1,
             speedup_basis="end-to-end")]}
    return new, old


def table_line(text, start):
    return next((line for line in text.splitlines() if line.startswith(start)), "")


def test_best_vendor(tmp):
    """Section 2a names the fastest vendor library of each precision (a different one per precision) with its ratio
    to the baseline, beside our fastest row and its × best vendor; the tables get a × best vendor column where rows
    have one; the machine lists its vendor libraries and their kernels; the bar chart switches to × best vendor,
    vendor libraries hatched and TF32 bars coloured apart from FP32 ones. Files without these fields show none of it."""
    new, old = vendors_documents()
    paths = []
    for name, document in (("vendors_new", new), ("vendors_old", old)):
        paths.append(os.path.join(tmp, f"{name}.json"))
        with open(paths[-1], "w", encoding="utf-8") as handle:
            json.dump(document, handle)
    text = make_report(paths, os.path.join(tmp, "vendors_report")) or ""
    best = section(text, "## 2a. Best vendor per precision", "## 2b.")
    check("best vendor: the section exists", best != "", text[:300])
    for start, expected in (
            ("| 2048 | CPU | fp32 |", "| 2048 | CPU | fp32 | `cpu/onemkl` | 1,329 | 1.21× | `cpu/blis` | 1,192 | "
                                     "1.03× `onemkl` |"),
            ("| 2048 | GPU | fp32 |", "| 2048 | GPU | fp32 | `gpu/cublas-fp32` | 50,524 | 1.00× | `gpu/simt-tuned` | "
                                     "50,255 | 0.99× `cublas-fp32` |"),
            ("| 2048 | GPU | tf32 |", "| 2048 | GPU | tf32 | `gpu/cublaslt-tf32` | 341,087 | 1.05× | "
                                     "`gpu/tensor-core-tf32-ws` | 335,335 | 0.96× `cublaslt-tf32` |")):
        line = table_line(best, start)
        check(f"best vendor: {start} names the fastest library and our fastest row", line == expected, line)
    check("best vendor: no row for the size measured before the fields", "| 4096 |" not in best, best)

    overview = section(text, "## 2. Overview", "## 2a.")
    best_table = section(overview, "× best vendor:", "\n\n\n")
    header = table_line(best_table, "| Backend |")
    check("best vendor: the overview has a × best vendor table with the sizes where rows have it, and only those",
          header == "| Backend | Precision | 2048 |", header)
    check("best vendor: the overview's × best vendor cell",
          table_line(best_table, "| `gpu/tensor-core-tf32-ws` |") == "| `gpu/tensor-core-tf32-ws` | tf32 | 0.96× |",
          table_line(best_table, "| `gpu/tensor-core-tf32-ws` |"))
    check("best vendor: the overview explains the table", "a second table gives each row's “× best vendor”" in overview)
    fast_path = section(text, "## 2b.", "## 3. Source documents")
    check("best vendor: the fast path has the columns and every GPU vendor library, one value a cell",
          "| × best vendor | Best vendor |" in fast_path
          and "| 2048 | `gpu/cutlass-tf32` | tf32 | 277,740 | 5.54× | 0.83× | 0.79× | `cublaslt-tf32` |" in fast_path
          and table_line(fast_path, "| Size |") == "| Size | Backend | Precision | GFLOP/s | × cuBLAS FP32 | "
          "× same precision | × best vendor | Best vendor |", fast_path)

    machines = section(text, "## 1. Machines", "## 2. Overview")
    check("best vendor: the machine lists its vendor libraries",
          "  - `cpu/onemkl` (oneMKL) 2026.2; static, LP64; path AVX512_E1; 16 threads" in machines
          and "  - `cpu/libblis` (BLIS): unavailable (the BLIS plugin was not built)" in machines, machines)
    check("best vendor: the kernels the libraries chose",
          "| `gpu/cublaslt-tf32` | 2048 | cuBLASLt algo 43, tile 256 |" in machines
          and "| `gpu/cutlass-tf32` | 2048 | cooperative: CUTLASS 4.2.0 |" in machines, machines)

    drawn = plotted(tmp, new, "vendors_plots")
    chart = drawn.get("m1-h100-vs-best-vendor-2048.png", {"bars": {}, "hatches": {}, "colors": {}})
    expected = {backend: vs_best for backend, _, _, _, _, _, vs_best, _, _ in VENDOR_ROWS}
    check("best vendor: the chart at 2048 shows × best vendor, without the multi-GPU row", chart["bars"] == expected,
          chart["bars"])
    check("best vendor: vendor libraries are hatched, our rows not",
          {label for label, hatch in chart["hatches"].items() if hatch} == VENDOR_LIBRARIES, chart["hatches"])
    colors = chart["colors"]
    check("best vendor: TF32 bars are not coloured like FP32 bars",
          colors.get("gpu/tensor-core-tf32-ws") == colors.get("gpu/cublas-tf32")
          and colors.get("gpu/tensor-core-tf32-ws") != colors.get("gpu/simt-tuned"), colors)

    class ManySizes:  # one library that kept one kernel over 20 sizes
        backends = ["gpu/cublaslt-fp32"]
        shapes = [(m, 64, 64) for m in range(1, 21)]

        @staticmethod
        def row(backend, shape):
            return {"vendor_library": True, "kernel": "algo 7"}
    many = vendors.kernel_table(ManySizes())
    check("best vendor: a kernel kept over many sizes lists the smallest few and how many more",
          "| `gpu/cublaslt-fp32` | 1x64x64, 2x64x64, 3x64x64, 4x64x64, 5x64x64, 6x64x64 and 14 more | algo 7 |" in many,
          many)

    plain = make_report(FIXTURES, os.path.join(tmp, "vendors_plain")) or ""
    check("best vendor: files without the fields render without any of it",
          plain != "" and not any(text in plain for text in ("2a. Best vendor", "× best vendor", "Vendor libraries",
                                                              "Kernels the vendor libraries chose", "vs-best-vendor")))


def test_commit_marks(tmp):
    """A table whose cells come from runs of two commits marks the cells of all but the most common one, with a
    legend naming each commit and its files; a table of one commit has no marks."""
    cpu = load(FIXTURES[0])
    newer = copy.deepcopy(cpu)
    newer["context"].update(git_commit="abcdef1", timestamp_utc="2099-01-01T00:00:00Z")
    newer["results"] = [dict(row, gflops=777.0) for row in newer["results"]
                        if row["backend"] == "cpu/tiling" and row["m"] == row["n"] == row["k"] == 2048]
    paths = []
    for name, one in (("old", cpu), ("new", newer)):
        paths.append(os.path.join(tmp, f"commits_{name}.json"))
        with open(paths[-1], "w", encoding="utf-8") as handle:
            json.dump(one, handle)
    text = make_report(paths, os.path.join(tmp, "commits")) or ""
    overview = section(text, "## 2. Overview", "## 3. Source documents")
    tiling = table_line(overview, "| `cpu/tiling` |")
    check("commits: the newer commit's cells are marked (its figure and the best % of peak it gave)",
          tiling.endswith("| 777 (0.027×)ᵃ |") and "| 80% at 2048ᵃ |" in tiling and tiling.count("ᵃ") == 2, tiling)
    check("commits: the other cells are not", "ᵃ" not in table_line(overview, "| `cpu/blis` |"),
          table_line(overview, "| `cpu/blis` |"))
    check("commits: the legend names both commits and their files",
          "Cells from several commits: unmarked, git `3f9c2d1` (`commits_old.json`); ᵃ git `abcdef1` "
          "(`commits_new.json`)." in overview, overview[-800:])
    ladder = section(text, "#### CPU steps", "#### GPU steps")
    check("commits: seed tables are marked too", "777ᵃ" in ladder and "Cells from several commits" in ladder, ladder)
    plain = make_report([FIXTURES[0]], os.path.join(tmp, "one_commit")) or ""
    check("commits: one commit, no marks", "Cells from several commits" not in plain and "ᵃ |" not in plain)


def test_peaks_highest_recorded(tmp):
    """Two runs of one machine recording different CPU peaks (one measured on a busy host): each rate's highest is
    quoted, with the basis of the run of the highest FP32 rate, whichever run is newer; the GPU's recorded peak
    beside it."""
    def run(stamp, cpu_gflops, bandwidth):
        peaks = [{"device": "cpu", "name": "Xeon", "fp32_gflops": cpu_gflops, "bandwidth_gbs": bandwidth,
                  "basis": f"measured {cpu_gflops:g}"},
                 {"device": "gpu", "name": "GPU X", "fp32_gflops": 60000.0, "tf32_gflops": 480000.0,
                  "bandwidth_gbs": 4000.0, "basis": "derived"}]
        return {"context": {"hostname": "busy", "cpu_model": "Xeon", "timestamp_utc": stamp, "peaks": peaks},
                "results": [dict(VALID_ROW)]}
    for name, stamps in (("newer_low", ("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")),
                         ("newer_high", ("2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"))):
        high = write_json(tmp, f"peaks_{name}_high.json", run(stamps[0], 1993.0, 69.9))
        low = write_json(tmp, f"peaks_{name}_low.json", run(stamps[1], 954.0, 98.3))
        text = make_report([high, low], os.path.join(tmp, f"peaks_{name}")) or ""
        part = section(text, "## 1a. Peaks", "## 2. Overview")
        check(f"peaks: each rate's highest a run recorded is quoted ({name})",
              table_line(part, "| M1 | CPU |") == "| M1 | CPU | Xeon | 1,993 GFLOP/s | — | 98.3 GB/s | recorded by the "
              "run |" and "measured 1993" in part and "measured 954" not in part, part)
        check(f"peaks: the recorded GPU peak beside it ({name})",
              table_line(part, "| M1 | GPU |") == "| M1 | GPU | GPU X | 60,000 GFLOP/s | 480,000 GFLOP/s | 4,000 GB/s "
              "| recorded by the run |", part)


def test_peaks(tmp):
    """Peaks: recorded ones quoted, a GPU's derived from its SMs, clocks and bus width (H100 SXM: 66.9 TFLOP/s FP32,
    3.35 TB/s), a CPU's never invented; % of peak in the tables, TF32 rows against the TF32 peak."""
    text = make_report(FIXTURES, os.path.join(tmp, "peaks")) or ""
    part = section(text, "## 1a. Peaks", "## 2. Overview")
    check("peaks: the CPU peak the run recorded is quoted, with its basis",
          table_line(part, "| M1 | CPU |") == "| M1 | CPU | AMD Ryzen 7 5800X 8-Core Processor | 973 GFLOP/s | — | "
          "51.2 GB/s | recorded by the run |" and "8 cores x 2 FMA units" in part, part)
    check("peaks: the GPU's derived from its SMs, clock and bus width",
          table_line(part, "| M2 | GPU |") == "| M2 | GPU | NVIDIA H100 80GB HBM3 | 66,908 GFLOP/s | 535,265 GFLOP/s | "
          "3,352 GB/s | derived here |"
          and "FP32 = 132 SMs × 128 FP32 lanes × 2 × 1980 MHz (compute capability 9.0)" in part
          and "bandwidth = 2619 MHz × 2 × 5120 bits ÷ 8 (the run's `memory_bus_bits`)" in part, part)
    check("peaks: a CPU without a recorded peak is not given one",
          table_line(part, "| M2 | CPU |").endswith("| — | — | — | peak not recorded in this run |"), part)
    check("peaks: the text says how the TF32 peak compares with NVIDIA's figure",
          "494.7" in part and "1830 MHz" in part)
    overview = section(text, "## 2. Overview", "## 2a.")
    cublas = table_line(overview, "| `gpu/cublas-tf32` |")
    row = next(r for r in load(FIXTURES[1])["results"] if r["backend"] == "gpu/cublas-tf32" and r["m"] == r["n"] ==
               r["k"] == 2048)
    check("peaks: a TF32 row's best % of peak is against the TF32 peak", f"| {100 * row['gflops'] / 535265.28:.0f}% at "
          in cublas or f"| {100 * row['gflops'] / 535265.28:.1f}% at " in cublas, cublas)
    for gpu, expected in (({"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "multiprocessors": 132,
                            "sm_clock_max_mhz": 1980, "memory_clock_max_mhz": 2619}, (66908.16, 535265.28, 3352.32)),
                          ({"name": "NVIDIA H200", "compute_capability": "9.0", "multiprocessors": 132,
                            "sm_clock_max_mhz": 1980, "memory_clock_max_mhz": 3201}, (66908.16, 535265.28, 4916.736)),
                          ({"name": "NVIDIA A100-SXM4-40GB", "compute_capability": "8.0", "multiprocessors": 108,
                            "sm_clock_max_mhz": 1410, "memory_clock_max_mhz": 1215, "memory_bus_bits": 5120},
                           (19491.84, 155934.72, 1555.2)),
                          ({"name": "NVIDIA GeForce RTX 4070", "compute_capability": "8.9", "multiprocessors": 46,
                            "sm_clock_max_mhz": 2475}, (29145.6, 29145.6, None))):
        derived = peaks.derive_gpu(gpu)
        got = (derived.fp32, derived.tf32, derived.bandwidth)
        check(f"peaks: derived for {gpu['name']}", all((g is None and e is None) or (g is not None and e is not None
              and abs(g - e) < 1e-6 * e) for g, e in zip(got, expected)), (got, derived.basis))


# The committed runs the report is made from (report/), a few: an H100 --all run (seed 004 goes from the CPU to the
# GPU), its fast-path run (another commit, merged with it), and a 2-core CPU machine's --all run (33 GPU rows
# unavailable).
COMMITTED = [os.path.join(REPORT_DIR, name) for name in ("h100_all_2048.json", "h100_gpu_fastpath.json",
                                                         "cpu_2core_all_2048.json")]


def test_committed_runs(tmp):
    """Issue 32's points on real runs: machines named by hardware, plot files by hardware, mixed commits marked, no
    step speedup across devices, unavailable rows grouped by reason, peaks and a roofline, no line over 300
    characters, and stdout listing what was written."""
    out = os.path.join(tmp, "committed")
    status, stdout, stderr = run_in_process(COMMITTED + ["--out", out])
    check("committed runs: a report", status == 0, stderr)
    if status != 0:
        return
    raw = read_report(out, raw=True)
    text = markdown.unwrap(raw)
    check("committed runs: no line over 300 characters",
          max(len(line) for line in raw.splitlines()) <= 300, max(len(line) for line in raw.splitlines()))
    check("committed runs: the machines named by their hardware",
          "### M1 · 2-core AMD EPYC VM (AVX-512)" in text
          and "### M2 · NVIDIA H100 80GB HBM3 (16-core Intel Xeon host)" in text and "· vm" not in text)
    names = sorted(os.listdir(out))
    check("committed runs: plot files named by the hardware", all(re.match(r"m1-epyc-2c-|m2-h100-", n) for n in names
                                                                  if n != "README.md") and "m2-h100-gpu-roofline.png"
          in names and not any("scaling" in n for n in names), names)
    check("committed runs: stdout lists every file written",
          stdout.splitlines() == [f"matcompare: wrote the report into {out}: README.md and {len(names) - 1} plots"]
          + [os.path.join(out, name) for name in names], stdout[:300])
    seed004 = section(text, "### Source document 004", "#### CPU loop orders")
    check("committed runs: no step speedup from the CPU row to the GPU one",
          "n/a: other device" in seed004 and "15319" not in text, seed004[:1500])
    overview = section(section(text, "## 2. Overview", "## 2a."), "### M1 · 2-core AMD EPYC VM", "### M2 ·")
    not_measured = section(overview, "Not measured:", "\n\n\n")
    check("committed runs: the CPU machine's unavailable GPU rows are one line",
          not_measured.count("\n- ") == 1 and "33 backends" in not_measured
          and "| `gpu/naive` |" not in overview, not_measured)
    h100 = section(text, "## 2. Overview", "## 2a.").split("### M2 ·")[-1]
    check("committed runs: cells of the older commit are marked, with the legend",
          "ᵃ" in table_line(h100, "| `cpu/blis` |") and "ᵃ" not in table_line(h100, "| `gpu/simt-tuned` |")
          and "unmarked, git `110bafb` (`h100_gpu_fastpath.json`); ᵃ git `097d72b` (`h100_all_2048.json`)" in h100,
          h100[:400])
    check("committed runs: the H100's peaks", "| M2 | GPU | NVIDIA H100 80GB HBM3 | 66,908 GFLOP/s | 535,265 GFLOP/s | "
          "3,352 GB/s | derived here |" in text)
    fast = section(text, "## 2b.", "## 2c.")
    check("committed runs: the fast path's cells hold one value each",
          "| 8192 | `gpu/simt-tuned` | fp32 | 53,309 | 80% | 1.03× | 1.03–1.03 | 1.03× | 1.02× | `cublaslt-fp32` | "
          "0.000766 |" in fast, fast[:1200])


# ------------------------------------------------------------------------------ accuracy (issue 31)

ERROR_KS = (256, 1024, 4096, 16384, 65536)
# (backend, device, precision, vendor, vendor library, GFLOP/s): the rows of the synthetic error-vs-k runs.
SWEEP_ROWS = (("gpu/cublas-fp32", "gpu", "fp32", True, True, 40000.0),
              ("gpu/cublas-tf32", "gpu", "tf32", False, True, 300000.0),
              ("gpu/simt-tuned", "gpu", "fp32", False, False, 38000.0),
              ("gpu/tensor-core-tf32", "gpu", "tf32", False, False, 250000.0))


def sweep_error(values, index, k):
    """The relative error of SWEEP_ROWS[index] at K in the run on `values`: each distribution's own digits (1.11…
    for uniform inputs, 7.77… for reals in [1, 100]), so that a table showing the other's is caught."""
    lead = {"uniform": 1.11, "reals-1-100": 7.77}[values] + 0.01 * index
    return lead * 10.0 ** (-7 + ERROR_KS.index(k) * 0.25 + (3 if index % 2 else 0))


def error_sweep_document(values, stamp, rows=SWEEP_ROWS, context=None):
    """An error-vs-k run (M = N = 512, every K of the suite) on `values`; the last K of gpu/simt-tuned estimated."""
    suite = {"name": "error-vs-k", "title": "relative error against K at M = N = 512",
             "shapes": [{"m": 512, "n": 512, "k": k, "layout": "NN", "name": f"K={k}"} for k in ERROR_KS]}
    results = []
    for index, (backend, device, precision, vendor, library, gflops) in enumerate(rows):
        for k in ERROR_KS:
            row = {"backend": backend, "device": device, "precision": precision, "vendor": vendor,
                   "vendor_library": library, "m": 512, "n": 512, "k": k, "layout": "NN", "status": "ok",
                   "median_ms": 1.0, "gflops": gflops, "rel_error": sweep_error(values, index, k), "passed": True}
            if backend == "gpu/simt-tuned" and k == ERROR_KS[-1]:
                row.update(status="estimated", estimate_rows=64)
            results.append(row)
    base = {"hostname": "acc", "input_values": values, "timestamp_utc": stamp, "suite": suite,
            "command_line": f"matcompare --suite error-vs-k --values {values}"}
    return {"context": dict(base, **(context or {})), "results": results}


# (backend, device, precision, GFLOP/s, relative error) at 64, the hand-made front: `fast` is faster than `best-fp32`
# but less accurate (on the front), `beaten` is slower and less accurate than `best-fp32` (off it), `twin` equals
# `best-fp32` in both (on it with it), `same-error` has its error but is slower (off it: a tie in error goes to the
# faster), `accurate` is the slowest and the most accurate (on it), `cpu` is slower and less accurate than `accurate`.
PARETO_ROWS = (("gpu/fast", "gpu", "tf32", 200000.0, 1e-3), ("gpu/best-fp32", "gpu", "fp32", 50000.0, 1e-6),
               ("gpu/beaten", "gpu", "fp32", 40000.0, 1e-5), ("gpu/twin", "gpu", "fp32", 50000.0, 1e-6),
               ("gpu/same-error", "gpu", "fp32", 30000.0, 1e-6), ("gpu/accurate", "gpu", "fp32", 5000.0, 2e-7),
               ("cpu/slow", "cpu", "fp32", 100.0, 3e-7))
PARETO_FRONT = {"gpu/fast", "gpu/best-fp32", "gpu/twin", "gpu/accurate"}


def pareto_document():
    """PARETO_ROWS at 64; the same seven at 32 (as many rows, smaller: not chosen); two at 128 (larger, fewer: not
    chosen); a 64x64x32 shape of eight rows (not square: not chosen)."""
    rows = []
    for size, count in ((32, 7), (64, 7), (128, 2)):
        for backend, device, precision, gflops, error in PARETO_ROWS[:count]:
            rows.append(dict(VALID_ROW, backend=backend, device=device, precision=precision, m=size, n=size, k=size,
                             gflops=gflops * size / 64, rel_error=error))
    rows += [dict(VALID_ROW, backend=backend, device=device, m=64, n=64, k=32, gflops=gflops, rel_error=error)
             for backend, device, _, gflops, error in PARETO_ROWS + (("cpu/extra", "cpu", "fp32", 1.0, 1.0),)]
    # A row on two GPUs, faster and more accurate than every FP32 row of one GPU: not a point of one device's chart.
    rows.append(dict(VALID_ROW, backend="gpu/cublasmp-fp32", device="gpu", precision="fp32", m=64, n=64, k=64,
                     gflops=90000.0, rel_error=1e-7, devices=2, speedup_basis="compute"))
    return {"context": {"hostname": "pareto", "timestamp_utc": "2026-01-01T00:00:00Z"}, "results": rows}


def write_json(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    return path


def test_error_study_not_a_suite(tmp):
    """The error-vs-k runs are about accuracy: section 2e draws them, and the suites' section, which compares speed,
    leaves them out even where their rows carry × best vendor."""
    document = error_sweep_document("uniform", "2026-02-01T00:00:00Z")
    for row in document["results"]:
        if not row["vendor_library"]:
            row.update(vs_best_vendor=0.5, best_vendor="gpu/cublas-fp32")
    out = os.path.join(tmp, "error_study_report")
    status, stdout, stderr = run_in_process([write_json(tmp, "evk_speed.json", document), "--out", out])
    check("accuracy: a report from an error-vs-k run with x best vendor", status == 0, stderr)
    text = read_report(out) or ""
    check("accuracy: the error study is not drawn as a workload suite (no table or plot of its speed)",
          "suite `error-vs-k`" not in text and not any("suite-error-vs-k" in name for name in os.listdir(out)),
          sorted(os.listdir(out)))


def test_accuracy_error_vs_k(tmp):
    """Issue 31: the error-vs-k runs of each value distribution, each read from its own runs (not the machine's merged
    rows, where one would replace the other), a table per distribution with the guides √K·u and K·u, and a plot each."""
    uniform = write_json(tmp, "evk_uniform.json", error_sweep_document("uniform", "2026-02-01T00:00:00Z"))
    reals = write_json(tmp, "evk_reals.json", error_sweep_document("reals-1-100", "2026-02-02T00:00:00Z"))
    out = os.path.join(tmp, "accuracy_report")
    status, stdout, stderr = run_in_process([uniform, reals, "--out", out])
    check("accuracy: a report from two error-vs-k runs", status == 0, stderr)
    text = read_report(out)
    if status != 0 or text is None:
        return
    part = section(text, "## 2e. Accuracy", "## 3. Source documents")
    check("accuracy: the section comes after the suites (if any) and before the source documents",
          text.find("## 2d. Suites") < text.find("## 2e. Accuracy") < text.find("## 3. Source documents")
          and text.find("## 2e. Accuracy") > 0)
    tables_of = {values: section(part, f"error against K, inputs `{values}`", "\n### ")
                 for values in ("uniform", "reals-1-100")}
    check("accuracy: a table per value distribution, uniform first",
          all(tables_of.values()) and part.find("inputs `uniform`") < part.find("inputs `reals-1-100`"), part[:3000])
    for values, other in (("uniform", "reals-1-100"), ("reals-1-100", "uniform")):
        table_text = tables_of[values]
        own = [f"{sweep_error(values, i, k):.2e}" for i in range(len(SWEEP_ROWS)) for k in ERROR_KS]
        theirs = [f"{sweep_error(other, i, k):.2e}" for i in range(len(SWEEP_ROWS)) for k in ERROR_KS]
        check(f"accuracy: the {values} table holds its own run's errors, every one",
              all(value in table_text for value in own), table_text)
        check(f"accuracy: the {values} table holds none of the {other} run's errors",
              not any(value in table_text for value in theirs), table_text)
        simt = table_line(table_text, "| `gpu/simt-tuned` |")
        check(f"accuracy: the {values} table's estimate is marked",
              f"| ~{sweep_error(values, 2, ERROR_KS[-1]):.2e} est. |" in simt, simt)
        check(f"accuracy: the {values} table's header names each K",
              "| Backend | Precision | K = 256 | K = 1024 | K = 4096 | K = 16384 | K = 65536 | Slope |" in table_text)
        cublas = table_line(table_text, "| `gpu/cublas-fp32` |")
        check(f"accuracy: the {values} table fits the slope (0.25 decades per 0.60 of K's)", cublas.endswith(
            f"| {0.25 / math.log10(4):.2f} |"), cublas)
    # The guides: √K·u and K·u with u = 2^-24 (FP32) and 2^-11 (TF32), three significant digits.
    guides = tables_of["uniform"]
    expected = {("√K·u", "fp32"): [math.sqrt(k) * 2.0 ** -24 for k in ERROR_KS],
                ("K·u", "fp32"): [k * 2.0 ** -24 for k in ERROR_KS],
                ("√K·u", "tf32"): [math.sqrt(k) * 2.0 ** -11 for k in ERROR_KS],
                ("K·u", "tf32"): [k * 2.0 ** -11 for k in ERROR_KS]}
    units = {"fp32": "2⁻²⁴", "tf32": "2⁻¹¹"}
    for (name, precision), values in expected.items():
        line = table_line(guides, f"| *guide {name}* | *{precision}, u = {units[precision]}* |")
        check(f"accuracy: the guide {name} for {precision}", line.endswith(
            " | ".join(f"*{value:.2e}*" for value in values) + f" | *{0.5 if name.startswith('√') else 1.0:.2f}* |"),
            line)
    check("accuracy: the FP32 guides at K = 256 are 9.54e-07 and 1.53e-05, the TF32 ones 7.81e-03 and 1.25e-01",
          "*9.54e-07*" in guides and "*1.53e-05*" in guides and "*7.81e-03*" in guides and "*1.25e-01*" in guides)
    check("accuracy: guide_values per precision, none for an unknown one",
          accuracy.guide_values("fp32", [4, 16])
          == ((2 * 2.0 ** -24, 4 * 2.0 ** -24), (4 * 2.0 ** -24, 16 * 2.0 ** -24))
          and accuracy.guide_values("tf32", [64]) == ((8 * 2.0 ** -11, 64 * 2.0 ** -11),)
          and accuracy.guide_values("bf16", [64]) is None)
    fp32_only = error_sweep_document("uniform", "2026-02-01T00:00:00Z", rows=SWEEP_ROWS[:1])
    machine = runs.group_machines(runs.load_runs([write_json(tmp, "evk_fp32.json", fp32_only)]))[0]
    check("accuracy: guides only for the precisions present",
          not any("tf32, u =" in line for line in accuracy.sweep_table(machine, accuracy.error_sweeps(machine)[0])))
    # The runs list says what reads each run on other values.
    check("accuracy: the runs list says the accuracy section reads the reals run",
          "(inputs `reals-1-100`: only the accuracy section's error against K uses it)" in text)

    names = sorted(os.listdir(out))
    for name in ("m1-error-vs-k-uniform.png", "m1-error-vs-k-reals-1-100.png"):
        check(f"accuracy: {name} is written, linked and listed", name in names and f"]({name})" in text
              and os.path.join(out, name) in stdout.splitlines(), names)
    check("accuracy: no accuracy-speed plot without a square shape", not any("accuracy-speed" in n for n in names),
          names)

    # What the plots draw: each distribution's own errors, the guides at the Ks, the baseline as the reference.
    drawn = plotted(tmp, [load(uniform), load(reals)], "accuracy_plots")
    for values, name in (("uniform", "m1-error-vs-k-uniform.png"), ("reals-1-100", "m1-error-vs-k-reals-1-100.png")):
        figure = drawn.get(name, {"lines": {}, "styles": {}, "faces": {}, "legend": []})
        tf32 = figure["lines"].get("gpu/cublas-tf32", ([], []))
        check(f"accuracy plot {values}: a line per row with its own run's errors",
              tf32 == (list(ERROR_KS), [sweep_error(values, 1, k) for k in ERROR_KS]), figure["lines"].keys())
        simt = figure["lines"].get("gpu/simt-tuned", ([], []))
        check(f"accuracy plot {values}: the estimate apart and hollow",
              simt[0] == list(ERROR_KS[:-1]) and figure["lines"].get("_estimated gpu/simt-tuned", ([], []))[0]
              == [ERROR_KS[-1]] and figure["faces"].get("_estimated gpu/simt-tuned") == WHITE, figure["lines"].keys())
        for precision, unit in (("FP32", 2.0 ** -24), ("TF32", 2.0 ** -11)):
            label = f"(u = {units[precision.lower()]})"
            root = figure["lines"].get(f"guide √K·u, {precision} {label}", ([], []))
            linear = figure["lines"].get(f"guide K·u, {precision} {label}", ([], []))
            check(f"accuracy plot {values}: the {precision} guides at every K",
                  root[0] == list(ERROR_KS) and all(abs(y - math.sqrt(k) * unit) < 1e-15 for k, y in zip(*root))
                  and linear[0] == list(ERROR_KS) and all(abs(y - k * unit) < 1e-12 for k, y in zip(*linear)),
                  (root, linear))
        series = {label: style for label, style in series_of(figure).items() if not label.startswith("guide")}
        check(f"accuracy plot {values}: one series per row, each its own colour and marker",
              sorted(series) == sorted(b for b, *_ in SWEEP_ROWS) and len({c for c, _ in series.values()})
              == len(series) and len({m for _, m in series.values()}) == len(series), series)
        check(f"accuracy plot {values}: the baseline vendor is the black reference",
              figure["styles"].get("gpu/cublas-fp32", ("", ""))[0] == "#000000", figure["styles"])

    # More rows than a plot holds: two plots of at most ten series, the baseline in each, the rest named.
    many = tuple(SWEEP_ROWS) + tuple((f"gpu/extra-{n:02d}", "gpu", "fp32", False, False, 1000.0 - n)
                                     for n in range(16))
    drawn = plotted(tmp, [error_sweep_document("uniform", "2026-02-01T00:00:00Z", rows=many)], "accuracy_many")
    parts = [drawn.get(name, {"styles": {}}) for name in ("m1-error-vs-k-uniform.png", "m1-error-vs-k-uniform-2.png")]
    counts = [len([l for l in series_of(p) if not l.startswith("guide")]) for p in parts]
    check("accuracy plot: twenty rows over two plots of ten series, the baseline in each",
          counts == [10, 10] and all("gpu/cublas-fp32" in p["styles"] for p in parts), counts)
    out_many = os.path.join(tmp, "accuracy_many_report")
    many_text = make_report([write_json(tmp, "evk_many.json",
                                        error_sweep_document("uniform", "2026-02-01T00:00:00Z", rows=many))], out_many)
    check("accuracy plot: the row left out is named under the plots",
          many_text is not None and "Not plotted in error against K, inputs uniform" in many_text
          and "`gpu/extra-15`" in many_text.split("Not plotted in error against K")[-1], (many_text or "")[-800:])


def test_accuracy_error_sums_keep_uniform(tmp):
    """A machine whose only run on seed 003's values is an error-vs-k run: the error-sum table keeps its uniform rows
    (that run has none of the table's sizes)."""
    cpu_rows = (("cpu/gold", "cpu", "fp32", False, False, 2.0),)
    reals = write_json(tmp, "evk_cpu_reals.json", error_sweep_document(
        "reals-1-100", "2026-02-02T00:00:00Z", rows=cpu_rows, context={"hostname": "acc-cpu"}))
    square = write_json(tmp, "square_cpu.json", {"context": {"hostname": "acc-cpu", "timestamp_utc":
                                                             "2026-02-01T00:00:00Z"},
                                                 "results": [dict(VALID_ROW, m=512, n=512, k=512,
                                                                  sum_abs_error=0.25)]})
    text = make_report([reals, square], os.path.join(tmp, "accuracy_sums"))
    error_table = section(text or "", "#### Error sums", "### Source document 004")
    check("accuracy: the error-sum table keeps the uniform rows beside an error-vs-k run on reals",
          "inputs uniform in [−1, 1], not document 003's values" in error_table and "| 0.25 |" in error_table,
          error_table)


def test_accuracy_speed(tmp):
    """Accuracy against speed: the square shape with the most rows that have a rate and an error (ties: the larger),
    the Pareto front by hand (a faster, less accurate row on it, a dominated one off it, ties), and its plot."""
    path = write_json(tmp, "pareto.json", pareto_document())
    out = os.path.join(tmp, "pareto_report")
    status, stdout, stderr = run_in_process([path, "--out", out])
    check("accuracy-speed: a report", status == 0, stderr)
    text = read_report(out)
    if status != 0 or text is None:
        return
    part = section(text, "## 2e. Accuracy", "## 3. Source documents")
    check("accuracy-speed: the shape of most rows, the larger of a tie (64 over 32; not 128 of two rows; not the "
          "non-square 64x64x32)", "accuracy against speed at 64\n" in part and " at 32\n" not in part, part[:600])
    machine = runs.group_machines(runs.load_runs([path]))[0]
    check("accuracy-speed: speed_shape picks 64", accuracy.speed_shape(machine) == (64, 64, 64))
    for backend, device, precision, gflops, error in PARETO_ROWS:
        line = table_line(part, f"| `{backend}` |")
        on = backend in PARETO_FRONT
        check(f"accuracy-speed: {backend} is {'on' if on else 'off'} the front",
              line.endswith("| **yes** |") if on else "| no: `" in line, line)
    check("accuracy-speed: a dominated row names the fastest row that beats it",
          table_line(part, "| `gpu/beaten` |").endswith("| no: `gpu/best-fp32` |")
          and table_line(part, "| `gpu/same-error` |").endswith("| no: `gpu/best-fp32` |")
          and table_line(part, "| `cpu/slow` |").endswith("| no: `gpu/accurate` |"), part)
    check("accuracy-speed: TFLOP/s for GPU rows, GFLOP/s for CPU rows, the error to three digits",
          "| `gpu/fast` | GPU | tf32 | 200 TFLOP/s | 1.00e-03 |" in part
          and "| `gpu/accurate` | GPU | fp32 | 5.00 TFLOP/s | 2.00e-07 |" in part
          and "| `cpu/slow` | CPU | fp32 | 100 GFLOP/s | 3.00e-07 |" in part, part)
    check("accuracy-speed: a multi-GPU row is not a point (section 2c has it)", "gpu/cublasmp-fp32" not in part, part)
    check("accuracy-speed: fastest first", part.find("`gpu/fast`") < part.find("`gpu/best-fp32`")
          < part.find("`gpu/beaten`") < part.find("`cpu/slow`"))
    Point = accuracy.Point
    points = [Point(b, d, p, g, e, False, False, None) for b, d, p, g, e in PARETO_ROWS]
    verdict = accuracy.pareto_front(points)
    check("accuracy-speed: pareto_front by hand",
          {points[i].backend for i, v in verdict.items() if v is None} == PARETO_FRONT, verdict)
    check("accuracy-speed: a faster but less accurate row does not beat a slower, more accurate one",
          not accuracy.dominates(points[0], points[1]) and not accuracy.dominates(points[1], points[0])
          and accuracy.dominates(points[1], points[2]) and not accuracy.dominates(points[1], points[3]))
    name = "m1-accuracy-speed.png"
    check("accuracy-speed: the plot is written, linked and listed", os.path.isfile(os.path.join(out, name))
          and f"]({name})" in text and os.path.join(out, name) in stdout.splitlines(), sorted(os.listdir(out)))
    check("accuracy-speed: no error-vs-k plot without an error-vs-k run",
          not any("error-vs-k" in n for n in os.listdir(out)))
    figure = plotted(tmp, pareto_document(), "pareto_plots").get(name, {"lines": {}, "legend": []})
    front = figure["lines"].get(accuracy.FRONT_LABEL, ([], []))
    expected = sorted(((g, e) for b, _, _, g, e in PARETO_ROWS if b in PARETO_FRONT), reverse=True)
    check("accuracy-speed plot: the front joined through its points, fastest first",
          list(zip(*front)) == expected, front)
    groups = {label: style for label, style in figure.get("styles", {}).items()
              if not label.startswith("_") and label != accuracy.FRONT_LABEL}
    check("accuracy-speed plot: a group per device and precision, each its own colour and marker",
          set(groups) == {"GPU TF32, this project", "GPU FP32, this project", "CPU FP32, this project"}
          and len({c for c, _ in groups.values()}) == len({m for _, m in groups.values()}) == len(groups), groups)
    names = [name for text in figure.get("texts", []) for name in text.split(", ")]
    check("accuracy-speed plot: every row's point is named, rows at one place together, each name once",
          sorted(names) == sorted(b.split("/")[1] for b, *_ in PARETO_ROWS)
          and "best-fp32, twin" in figure.get("texts", []), figure.get("texts"))
    gpu_fp32 = figure["lines"].get("GPU FP32, this project", ([], []))
    check("accuracy-speed plot: every row at the shape is a point", sorted(gpu_fp32[0]) == sorted(
        g for b, d, p, g, _ in PARETO_ROWS if d == "gpu" and p == "fp32"), gpu_fp32)


def hue(color):
    """The hue of a colour in degrees (0–360)."""
    import colorsys
    return colorsys.rgb_to_hsv(*matplotlib.colors.to_rgb(color))[0] * 360


def test_plots_vendor_encoding(tmp):
    """Issue 32's plot review: a vendor library is drawn as one wherever it is, the device's baseline vendor of a file
    written before the `vendor_library` flag included (as the m2 and m5 charts were not): the vendor marker on the
    accuracy-speed plot, a hatched bar; and this project's points and the vendors' of one device and precision have
    hues far apart."""
    fp32 = dict(VALID_ROW, precision="fp32", m=64, n=64, k=64)
    rows = [dict(fp32, backend="cpu/openblas", vendor=True, gflops=400.0, rel_error=3e-7),
            dict(fp32, backend="cpu/onemkl", vendor_library=True, gflops=350.0, rel_error=3.5e-7),
            dict(fp32, backend="cpu/tiling", gflops=40.0, rel_error=8e-7)]
    figure = plotted(tmp, {"context": {"hostname": "old-vendor"}, "results": rows}, "vendor_points") \
        .get("m1-accuracy-speed.png", {"lines": {}})
    vendors = figure["lines"].get("CPU FP32, vendor libraries", ([], []))[0]
    own = figure["lines"].get("CPU FP32, this project", ([], []))[0]
    check("vendor encoding: the baseline vendor without `vendor_library` is a vendor point, as the flagged library is",
          sorted(vendors) == [350.0, 400.0] and own == [40.0], figure["lines"])
    drawn = plotted(tmp, plots_document(), "vendor_bars")
    for size in (2048, 4096):
        hatches = drawn.get(f"m1-h200-vs-vendor-{size}.png", {"hatches": {}})["hatches"]
        check(f"vendor encoding: the baseline vendors' bars at {size} are hatched, this project's not",
              hatches.get("cpu/openblas") and hatches.get("gpu/cublas-fp32") and not hatches.get("cpu/tiling"),
              hatches)
    colours = {key: colour for key, _, colour, _ in accuracy.SPEED_GROUPS}
    for (device, precision, library), colour in colours.items():
        if library:
            apart = abs(hue(colour) - hue(colours[(device, precision, False)]))
            check(f"vendor encoding: {device} {precision}: this project's hue and the vendors' at least 45° apart",
                  min(apart, 360 - apart) >= 45, (colour, colours[(device, precision, False)]))


def test_bar_value_labels(tmp):
    """Issue 32's plot review: a bar's value label starts past the end of its bar and of its IQR whisker, by a gap in
    points (labels such as "0.82×" touched the whisker's cap)."""
    drawn = plotted(tmp, plots_document(), "value_labels")
    for name in ("m1-h200-vs-vendor-2048.png", "m1-h200-vs-vendor-4096.png"):
        figure = drawn.get(name, {"value_labels": [], "spans": {}, "bars": {}})
        labels, spans = figure["value_labels"], figure["spans"]
        check(f"value labels: {name}: one per bar", len(labels) == len(figure["bars"]) > 0, labels)
        check(f"value labels: {name}: some bars have whiskers", len(spans) > 0, spans)
        for text, (x, y), (dx, _), coords in labels:
            whisker_end = spans.get(round(y, 6), (x, x))[1]
            check(f"value labels: {name}: {text!r} starts past its bar and whisker, {plots.VALUE_GAP_POINTS} points on",
                  x >= whisker_end and dx >= 3 and coords == "offset points", (text, x, whisker_end, dx, coords))


def test_plots_roofline_panels(tmp):
    """Issue 32's second plot review: a roofline draws each precision in a panel of its own (the H100's and H200's
    TF32 points hid their FP32 ones at the same intensities), its points small and translucent, this project's filled
    over the vendor libraries' crosses, so that a column of rows at one intensity shows every one of them."""
    documents = list(vendors_documents())
    for one in documents:
        one["context"]["gpu"] = load(FIXTURES[1])["context"]["gpu"]  # its SMs and clocks: the peaks are known
    roof = plotted(tmp, documents, "roofline_panels").get("m1-h100-gpu-roofline.png", {"markers": []})
    kinds = [sorted({label.split(",")[0] for label, *_ in panel}) for panel in roof["markers"]]
    check("roofline: each precision in a panel of its own, FP32 above TF32", kinds == [["FP32"], ["TF32"]], kinds)
    groups = [one for panel in roof["markers"] for one in panel]
    own = [(label, round(size * 72 / roof["dpi"], 1), alpha, filled) for label, _, size, alpha, filled in groups
           if "this project" in label]
    vendor = [(label, filled) for label, _, _, _, filled in groups if "vendor libraries" in label]
    check("roofline: this project's points filled, translucent and of 5 points at most; the vendor libraries' crosses",
          len({label for label, *_ in own}) == len({label for label, _ in vendor}) == 2
          and all(filled and size <= 5 and alpha < 1 for _, size, alpha, filled in own)
          and not any(filled for _, filled in vendor), (own, vendor))
    drawn = [y for label, (_, ys) in roof.get("lines", {}).items() if label.startswith("FP32, ") for y in ys]
    check("roofline: a row whose matrices stay in host memory (cuBLASXt: 1565 GFLOP/s flagged so, 3130 in a file from "
          "before the flag, known by its end-to-end speedup) is not a point under the GPU's memory slope",
          drawn and 1565.0 not in drawn and 3130.0 not in drawn, drawn)


def test_plots_size_labels(tmp):
    """Issue 32's second plot review: the sizes' labels on an x axis keep apart (M5's sweep had 2048, 2560 and 3072
    running together): a tick at every size, a label at every power of two, and between two labels the width of one
    of their characters at least."""
    sizes = (512, 1024, 1536, 2048, 2560, 3072, 4096, 8192)
    rows = [dict(VALID_ROW, backend=backend, device="gpu", m=size, n=size, k=size, precision="fp32",
                 gflops=scale * size, vendor=backend == "gpu/cublas-fp32")
            for size in sizes for backend, scale in (("gpu/cublas-fp32", 10.0), ("gpu/warp-tiled", 3.0))]
    drawn = plotted(tmp, {"context": {"hostname": "sweep", "gpu": {"name": "NVIDIA H200"}}, "results": rows},
                    "size_labels")
    line_plots = {name: figure for name, figure in drawn.items() if "-gflops-" in name}
    check("size labels: the sweep has a GFLOP/s plot", line_plots, sorted(drawn))
    for name, figure in sorted(line_plots.items()):
        ticks, labels = figure["xticks"][0], figure["xlabels"][0]
        check(f"size labels: {name} has a tick at every size and a label at every power of two",
              ticks == list(sizes) and all(label == str(x) for x, label in zip(ticks, labels)
                                           if math.log2(x).is_integer()), (ticks, labels))
        extents = figure["xlabel_extents"][0]
        crowded = [(first, second, round(x0 - x1, 1)) for (first, start, x1), (second, x0, _)
                   in zip(extents, extents[1:]) if x0 - x1 < (x1 - start) / len(first)]
        check(f"size labels: {name}: every two labels a character's width apart or more", extents and not crowded,
              crowded)


def test_plots_bar_panels(tmp):
    """Issue 32's second plot review: a bar chart of more than 40 bars of both devices (M4's 48 at 2048, whose CPU
    estimates down to 0.0004× squeezed the GPU rows into a quarter of the width) is drawn in a panel per device, each
    bar once, on a scale of the panel's own, every bar as high as in one panel."""
    base = dict(VALID_ROW, m=2048, n=2048, k=2048, precision="fp32")
    cpu = [dict(base, backend=f"cpu/step-{n:02d}", gflops=0.05 * (n + 1), vs_vendor=0.0004 * (n + 1))
           for n in range(15)] + [dict(base, backend="cpu/openblas", vendor=True, gflops=100.0, vs_vendor=1.0)]
    for row in cpu[:10]:
        row.update(status="estimated", estimate_rows=64)
    gpu = [dict(base, backend=f"gpu/step-{n:02d}", device="gpu", gflops=1000.0 * (n + 1), vs_vendor=0.02 * (n + 1))
           for n in range(31)] + [dict(base, backend="gpu/cublas-fp32", device="gpu", vendor=True, gflops=50000.0,
                                       vs_vendor=1.0)]
    context = {"hostname": "bars", "cpu_model": "x", "gpu": {"name": "NVIDIA H100"}}
    drawn = plotted(tmp, {"context": context, "results": cpu + gpu}, "bar_panels")
    chart = drawn.get("m1-h100-vs-vendor-2048.png", {"panels": []})
    labels = [panel["ylabels"] for panel in chart["panels"]]
    check("bar panels: 48 bars of both devices in a panel per device, each bar once, in the chart's order",
          labels == [[row["backend"] for row in cpu], [row["backend"] for row in gpu]], labels)
    limits = [panel["xlim"][0] for panel in chart["panels"]]
    check("bar panels: each panel on its own scale, from half its smallest ratio (the GPU's not at the CPU estimates')",
          len(limits) == 2 and math.isclose(limits[0], 0.0002) and math.isclose(limits[1], 0.01), limits)
    pitches = [panel["height"] / panel["bars"] for panel in chart["panels"] if panel["bars"]]
    check("bar panels: every bar 0.24 inch high or more, in either panel", pitches and min(pitches) >= 0.24, pitches)


def test_accuracy_absent(tmp):
    """Without errors (or with a single row to compare) there is no section and no accuracy plot: the report is as
    before."""
    rows = [dict(VALID_ROW, backend=b, m=s, n=s, k=s) for b in ("cpu/gold", "cpu/blis") for s in (8, 16)]
    lonely = [dict(VALID_ROW, rel_error=1e-7)]
    for label, data in (("no errors", {"context": {"hostname": "h"}, "results": rows}),
                        ("one row with an error", {"context": {"hostname": "h"}, "results": lonely})):
        out = os.path.join(tmp, "no_accuracy_" + label.replace(" ", "_"))
        text = make_report([write_json(tmp, label.replace(" ", "_") + ".json", data)], out)
        check(f"accuracy: {label}: no section", text is not None and "## 2e" not in text
              and "accuracy against speed at" not in text)
        check(f"accuracy: {label}: no accuracy plot", not any("accuracy" in n or "error-vs-k" in n
                                                              for n in os.listdir(out)), os.listdir(out))
    machines = runs.group_machines(runs.load_runs([FIXTURES[0]]))
    check("accuracy: a run without error-vs-k runs has no sweeps", accuracy.error_sweeps(machines[0]) == [])


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

    twins = document(rows=[dict(VALID_ROW, backend="cpu/" + "x" * 300 + tail) for tail in "12"])
    notes = checks.check_document("twins.json", twins)
    names = [row["backend"] for row in twins["results"]]
    check("checks: long names that differ past the cut stay different", names[0] != names[1]
          and all(name.startswith("cpu/xxx") and len(name) <= checks.MAX_NAME_CHARS + 8 for name in names), names)
    check("checks: a note for each cut name", len(notes) == 2, notes)

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
    check("seeds: every seed has its section", all(f"### Source document {s['id']}: {s['title']}" in seed_lines
                                                   for s in seeds.SEEDS))

    plot_dir = os.path.join(tmp, "plots_alone")
    os.makedirs(plot_dir)
    cpu_machine = next(m for m in machines if m.device(m.backends[0]) == "cpu")
    made, left_out = plots.plot_gflops_vs_size(cpu_machine, "cpu", plot_dir)
    names = sorted(name for _, name in made)
    # cpu/blis, the one step beyond the seeds, has one square size measured (its 2048 failed): no line of its own.
    check("plots: a GFLOP/s plot per step family measured at two sizes or more, each a PNG",
          names == ["m1-ryzen-16c-cpu-gflops-seed003.png", "m1-ryzen-16c-cpu-gflops-seed004-loops.png"]
          and all(os.path.isfile(os.path.join(plot_dir, name)) for name in names), names)
    check("plots: every backend fits its family's plot", left_out == [], left_out)
    check("plots: no plot for a device without results", plots.plot_gflops_vs_size(cpu_machine, "gpu", plot_dir)
          == ([], []))
    check("plots: only the PNGs are left", sorted(os.listdir(plot_dir)) == names)

    wrapped = markdown.wrap(["- " + "word " * 40])
    check("markdown: a long line is wrapped, its list item's continuation indented under its text",
          len(wrapped) == 2 and all(len(line) <= markdown.WRAP_WIDTH for line in wrapped)
          and wrapped[0].startswith("- word") and wrapped[1].startswith("  word"), wrapped)
    check("markdown: a line is never broken before a word that would begin a block",
          all(not re.match(r"\s*([-+*>#|]|\d+\.)(\s|$)", line) for line in
              markdown.wrap(["x " * 55 + "- 1. # > | + * " + "y " * 60])[1:]))
    lines = ["para " * 60, "", "- " + "item " * 50, "  - " + "nested " * 30, "", "| a | b |", ""]
    joined = markdown.unwrap("\n".join(markdown.wrap(lines))).split("\n")
    check("markdown: unwrap joins what wrap broke, and only that",
          len(joined) == len(lines) and all(a.split() == b.split() for a, b in zip(joined, lines)), joined)


# The checks in three parts that CTest runs side by side (tests/CMakeLists.txt): what the report says and draws, the
# contract that a bad input, a signal or a failing write keeps, and the fuzzer (a few minutes each on a 2-core VM).
PARTS = {
    "content": (test_deterministic_and_complete, test_layouts_are_shapes_of_their_own, test_suite_section,
                test_run_time_against_budget,
                test_accuracy_error_vs_k, test_error_study_not_a_suite, test_accuracy_error_sums_keep_uniform,
                test_accuracy_speed, test_plots_vendor_encoding, test_bar_value_labels, test_plots_roofline_panels,
                test_plots_size_labels, test_plots_bar_panels, test_accuracy_absent, test_merge_keeps_newer_file,
                test_machines_told_apart_by_caches, test_machines_told_apart_by_gpus, test_estimates_and_seed_values,
                test_modules_alone, test_scaling,
                test_plots_draw_estimates_apart, test_plots_gaps_and_colours, test_plots_readable_axes,
                test_plots_coinciding_series, test_plots_suite, test_plots_series_and_peaks, test_best_vendor,
                test_commit_marks, test_peaks, test_peaks_highest_recorded, test_committed_runs),
    "contract": (test_bad_inputs, test_odd_but_valid, test_output_folder, test_handlers_first, test_signals,
                 test_signal_while_committing),
    "fuzz": (test_fuzz,),
}


def main():
    """test_report.py [PART ...]: the parts named (PARTS), or all of them."""
    names = sys.argv[1:] or list(PARTS)
    unknown = [name for name in names if name not in PARTS]
    if unknown:
        sys.exit(f"test_report.py: no part {', '.join(unknown)}; the parts are {', '.join(PARTS)}")
    with tempfile.TemporaryDirectory() as tmp, DrawOnce():
        for name in names:
            for test in PARTS[name]:
                test(tmp)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
