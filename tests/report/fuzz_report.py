"""A small seeded fuzzer over the report's JSON: COUNT mutations of real runs (the fixtures beside this file,
report/h100_multi_gpu.json for multi-GPU rows and an H100 `--all` run with every vendor library for the best-vendor
fields), each run through make_report.main() in this process, each held to
the contract (report_harness.contract_problems): exit 0 with a complete report, or exit 2 with one error line and
nothing written; never a traceback, never a partial folder, each case within CASE_SECONDS.

The mutations: fields deleted or of another type; NaN, infinite, huge, tiny, negative and fractional numbers (also
as the figures of measured rows), and integers of 5000 digits; odd texts (lone surrogates, control characters, right-to-left overrides, 10,000 and 70,000
characters, Markdown and matplotlib mathematics, emoji), also as the names the plots draw; rows duplicated,
reversed and multiplied (past the limits too), statuses changed, files cut short, bytes that are not UTF-8 and
bytes flipped; a second file from the same host. A quarter of the cases write over an old report, which must then
be either replaced whole or left exactly as it was.

Deterministic: the same SEED gives the same cases. A plot whose drawing function gets exactly the spec it got before
in this run is not drawn again (report_harness.DrawOnce); every other step runs in full for every case.

    /usr/bin/python3 tests/report/fuzz_report.py      (alone; test_report.py runs it too)
"""
import copy
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import time

from report_harness import HERE, REPORT_DIR, DrawOnce, contract_problems, run_in_process, snapshot

from matcompare_report import checks

SEED = 28
COUNT = 300
CASE_SECONDS = 10.0
BASES = [os.path.join(HERE, "sample_cpu.json"), os.path.join(HERE, "sample_gpu.json"),
         os.path.join(REPORT_DIR, "h100_multi_gpu.json"),
         os.path.join(REPORT_DIR, "..", "bench", "data", "h100_vendors_14d011c", "h100_all_2048.json")]

NUMBERS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 1e-300, 1e-12, 1e13, -1.0, -0.0, 0, 0.5, 3, 2.5,
           2**31, 2**31 - 1, 2**53 + 1, 2**63, 10**400, -(10**30), 1e-9, 1e12, 1e15, 1e16]
STRINGS = ["cpu/gold\ud800", "\udfff", "\x1b[31mred\x1b[0m", "line\nbreak", "tab\there", "\x00nul", "\x7f\x85",
           "\u202egnp.exe", "\u2066iso\u2069", "\u2028", "x" * 10_000, "w" * 70_000, "y" * 150, "a|b|c", "`code`",
           "$\\frac{1}{0}$", "$x$ and $", "$\\bogus$", "$x^$", "_leading", "[link](http://x)", "<b>html</b>", "🚀 漢字 عربى", "", " ", "ok", "cpu/blis",
           "gpu/cublas-fp32", "estimated", "uniform", "reals-1-100", "\\", "\"quoted\"", "ℝ" * 200]
ODD_VALUES = [None, True, False, [], {}, [1, 2], {"a": 1}, "text", 0, 1, -1, 1.5, ""]
# Texts that the plots draw: where an odd string does the most harm.
DRAWN_TEXTS = (("results", "backend"), ("context", "hostname"), ("context", "gpu"), ("context", "cpu_cores"),
               ("context", "cpu_model"))
ROW_FIELDS = ("backend", "device", "seed", "precision", "vendor", "m", "n", "k", "status", "reason", "median_ms",
              "min_ms", "max_ms", "cv", "samples", "total_ms", "gflops", "vs_vendor", "vs_precision_vendor",
              "estimate_rows", "max_abs_error", "sum_abs_error", "blas_ratio", "passed", "devices", "speedup",
              "efficiency", "speedup_basis", "verification_sample", "verified_rows", "vendor_library",
              "vs_best_vendor", "best_vendor", "kernel", "vs_vendor_q1", "vs_vendor_q3", "vs_vendor_pairs")
CONTEXT_FIELDS = ("hostname", "cpu_model", "timestamp_utc", "git_commit", "command_line", "input_values", "gpu",
                  "openblas", "timing", "cpu_cores", "cpu_blis", "gpu_unavailable_reason", "version", "vendors",
                  "peaks")
