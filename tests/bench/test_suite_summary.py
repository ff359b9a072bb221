#!/usr/bin/env python3
"""bench/suite_summary.py on a run made up here: a ratio that the unpaired medians contradict by more than 1.5 times
is marked with theirs and counted under the geometric mean; one they agree with is not. A ratio timed against the best
vendor itself says its own pairs with it; one composed through the baseline, the fewer of the two rows'. --markdown: a
line per suite with each own row's geometric mean and worst, files joined by "+" as one suite."""
import contextlib
import io
import json
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import suite_summary  # noqa: E402


def row(backend, m, ms, best=None, vendor=False, best_pairs=0):
    return {"backend": backend, "device": "cpu", "vendor_library": vendor, "vendor": False, "m": m, "n": 64,
            "k": 64, "layout": "NN", "beta": 0, "status": "ok", "median_ms": ms, "gflops": 1.0,
            "vs_vendor_pairs": 9, "vs_best_vendor": best, "best_vendor": "cpu/vendor" if best else None,
            "vs_best_vendor_pairs": best_pairs}


run = {"context": {"peaks": [], "git_commit": "abc1234def", "cpu_model": "Test CPU", "omp_threads": 2}, "results": [
    row("cpu/vendor", 1, 1.0, vendor=True), row("cpu/own", 1, 1.0, best=1.2),  # medians 1.0: within 1.5x
    row("cpu/vendor", 2, 1.0, vendor=True), row("cpu/own", 2, 2.0, best=5.0),  # medians 0.5: ten times apart
    row("cpu/vendor", 3, 1.0, vendor=True), row("cpu/own", 3, 1.0, best=0.7, best_pairs=23)]}  # 1.43x: within
with tempfile.TemporaryDirectory() as folder:
    path = pathlib.Path(folder) / "run.json"
    path.write_text(json.dumps(run))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        suite_summary.summarise(str(path))
    table = io.StringIO()
    with contextlib.redirect_stdout(table):
        suite_summary.markdown([str(path), f"{path}+{path}"])
text = out.getvalue()
lines = [line for line in text.splitlines() if "x best vendor" in line]
failures = []
if len(lines) != 3:
    failures.append(f"three shapes listed, got {len(lines)}")
elif "[medians give 0.500]" not in lines[1] or any("medians give" in lines[i] for i in (0, 2)):
    failures.append("only the second shape is marked, with the medians' 0.500")
if len(lines) == 3 and ("9 pairs" not in lines[0] or "23 pairs" not in lines[2]):
    failures.append("pairs: the fewer of the two rows' (9) where composed, its own with the best (23) where timed")
if "1 that the medians contradict" not in text:
    failures.append("the count under the geometric mean")
# The ratios 1.2, 5.0 and 0.7: geometric mean 1.61, worst 0.70; twice over when the file is given twice with "+".
table_lines = table.getvalue().splitlines()
if table_lines[:1] != ["| suite | device | commit | `cpu/own` |"] or len(table_lines) != 4:
    failures.append(f"markdown: a header naming the own row and two lines, got {table_lines}")
elif table_lines[2] != "| run | Test CPU, 2 threads | abc1234 | 1.61 (worst 0.70) over 3 |" or \
        table_lines[3] != "| run | Test CPU, 2 threads | abc1234 | 1.61 (worst 0.70) over 6 |":
    failures.append(f"markdown: geometric mean, worst and count per suite, files joined by + as one: {table_lines}")
for failure in failures:
    print("FAILED:", failure)
print(text)
print(table.getvalue())
sys.exit(1 if failures else 0)
