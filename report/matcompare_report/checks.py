"""Reading and checking one `matcompare --format json` file: every string and number in it is untrusted.

A file is refused with an InputError whose one-line message names the file and the field (`results[3].m`): not
UTF-8, truncated, not JSON, NaN or infinite numbers, a field of the wrong type, a number out of its range, a lone
surrogate in a text the report shows, or more than the limits below. Texts the report shows are made safe instead:
control and bidirectional-format characters are shown escaped (`\\u001b`), and texts over their length are cut
(the cut keeps a short hash, so that different long names stay different); each change is a note the report lists.
Nothing here prints or exits: make_report.py turns InputError into the CLI's error line.
"""
import hashlib
import json
import math
import os
import re

# Larger than any sweep matcompare writes (a full --all sweep is well under 1 MiB) by far; the generator reads and
# checks a file of this size within seconds.
MAX_FILE_BYTES = 64 * 2**20
# Rows in one file, and distinct backends and shapes on one machine (the overview is backends × shapes).
MAX_ROWS = 20_000
MAX_BACKENDS = 200
MAX_SHAPES = 200
# Vendor libraries in one file's context (matcompare lists three), and devices in its peaks.
MAX_VENDORS = 50
MAX_PEAKS = 50
# Characters of a name (backend, device, precision, host, CPU and GPU model...) and of any other text the report
# shows; longer ones are cut with a note.
MAX_NAME_CHARS = 100
MAX_TEXT_CHARS = 1000
# "skipped": files written before --budget, where a row did not fit --time-limit.
STATUSES = ("ok", "estimated", "failed", "skipped", "unavailable")
LAYOUTS = ("NN", "NT", "TN", "TT")
MAX_EXTENT = 2**31 - 1  # the largest M, N or K the CLI accepts
MAX_COUNT = 2**31 - 1
# A time, a rate or a ratio: 0 (matcompare's "could not form it") or within these bounds. Beyond them a figure is
# absurd for any machine and would break the plots' log axes.
MIN_MAGNITUDE, MAX_MAGNITUDE = 1e-9, 1e12
# A number the machines section shows as it is.
MAX_CONTEXT_NUMBER = 1e15

MAGNITUDE_FIELDS = ("median_ms", "min_ms", "max_ms", "total_ms", "total_min_ms", "estimate_subset_ms",
                    "estimate_ms_per_row", "estimated_run_s", "budget_s", "spent_s", "gflops", "vs_vendor",
                    "vs_precision_vendor", "vs_best_vendor", "vs_vendor_q1", "vs_vendor_q3", "speedup", "efficiency",
                    "cv")
COUNT_FIELDS = ("samples", "total_samples", "estimate_rows", "verified_rows", "devices", "vs_vendor_pairs",
                "vs_best_vendor_pairs")
ERROR_FIELDS = ("max_abs_error", "sum_abs_error", "rel_error", "blas_ratio")
FACTOR_FIELDS = ("alpha", "beta")
NUMBER_FIELDS = MAGNITUDE_FIELDS + COUNT_FIELDS + ERROR_FIELDS + FACTOR_FIELDS
# Result texts the report shows: names (cut at MAX_NAME_CHARS) and the rest (MAX_TEXT_CHARS).
NAME_FIELDS = ("device", "precision", "speedup_basis", "seed", "best_vendor")
TEXT_FIELDS = NAME_FIELDS + ("reason", "verification_sample", "idea", "kernel")
FLAG_FIELDS = ("vendor", "vendor_library", "passed")
# Context fields that are text or null, and those that are objects or null.
CONTEXT_TEXT_FIELDS = ("hostname", "cpu_model", "timestamp_utc", "git_commit", "command_line", "input_values")
CONTEXT_NAME_FIELDS = ("hostname", "cpu_model", "input_values")
CONTEXT_OBJECT_FIELDS = ("gpu", "openblas", "timing")
# Fields the machines section shows as they are: text, a number, true/false or null.
CONTEXT_SHOWN = {
    None: ("cpu_cores", "omp_threads", "gpu_unavailable_reason", "host_cache_policy", "version", "build_type",
           "cxx_compiler", "cuda_compiler", "cpu_blis"),
    "openblas": ("config", "core", "parallel", "threads"),
    "gpu": ("name", "compute_capability", "multiprocessors", "l2_mib", "memory_gib", "sm_clock_observed_mhz",
            "sm_clock_max_mhz", "memory_clock_max_mhz", "memory_bus_bits", "driver_version", "runtime_version",
            "cublas_version", "cache_policy"),
    "timing": ("repetitions", "min_time_s", "time_limit_s", "budget_s", "flush_cache"),
}
# Fields of each entry of context.vendors the machines section shows; the names among them are cut shorter.
VENDOR_SHOWN = ("backend", "library", "available", "version", "build", "kernel_path", "threads",
                "unavailable_reason")
