"""Runs report/make_report.py inside this process and checks what `matcompare report` promises on what it left:
exit 0 with a complete report (README.md and every plot it links, nothing else, and at most one warning line), or
exit 2 with exactly one `matcompare: error:` line and no file or folder made or changed; never a traceback. On
success stdout lists what was written (a line that counts the plots, then README.md and each plot, one path a line);
on failure it is empty. Shared by test_report.py and fuzz_report.py.
"""
import contextlib
import hashlib
import io
import os
import re
import stat
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "report"))
SCRIPT = os.path.join(REPORT_DIR, "make_report.py")
if REPORT_DIR not in sys.path:
    sys.path.insert(0, REPORT_DIR)
import make_report  # noqa: E402  (as a module: its signal handlers are installed only when run as the script)
from matcompare_report import accuracy, interrupt, plots, scaling  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EXIT_OK, EXIT_BAD_INPUT = 0, 2


def run_in_process(args):
    """(exit status, stdout, stderr) of make_report.main(args). An exception that escapes main() is a failure of
    the contract: its traceback is put into stderr and the status is "traceback"."""
    out, err = io.StringIO(), io.StringIO()
    # "always": a warning that gets past the generator shows on every run, as it would in a process of its own.
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("always")
        try:
            make_report.main(list(args))
            status = "returned without exiting"
        except SystemExit as done:
            status = done.code
        except BaseException:  # noqa: BLE001  (any escape is what the check is for)
            traceback.print_exc()
            status = "traceback"
    interrupt._cleanups.clear()  # the signal handler's list: only a process of its own uses it
    return status, out.getvalue(), err.getvalue()


class DrawOnce:
    """Inside it, a plot whose drawing function gets exactly the spec it got before is not drawn again: the PNG it wrote
    then is written instead. Drawing costs a good part of a second, and the tests draw the same fixtures' plots many
    times over (about two thirds of test_report's time, three quarters of the fuzzer's). The functions are
    deterministic: test_report.py's first check draws the fixtures' plots twice for real and compares the bytes
    (every drawer but draw_scaling, which the fixtures do not reach). A test that reads the figures as they are drawn,
    or makes their saving fail, draws inside drawing_for_real()."""

    # Each takes (spec, out_dir, name), the spec a tuple of plain values: the key is the drawer, the spec's repr and the
    # file's name (by the drawer's place, not its __name__: a DrawOnce inside another wraps the outer one's wrappers).
    DRAWERS = ((plots, "draw_lines"), (plots, "draw_bars"), (plots, "draw_roofline"), (scaling, "draw_scaling"),
               (accuracy, "draw_accuracy_speed"))

    def __init__(self):
        self.cache = {}
        self.drawn = 0
        self.saved = [getattr(module, name) for module, name in self.DRAWERS]

    def wrap(self, drawer, function):
        def draw(spec, out_dir, name):
            key = (drawer, repr(spec), name)
            if key not in self.cache:
                function(spec, out_dir, name)
                self.drawn += 1
                with open(os.path.join(out_dir, name), "rb") as handle:
                    self.cache[key] = handle.read()
            else:
                with open(os.path.join(out_dir, name), "wb") as handle:
                    handle.write(self.cache[key])
            return name
        draw.real = function
        return draw

    def __enter__(self):
        for (module, name), function in zip(self.DRAWERS, self.saved):
            setattr(module, name, self.wrap(f"{module.__name__}.{name}", function))
        return self

    def __exit__(self, *exc):
        for (module, name), function in zip(self.DRAWERS, self.saved):
            setattr(module, name, function)


@contextlib.contextmanager
def drawing_for_real():
    """Every plot drawn in full inside, within a DrawOnce or not."""
    current = [(module, name, getattr(module, name)) for module, name in DrawOnce.DRAWERS]
    for module, name, function in current:
        setattr(module, name, getattr(function, "real", function))
    try:
        yield
    finally:
        for module, name, function in current:
            setattr(module, name, function)