STATUSES = list(checks.STATUSES) + ["OK", "", None, 1]


def paths(value, prefix=()):
    """Every place in a JSON value, as a tuple of keys."""
    found = [prefix]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found += paths(item, prefix + (key,))
    return found


def get(value, path):
    for key in path:
        value = value[key]
    return value


def put(document, path, new):
    if path:
        get(document, path[:-1])[path[-1]] = new


def pick_value(rng):
    return rng.choice(rng.choice([NUMBERS, STRINGS, ODD_VALUES]))


def mutate(rng, document):
    """One mutation of `document` (changed in place): what it did, and the file's bytes (None: JSON of it)."""
    results = document["results"]
    row_index = rng.randrange(len(results))
    kind = rng.choice(["delete", "retype", "number", "string", "row_field", "row_field", "status", "duplicate",
                       "multiply", "reverse", "truncate", "invalid_utf8", "flip", "context", "empty", "drawn",
                       "digits", "figure"])
    if kind == "delete":
        path = rng.choice(paths(document)[1:])
        container = get(document, path[:-1])
        del container[path[-1]]
        return f"delete {path}", None
    if kind == "retype":
        path = rng.choice(paths(document)[1:])
        value = rng.choice(ODD_VALUES)
        put(document, path, value)
        return f"{path} = {value!r}", None
    if kind == "number":
        numeric = [p for p in paths(document)[1:] if isinstance(get(document, p), (int, float))]
        path = rng.choice(numeric)
        value = rng.choice(NUMBERS)
        put(document, path, value)
        return f"{path} = {value!r:.40}", None
    if kind == "string":
        texts = [p for p in paths(document)[1:] if isinstance(get(document, p), str)]
        path = rng.choice(texts)
        value = rng.choice(STRINGS)
        if rng.random() < 0.5:
            old = get(document, path)
            at = rng.randrange(len(old) + 1)
            value = old[:at] + value + old[at:]
        put(document, path, value)
        return f"{path} = {value!r:.60}", None
    if kind == "row_field":
        key = rng.choice(ROW_FIELDS)
        value = pick_value(rng)
        results[row_index][key] = value
        return f"results[{row_index}].{key} = {value!r:.60}", None
    if kind == "status":
        value = rng.choice(STATUSES)
        results[row_index]["status"] = value
        return f"results[{row_index}].status = {value!r}", None
    if kind == "duplicate":
        copies = rng.choice([1, 5, 50])
        results += [copy.deepcopy(results[row_index]) for _ in range(copies)]
        return f"results[{row_index}] repeated {copies} times", None
    if kind == "multiply":
        # New backends or shapes, up to past the limits: plots split, and limits refuse.
        field = rng.choice(["backend", "m"])
        count = rng.choice([31, checks.MAX_BACKENDS + 1] if field == "backend" else [40, checks.MAX_SHAPES + 1])
        row = results[row_index]
        for number in range(count):
            twin = dict(row)
            twin[field] = f"{row['backend']}-{number}" if field == "backend" else 64 + number
            if field == "m":
                twin["n"] = twin["k"] = twin["m"]
            results.append(twin)
        return f"results[{row_index}] multiplied {count} times by {field}", None
    if kind == "reverse":
        results.reverse()  # (a shuffle would draw new plots each time: the backends' order is the rows')
        return "results reversed", None
    if kind == "context":
        key = rng.choice(CONTEXT_FIELDS)
        value = pick_value(rng)
        document["context"][key] = value
        return f"context.{key} = {value!r:.60}", None
    if kind == "figure":
        # A figure the tables and plots are built on, of a row that has one.
        measured = [row for row in results if row.get("status") in ("ok", "estimated")] or results
        key = rng.choice(("gflops", "vs_vendor", "median_ms", "speedup", "vs_precision_vendor", "vs_best_vendor",
                          "vs_vendor_q1", "vs_vendor_q3"))
        value = rng.choice(NUMBERS)
        rng.choice(measured)[key] = value
        return f"a measured row's {key} = {value!r:.40}", None
    if kind == "drawn":
        where, key = rng.choice(DRAWN_TEXTS)
        value = rng.choice(STRINGS)
        if where == "results":
            # Every row of one backend, so that its line and bar carry the name.
            old = results[row_index].get("backend")
            for row in results:
                if row.get("backend") == old:
                    row["backend"] = value
        elif key == "gpu":
            document["context"]["gpu"] = dict(document["context"].get("gpu") or {}, name=value)
        else:
            document["context"][key] = value
        return f"{where} {key} = {value!r:.60}", None
    if kind == "empty":
        document["results"] = []
        return "no results", None
    data = json.dumps(document).encode()
    at = rng.randrange(len(data))
    if kind == "digits":
        text = data.decode()
        numbers = [m.start() for m in re.finditer(r"(?<=: )[0-9]", text)]
        at = rng.choice(numbers) if numbers else 0
        return f"a {5000}-digit integer at character {at}", (text[:at] + "9" * 5000 + text[at:]).encode()
    if kind == "truncate":
        return f"cut at byte {at}", data[:at]
    if kind == "invalid_utf8":
        bad = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\x80\x80"])
        return f"{bad!r} at byte {at}", data[:at] + bad + data[at:]
    new = rng.choice(b'{}[],:"0123456789.eE-+ntfalsu\\ \n')
    return f"byte {at} = {bytes([new])!r}", data[:at] + bytes([new]) + data[at + 1:]


