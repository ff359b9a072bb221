"""Reading and checking `matcompare --format json` files, and merging their rows per machine.

Every check names the file and the field, so that a bad file is refused with one line that says
where to look; nothing here prints or exits (make_report.py turns InputError into the CLI's error).
"""
import json
import math
import os
import re
from collections import namedtuple

# Larger than any sweep matcompare writes (a full --all sweep is well under 1 MiB) by far, small
# enough that reading it whole is harmless.
MAX_FILE_BYTES = 64 * 2**20
# "skipped": files written before --budget, where a row did not fit --time-limit.
STATUSES = ("ok", "estimated", "failed", "skipped", "unavailable")
MAX_EXTENT = 2**31 - 1  # the largest M, N or K the CLI accepts
# Result fields that are a number or null, and those that are text or null, where present.
NUMBER_FIELDS = ("alpha", "beta", "median_ms", "min_ms", "max_ms", "cv", "samples", "total_ms", "total_min_ms",
                 "total_samples", "gflops", "vs_vendor", "vs_precision_vendor", "estimated_run_s", "estimate_rows",
                 "estimate_subset_ms", "estimate_ms_per_row", "budget_s", "spent_s", "max_abs_error", "sum_abs_error",
                 "rel_error", "blas_ratio", "devices", "speedup", "efficiency", "verified_rows")
TEXT_FIELDS = ("device", "seed", "idea", "precision", "reason", "speedup_basis", "verification_sample")
FLAG_FIELDS = ("vendor", "passed")
CONTEXT_TEXT_FIELDS = ("hostname", "cpu_model", "timestamp_utc", "git_commit", "command_line", "input_values")
# What the inputs were drawn from (`matcompare --values`); files older than the option drew them uniformly.
UNIFORM = "uniform"
CONTEXT_OBJECT_FIELDS = ("gpu", "openblas", "timing")


class InputError(Exception):
    """A file the report cannot use; the message names the file and what is wrong with it."""


# ------------------------------------------------------------------------------ reading

def read_document(path):
    """The file's JSON value; InputError for a missing, huge, non-UTF-8, truncated or malformed file."""
    try:
        size = os.stat(path).st_size
        if not os.path.isfile(path):
            raise InputError(f"'{path}' is not a file")
        if size > MAX_FILE_BYTES:
            raise InputError(f"'{path}' is {size / 2**20:.0f} MiB; a result file may have at most "
                             f"{MAX_FILE_BYTES // 2**20} MiB")
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputError(f"cannot read '{path}': {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"'{path}' is not UTF-8 text (byte {error.start} is 0x{data[error.start]:02x}); "
                         "expected the JSON of `matcompare --format json`") from None
    if not text.strip():
        raise InputError(f"'{path}' is empty; expected the JSON of `matcompare --format json`")

    def refuse_constant(name):
        raise InputError(f"'{path}' holds {name}, which is not JSON (matcompare writes null for an unknown number)")

    try:
        document = json.loads(text, parse_constant=refuse_constant)
        non_finite = first_non_finite(document, "")
    except json.JSONDecodeError as error:
        # A string can only run on to the end of the text, since JSON strings hold no raw line breaks.
        if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string"):
            raise InputError(f"'{path}' is truncated: its JSON stops at line {error.lineno} before it is "
                             "complete") from None
        raise InputError(f"'{path}' is not valid JSON: {error.msg} (line {error.lineno}, column "
                         f"{error.colno})") from None
    except RecursionError:
        raise InputError(f"'{path}' nests its JSON too deeply to be a matcompare result file") from None
    if non_finite is not None:
        raise InputError(f"'{path}': {non_finite} is a number too large for a float")
    return document


def first_non_finite(value, where):
    """Where the first infinite number is (JSON like 1e999 reads as infinity), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the document"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = first_non_finite(item, f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}".lstrip("."))
        if found is not None:
            return found
    return None


# ----------------------------------------------------------------------------- checking

def type_name(value):
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_document(path, document):
    """InputError unless the document has the shape that `matcompare --format json` writes."""
    def refuse(where, expected, value=None, missing=False):
        found = "is missing" if missing else f"is {type_name(value)}"
        if is_number(value) or isinstance(value, str):
            shown = repr(value)
            found += f" ({shown[:40]}…)" if len(shown) > 40 else f" ({shown})"
        raise InputError(f"'{path}': {where} must be {expected} but {found}")

    def field(mapping, key, where, expected, accepts, required):
        if key not in mapping:
            if required:
                refuse(where, expected, missing=True)
            return
        value = mapping[key]
        if not accepts(value):
            refuse(where, expected, value)

    if not isinstance(document, dict):
        refuse("the document", 'an object with "context" and "results" (the output of `matcompare --format json`)',
               document)
    field(document, "context", "context", "an object", lambda v: isinstance(v, dict), True)
    field(document, "results", "results", "an array", lambda v: isinstance(v, list), True)

    context = document["context"]
    for key in CONTEXT_TEXT_FIELDS:
        field(context, key, f"context.{key}", "a string or null", lambda v: v is None or isinstance(v, str), False)
    for key in CONTEXT_OBJECT_FIELDS:
        field(context, key, f"context.{key}", "an object or null", lambda v: v is None or isinstance(v, dict), False)

    for index, row in enumerate(document["results"]):
        where = f"results[{index}]"
        if not isinstance(row, dict):
            refuse(where, "an object", row)
        field(row, "backend", f"{where}.backend", "a backend name",
              lambda v: isinstance(v, str) and v.strip() != "", True)
        for key in ("m", "n", "k"):
            field(row, key, f"{where}.{key}", f"an integer from 1 to {MAX_EXTENT}",
                  lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_EXTENT, True)
        field(row, "status", f"{where}.status", "one of " + ", ".join(STATUSES), lambda v: v in STATUSES, True)
        for key in NUMBER_FIELDS:
            field(row, key, f"{where}.{key}", "a number or null", lambda v: v is None or is_number(v), False)
        for key in TEXT_FIELDS:
            field(row, key, f"{where}.{key}", "a string or null", lambda v: v is None or isinstance(v, str), False)
        for key in FLAG_FIELDS:
            field(row, key, f"{where}.{key}", "true, false or null", lambda v: v is None or isinstance(v, bool),
                  False)
        if row["status"] in ("ok", "estimated"):
            # A row with a figure must say how long it took: every table and plot is built on it.
            for key in ("median_ms", "gflops"):
                field(row, key, f"{where}.{key} (status {row['status']})", "a positive number",
                      lambda v: is_number(v) and v > 0, True)
        if row["status"] == "estimated":
            field(row, "estimate_rows", f"{where}.estimate_rows (status estimated)", "a positive integer",
                  lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0, True)


# ------------------------------------------------------------------------------ merging

def nested(mapping, *keys):
    """mapping[k1][k2]…, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(mapping, dict):
            return None
        mapping = mapping.get(key)
    return mapping