VENDOR_NAMES = ("backend", "library")
# Each entry of context.peaks: a device's peak rates and how they were found; the rates are magnitudes or null.
PEAK_TEXTS = ("device", "name", "basis")
PEAK_RATES = ("fp32_gflops", "tf32_gflops", "bandwidth_gbs")

# C0 and C1 controls, DEL, the line and paragraph separators, the bidirectional marks, embeddings, overrides and
# isolates (they reorder the text around them), and lone surrogates (not text at all).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
SURROGATE = re.compile("[\ud800-\udfff]")
# A float literal that might not fit a double: an exponent of three digits or more, or hundreds of digits.
MAYBE_HUGE = re.compile(r"[eE][+-]?0*[1-9][0-9]{2}|[0-9]{300}")


class InputError(Exception):
    """A file the report cannot use; the message names the file and what is wrong with it."""


def escape(text):
    """`text` with every unsafe character written as \\n, \\t or \\uXXXX."""
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return UNSAFE.sub(lambda m: named.get(m.group(), f"\\u{ord(m.group()):04x}"), text)


def shown(text, limit=200):
    """`text` quoted for a one-line message: unsafe characters escaped, cut after `limit` characters."""
    text = escape(str(text))
    return "'" + (text[:limit] + "…" if len(text) > limit else text) + "'"


def cut(whole, head):
    """`head` (the start of `whole`, as shown), "…" and six hex digits of the whole text's hash: long texts that
    differ only past the cut stay different."""
    return f"{head}…#{hashlib.sha256(whole.encode('utf-8')).hexdigest()[:6]}"


def type_name(value):
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# ------------------------------------------------------------------------------ reading

def read_document(path):
    """The file's JSON value; InputError for a missing, huge, non-UTF-8, truncated or malformed file."""
    try:
        size = os.stat(path).st_size
        if not os.path.isfile(path):
            raise InputError(f"{shown(path)} is not a file")
        if size > MAX_FILE_BYTES:
            raise InputError(f"{shown(path)} is {size / 2**20:.0f} MiB; a result file may have at most "
                             f"{MAX_FILE_BYTES // 2**20} MiB")
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read {shown(path)}: {error.strerror}") from None
    if len(data) > MAX_FILE_BYTES:  # grew since stat
        raise InputError(f"{shown(path)} is larger than {MAX_FILE_BYTES // 2**20} MiB, the most a result file "
                         "may have")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{shown(path)} is not UTF-8 text (byte {error.start} is 0x{data[error.start]:02x}); "
                         "expected the JSON of `matcompare --format json`") from None
    if not text.strip():
        raise InputError(f"{shown(path)} is empty; expected the JSON of `matcompare --format json`")

    def refuse_constant(name):
        raise InputError(f"{shown(path)} holds {name}, which is not JSON (matcompare writes null for an unknown "
                         "number)")

    try:
        document = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as error:
        # A string can only run on to the end of the text, since JSON strings hold no raw line breaks.
        if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string"):
            raise InputError(f"{shown(path)} is truncated: its JSON stops at line {error.lineno} before it is "
                             "complete") from None
        raise InputError(f"{shown(path)} is not valid JSON: {error.msg} (line {error.lineno}, column "
                         f"{error.colno})") from None
    except RecursionError:
        raise InputError(f"{shown(path)} nests its JSON too deeply to be a matcompare result file") from None
    except ValueError:
        # Python refuses to read an integer of more than 4300 digits (sys.get_int_max_str_digits).
        raise InputError(f"{shown(path)} holds an integer with thousands of digits, which no matcompare field "
                         "has") from None
    # Only a literal with a large exponent or hundreds of digits can read as infinity: most files skip the walk.
    non_finite = first_non_finite(document, "") if MAYBE_HUGE.search(text) else None
    if non_finite is not None:
        raise InputError(f"{shown(path)}: {non_finite} is a number too large for a float")
    return document