def snapshot(root):
    """Every file, folder and link under `root`: {relative path: (kind, mode, content hash or link target)}."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                found[os.path.relpath(path, root)] = ("link", mode, os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, root)] = ("file", mode, hashlib.sha1(handle.read()).hexdigest())
            else:
                found[os.path.relpath(path, root)] = ("folder", mode, "")
    return found


def differences(before, after, limit=4):
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return ", ".join(changed[:limit]) + (f" and {len(changed) - limit} more" if len(changed) > limit else "")


def report_problems(out):
    """What is missing from, or extra in, the report folder `out`."""
    readme = os.path.join(out, "README.md")
    if not os.path.isfile(readme):
        return ["no README.md"]
    with open(readme, "rb") as handle:
        data = handle.read()
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ["README.md is not UTF-8"]
    if not text.startswith("# matcompare report\n") or not text.endswith("\n"):
        problems.append("README.md is not a whole report")
    links = set(re.findall(r"!\[(?:[^\]\\]|\\.)*\]\(([^)]+)\)", text))
    for link in sorted(links):
        path = os.path.join(out, link)
        if not os.path.isfile(path):
            problems.append(f"the linked plot {link} is missing")
            continue
        with open(path, "rb") as handle:
            if handle.read(len(PNG_MAGIC)) != PNG_MAGIC:
                problems.append(f"{link} is not a PNG")
    extra = sorted(set(os.listdir(out)) - links - {"README.md"})
    if extra:
        problems.append(f"files the report does not link: {extra[:4]}")
    return problems


def listing_problems(stdout, out):
    """What is wrong with stdout's list of the files a report wrote into `out` (as --out was given)."""
    lines = stdout.splitlines()
    if not os.path.isdir(out):
        return []  # report_problems says so
    names = sorted(os.listdir(out))
    plots = len(names) - 1
    first = f"matcompare: wrote the report into {out}: README.md and {plots} plot{'s' * (plots != 1)}"
    listed = [line[len(out) + 1:] if line.startswith(out + os.sep) else line for line in lines[1:]]
    if not lines or lines[0] != first:
        return [f"stdout's first line is not {first!r}: {stdout[:200]!r}"]
    if listed[:1] != ["README.md"] or sorted(listed) != names:
        return [f"stdout does not list the files written, README.md first: {listed[:4]} against {names[:4]}"]
    return []


def contract_problems(status, stdout, stderr, root, before, out, expected=None):
    """What breaks the contract in one run whose files all live under `root` (snapshot `before` the run) and whose
    report goes to `out`; `expected` is the exit status the case must have, if one. An empty list: kept."""
    after = snapshot(root)
    problems = []
    if expected is not None and status != expected:
        problems.append(f"exit status {status!r}, expected {expected}")
    if "Traceback" in stderr or status == "traceback":
        problems.append("a traceback: " + stderr[-600:])
    if stdout and status != EXIT_OK:
        problems.append(f"stdout is not empty: {stdout[:100]!r}")
    lines = stderr.splitlines()
    if status == EXIT_OK:
        problems += listing_problems(stdout, out)
        out_key = os.path.relpath(out, root)
        if len(lines) > 1 or (lines and not lines[0].startswith("matcompare: warning: ")):
            problems.append(f"more than one warning line on success: {stderr[:300]!r}")
        problems += report_problems(out)
        # Nothing but --out may change, and nothing may be left beside it.
        outside = {k: v for k, v in after.items() if k != out_key and not k.startswith(out_key + os.sep)}
        was_outside = {k: v for k, v in before.items() if k != out_key and not k.startswith(out_key + os.sep)}
        if outside != was_outside:
            problems.append("files beside --out changed: " + differences(was_outside, outside))
    elif status == EXIT_BAD_INPUT or (status == make_report.EXIT_INTERNAL and expected == status):
        if len(lines) != 1 or not lines[0].startswith("matcompare: error: "):
            problems.append(f"not exactly one error line: {stderr[:400]!r}")
        if after != before:
            problems.append("files changed: " + differences(before, after))
    else:
        problems.append(f"exit status {status!r}: {stderr[-400:]!r}")
    return problems