def encoded(rng, document):
    text = json.dumps(document, ensure_ascii=rng.random() < 0.5)
    # A lone surrogate written raw is not UTF-8: the reader must refuse the bytes.
    return text.encode("utf-8", "surrogatepass")


def fuzz(count=COUNT, seed=SEED, report=print):
    """Runs the cases; returns (cases checked, [failure texts]) and reports one summary line."""
    rng = random.Random(seed)
    bases = []
    for path in BASES:
        with open(path, encoding="utf-8") as handle:
            bases.append(handle.read())
    failures, outcomes, slowest = [], {}, (0.0, "")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, DrawOnce() as draw_once:
        # An old report for the cases that write over one.
        old_report = os.path.join(tmp, "old_report")
        status, _, stderr = run_in_process([BASES[0], "--out", old_report])
        if status != 0:
            return 0, [f"the base report failed: {stderr}"]
        for case in range(count):
            base = rng.randrange(len(bases))
            document = json.loads(bases[base])
            what, data = mutate(rng, document)
            if data is None:
                data = encoded(rng, document)
            root = os.path.join(tmp, f"case{case}")
            os.makedirs(root)
            path = os.path.join(root, "run.json")
            with open(path, "wb") as handle:
                handle.write(data)
            files = [path]
            if rng.random() < 0.2:
                # A second file of the same machine: merged, the newer row winning.
                files.insert(0, os.path.join(root, "base.json"))
                shutil.copy(BASES[base], files[0])
            out = os.path.join(root, "out")
            if case % 4 == 0:
                shutil.copytree(old_report, out)
            before = snapshot(root)
            began = time.monotonic()
            status, stdout, stderr = run_in_process(files + ["--out", out])
            took = time.monotonic() - began
            slowest = max(slowest, (took, f"case {case} ({what})"))
            problems = contract_problems(status, stdout, stderr, root, before, out)
            if took > CASE_SECONDS:
                problems.append(f"took {took:.1f} s")
            if problems:
                failures.append(f"fuzz case {case} (seed {seed}, {os.path.basename(BASES[base])}: {what}): "
                                + "; ".join(problems))
            outcomes[status] = outcomes.get(status, 0) + 1
            shutil.rmtree(root)
        drawn = draw_once.drawn
    report(f"fuzz: {count} mutations checked (seed {seed}) in {time.monotonic() - started:.1f} s: "
           f"{outcomes.get(0, 0)} complete reports, {outcomes.get(2, 0)} refusals, {drawn} plots drawn; "
           f"slowest {slowest[0]:.2f} s, {slowest[1][:80]}")
    return count, failures


if __name__ == "__main__":
    checked, found = fuzz(int(sys.argv[1]) if len(sys.argv) > 1 else COUNT)
    for failure in found:
        print("FAIL: " + failure)
    sys.exit(1 if found or not checked else 0)