def first_non_finite(value, where):
    """Where the first infinite number is (JSON like 1e999 reads as infinity), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the document"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, (dict, list, float)):
            found = first_non_finite(item, f"{where}[{key}]" if isinstance(key, int)
                                     else f"{where}.{escape(key)[:100]}".lstrip("."))
            if found is not None:
                return found
    return None


# ----------------------------------------------------------------------------- checking

class Checker:
    """Checks one document in place; `notes` collects what was escaped or cut."""

    def __init__(self, path):
        self.path = path
        self.notes = []

    def refuse(self, where, expected, value=None, missing=False):
        found = "is missing" if missing else f"is {type_name(value)}"
        if isinstance(value, str):
            found += f" ({shown(value, 40)})"
        elif is_number(value):
            number = repr(value)
            found += f" ({number[:40]}…)" if len(number) > 40 else f" ({number})"
        raise InputError(f"{shown(self.path)}: {where} must be {expected} but {found}")

    def text(self, where, value, limit):
        """The text as the report shows it: unsafe characters escaped, cut at `limit`; a lone surrogate refused."""
        surrogate = SURROGATE.search(value)
        if surrogate:
            raise InputError(f"{shown(self.path)}: {where} holds a lone surrogate (\\u{ord(surrogate.group()):04x}), "
                             "which is not text")
        # Only what is shown is escaped: a cut text's first `limit` characters, however long the rest.
        head = value[:limit]
        if UNSAFE.search(head):
            head = escape(head)
            self.notes.append(f"`{where}`: control or bidirectional characters, shown escaped (`\\uXXXX`)")
        if len(value) > limit:
            self.notes.append(f"`{where}`: {len(value)} characters, cut to {limit}")
        if len(value) > limit or len(head) > limit:
            return cut(value, head[:limit])
        return head

    def number(self, where, key, value):
        if value is None:
            return
        if key in MAGNITUDE_FIELDS:
            if not is_number(value) or not (value == 0 or MIN_MAGNITUDE <= value <= MAX_MAGNITUDE):
                self.refuse(where, f"a number (0, or from {MIN_MAGNITUDE:g} to {MAX_MAGNITUDE:g}) or null", value)
        elif key in COUNT_FIELDS:
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT):
                self.refuse(where, f"a whole number from 0 to {MAX_COUNT} or null", value)
        elif key in ERROR_FIELDS:
            if not is_number(value) or value < 0:
                self.refuse(where, "a number from 0 up, or null", value)
        elif not is_number(value):
            self.refuse(where, "a number or null", value)

    def each(self, mapping, keys, where, expected, kind):
        """Refuses the first of `keys` in `mapping` that is neither null nor of `kind`."""
        for key in keys:
            value = mapping.get(key)
            if value is not None and not isinstance(value, kind):
                self.refuse(f"{where}.{key}", expected, value)

    def context(self, context):
        self.each(context, CONTEXT_TEXT_FIELDS, "context", "a string or null", str)
        self.each(context, CONTEXT_OBJECT_FIELDS, "context", "an object or null", dict)
        self.each(context.get("gpu") or {}, ("name",), "context.gpu", "a string or null", str)
        for parent, keys in CONTEXT_SHOWN.items():
            mapping = context if parent is None else context.get(parent)
            for key in keys if isinstance(mapping, dict) else ():
                self.shown_value(mapping, key, f"context.{parent}.{key}" if parent else f"context.{key}",
                                 MAX_NAME_CHARS if (parent, key) == ("gpu", "name") else MAX_TEXT_CHARS)
        for key in CONTEXT_TEXT_FIELDS:
            if isinstance(context.get(key), str):
                context[key] = self.text(f"context.{key}", context[key],
                                         MAX_NAME_CHARS if key in CONTEXT_NAME_FIELDS else MAX_TEXT_CHARS)
        self.vendors(context.get("vendors"))
        self.suite(context.get("suite"))
        self.peaks(context.get("peaks"))

    def peaks(self, peaks):
        """context.peaks, each device's FP32 (and TF32) peak and memory bandwidth with how they were derived (older
        files have none): an array of objects whose rates are numbers within the magnitudes' range, or null."""
        for index, peak in enumerate(self.objects(peaks, "context.peaks", MAX_PEAKS, "devices")):
            where = f"context.peaks[{index}]"
            self.each(peak, PEAK_TEXTS, where, "a string or null", str)
            for key in PEAK_TEXTS:
                if isinstance(peak.get(key), str):
                    peak[key] = self.text(f"{where}.{key}", peak[key],
                                          MAX_TEXT_CHARS if key == "basis" else MAX_NAME_CHARS)
            for key in PEAK_RATES:
                value = peak.get(key)
                if value is not None and not (is_number(value)
                                              and (value == 0 or MIN_MAGNITUDE <= value <= MAX_MAGNITUDE)):
                    self.refuse(f"{where}.{key}",
                                f"a number (0, or from {MIN_MAGNITUDE:g} to {MAX_MAGNITUDE:g}) or null", value)

    def suite(self, suite):
        """context.suite, the suite a run's shapes came from (runs by size have none): its name, title and problems."""
        if suite is None:
            return
        if not isinstance(suite, dict):
            self.refuse("context.suite", "an object or null", suite)
        problems = suite.get("shapes")
        if not isinstance(problems, list):
            self.refuse("context.suite.shapes", "an array", problems, missing="shapes" not in suite)
        if len(problems) > MAX_ROWS:
            raise InputError(f"{shown(self.path)}: context.suite.shapes lists {len(problems)} problems; a file may list "
                             f"at most {MAX_ROWS}")
        for key in ("name", "title", "path"):
            self.shown_value(suite, key, f"context.suite.{key}", MAX_NAME_CHARS if key == "name" else MAX_TEXT_CHARS)
        for index, entry in enumerate(problems):
            where = f"context.suite.shapes[{index}]"
            if not isinstance(entry, dict):
                self.refuse(where, "an object", entry)
            for key in ("m", "n", "k"):
                value = entry.get(key)
                if not (isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_EXTENT):
                    self.refuse(f"{where}.{key}", f"an integer from 1 to {MAX_EXTENT}", value, missing=key not in entry)
            if entry.get("layout", "NN") not in LAYOUTS:
                self.refuse(f"{where}.layout", "one of " + ", ".join(LAYOUTS), entry.get("layout"))
            self.shown_value(entry, "name", f"{where}.name", MAX_TEXT_CHARS)

    def vendors(self, vendors):
        """context.vendors, the run's vendor libraries (older files have none): an array of objects."""
        for index, vendor in enumerate(self.objects(vendors, "context.vendors", MAX_VENDORS, "libraries")):
            where = f"context.vendors[{index}]"
            for key in VENDOR_SHOWN:
                self.shown_value(vendor, key, f"{where}.{key}",
                                 MAX_NAME_CHARS if key in VENDOR_NAMES else MAX_TEXT_CHARS)

    def objects(self, value, where, limit, noun):
        """An array of at most `limit` objects at `where`, or null (older files have none): the array, or []."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.refuse(where, "an array or null", value)
        if len(value) > limit:
            raise InputError(f"{shown(self.path)}: {where} lists {len(value)} {noun}; a file may list at most {limit}")
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.refuse(f"{where}[{index}]", "an object", item)
        return value

    def shown_value(self, mapping, key, where, limit):
        value = mapping.get(key)
        if isinstance(value, str):
            mapping[key] = self.text(where, value, limit)
        elif is_number(value):
            if abs(value) > MAX_CONTEXT_NUMBER:
                self.refuse(where, f"a number from {-MAX_CONTEXT_NUMBER:g} to {MAX_CONTEXT_NUMBER:g}", value)
        elif value is not None and not isinstance(value, bool):
            self.refuse(where, "a string, a number, true/false or null", value)

    def row(self, index, row):
        where = f"results[{index}]"
        if not isinstance(row, dict):
            self.refuse(where, "an object", row)
        backend = row.get("backend")
        if not (isinstance(backend, str) and backend.strip() != ""):
            self.refuse(f"{where}.backend", "a backend name", backend, missing="backend" not in row)
        for key in ("m", "n", "k"):
            value = row.get(key)
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_EXTENT):
                self.refuse(f"{where}.{key}", f"an integer from 1 to {MAX_EXTENT}", value, missing=key not in row)
        status = row.get("status")
        if status not in STATUSES:
            self.refuse(f"{where}.status", "one of " + ", ".join(STATUSES), status, missing="status" not in row)
        # Runs made before layouts existed have none: they were NN.
        if "layout" in row and row["layout"] not in LAYOUTS:
            self.refuse(f"{where}.layout", "one of " + ", ".join(LAYOUTS), row["layout"])
        for key in NUMBER_FIELDS:
            if key in row:
                self.number(f"{where}.{key}", key, row[key])
        self.each(row, TEXT_FIELDS, where, "a string or null", str)
        self.each(row, FLAG_FIELDS, where, "true, false or null", bool)
        if status in ("ok", "estimated"):
            # A row with a figure must say how long it took: every table and plot is built on it.
            for key in ("median_ms", "gflops"):
                value = row.get(key)
                if not (is_number(value) and value > 0):
                    self.refuse(f"{where}.{key} (status {status})", "a positive number", value,
                                missing=key not in row)
        if status == "estimated":
            value = row.get("estimate_rows")
            if not (isinstance(value, int) and not isinstance(value, bool) and value > 0):
                self.refuse(f"{where}.estimate_rows (status estimated)", "a positive integer", value,
                            missing="estimate_rows" not in row)
        row["backend"] = self.text(f"{where}.backend", backend, MAX_NAME_CHARS)
        for key in TEXT_FIELDS:
            if isinstance(row.get(key), str):
                row[key] = self.text(f"{where}.{key}", row[key],
                                     MAX_NAME_CHARS if key in NAME_FIELDS else MAX_TEXT_CHARS)


def check_document(path, document):
    """InputError unless the document has the shape that `matcompare --format json` writes; makes the texts the
    report shows safe, in place, and returns the notes on what it changed."""
    checker = Checker(path)
    if not isinstance(document, dict):
        checker.refuse("the document",
                       'an object with "context" and "results" (the output of `matcompare --format json`)', document)
    if not isinstance(document.get("context"), dict):
        checker.refuse("context", "an object", document.get("context"), missing="context" not in document)
    results = document.get("results")
    if not isinstance(results, list):
        checker.refuse("results", "an array", results, missing="results" not in document)
    if len(results) > MAX_ROWS:
        raise InputError(f"{shown(path)} holds {len(results)} results; a file may hold at most {MAX_ROWS}")
    checker.context(document["context"])
    for index, row in enumerate(results):
        checker.row(index, row)
    backends = {row["backend"] for row in results}
    if len(backends) > MAX_BACKENDS:
        raise InputError(f"{shown(path)} holds {len(backends)} backends; a report takes at most {MAX_BACKENDS} "
                         "per machine")
    shapes = {(row["m"], row["n"], row["k"]) for row in results}
    if len(shapes) > MAX_SHAPES:
        raise InputError(f"{shown(path)} holds {len(shapes)} shapes; a report takes at most {MAX_SHAPES} per "
                         "machine")
    return checker.notes
