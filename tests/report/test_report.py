#!/usr/bin/env python3
"""Checks report/make_report.py on the synthetic fixtures next to this file.

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
SCRIPT = os.path.join(HERE, "..", "..", "report", "make_report.py")
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


def main():
    # make_report runs under this same interpreter.
    if importlib.util.find_spec("matplotlib") is None:
        sys.exit(f"{sys.executable} has no matplotlib; run this with a Python that has it, e.g. /usr/bin/python3")
    with tempfile.TemporaryDirectory() as tmp:
        test_deterministic_and_complete(tmp)
        test_merge_keeps_newer_file(tmp)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