def shape_of(row):
    return row["m"], row["n"], row["k"]


def flops(shape):
    return 2 * shape[0] * shape[1] * shape[2]


def is_ok(row):
    return row is not None and row.get("status") == "ok"


def is_estimate(row):
    return row is not None and row.get("status") == "estimated"


def has_figure(row):
    """Measured, or estimated from the first rows of C: either way the row has a time and GFLOP/s."""
    return is_ok(row) or is_estimate(row)


def input_values(context):
    return str(context.get("input_values") or UNIFORM)


def positive(value):
    """The number, or None: matcompare writes 0 or null for a ratio it could not form."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


Run = namedtuple("Run", "path name context results")


class Machine:
    """Everything measured on one machine, merged over the files that came from it."""

    def __init__(self, key):
        self.key = key
        self.runs = []        # oldest first
        self.rows = {}        # (backend, m, n, k) -> result row, from runs on uniform [-1, 1] inputs
        # The same from runs on other inputs (seed 003's values), per `input_values`: only the error-sum table
        # reads them, so they never stand in for a uniform row.
        self.rows_by_values = {}
        self.backends = []    # in matcompare's registry order
        self.latest_row = {}  # backend -> its row from the newest run, for device and precision
        # (backend, GPUs, m, n, k) -> row of a multi-GPU backend (one with speedup_basis): runs with different
        # --devices are all kept, so the scaling section sees every GPU count.
        self.scaling_rows = {}
        self.number = 0
        self.slug = ""
        self.twin = False  # another machine has the same hostname, CPU model and GPU: the label names the caches

    def add(self, run):
        self.runs.append(run)
        values = input_values(run.context)
        rows = self.rows if values == UNIFORM else self.rows_by_values.setdefault(values, {})
        sequence = []
        for row in run.results:
            backend, shape = row["backend"], shape_of(row)
            # Runs arrive oldest first, so a repeated backend and shape keeps the newer row.
            rows[(backend,) + shape] = row
            self.latest_row[backend] = row
            if values == UNIFORM and row.get("speedup_basis") and is_number(row.get("devices")):
                self.scaling_rows[(backend, row["devices"]) + shape] = row
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
        if self.twin:
            what += f"; {self.key[2] or 'caches not recorded'}"
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
    """Every file read and checked before any is used: one bad file stops the report before it writes."""
    runs = []
    for path in paths:
        document = read_document(path)
        check_document(path, document)
        runs.append(Run(path, os.path.basename(path), document["context"], document["results"]))
    # Oldest first, ties by file name: later runs then overwrite earlier rows of the same machine.
    runs.sort(key=lambda r: (str(r.context.get("timestamp_utc") or ""), r.name, r.path))
    return runs


def cpu_caches(context):
    """The cache sizes cpu/blis read ("L1d 32 KiB, L2 1024 KiB, L3 320 MiB"), or "" where the file predates them."""
    found = re.search(r"\((L1d [^)]*)\)", str(context.get("cpu_blis") or ""))
    return found.group(1) if found else ""


def group_machines(runs):
    # Lent machines often say no more than "vm" and "AMD EPYC": two such with different caches are two machines.
    # A file that names no caches joins its host's one machine, and stands alone only where there are several.
    named = {}
    for run in runs:
        context = run.context
        host = (str(context.get("hostname") or ""), str(context.get("cpu_model") or ""),
                str(nested(context, "gpu", "name") or "none"))
        named.setdefault(host, set()).add(cpu_caches(context))
    machines = {}
    for run in runs:
        context = run.context
        host = (str(context.get("hostname") or ""), str(context.get("cpu_model") or ""),
                str(nested(context, "gpu", "name") or "none"))
        caches = cpu_caches(context)
        known = sorted(named[host] - {""})
        if not caches and len(known) == 1:
            caches = known[0]
        key = host[:2] + (caches,) + host[2:]
        machines.setdefault(key, Machine(key)).add(run)
        machines[key].twin = len(known) > 1
    ordered = [machines[key] for key in sorted(machines)]
    for number, machine in enumerate(ordered, start=1):
        machine.number = number
        host = re.sub(r"[^a-z0-9]+", "-", machine.key[0].lower()).strip("-")[:40]
        machine.slug = f"m{number}-{host}" if host else f"m{number}"
    return ordered



def gflops_of(row):
    return positive(row.get("gflops")) if has_figure(row) else None

