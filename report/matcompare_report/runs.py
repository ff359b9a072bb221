"""Reading and checking `matcompare --format json` files, and merging their rows per machine.

Reading and checking are checks.py's: every check names the file and the field, so that a bad file is refused
with one line that says where to look; nothing here prints or exits (make_report.py turns InputError into the
CLI's error).
"""
import os
import re
from collections import namedtuple

from .checks import MAX_BACKENDS, MAX_SHAPES, InputError, check_document, escape, is_number, read_document, shown

# What the inputs were drawn from (`matcompare --values`); files older than the option drew them uniformly.
UNIFORM = "uniform"


# ------------------------------------------------------------------------------ merging

def nested(mapping, *keys):
    """mapping[k1][k2]…, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(mapping, dict):
            return None
        mapping = mapping.get(key)
    return mapping


def shape_of(row):
    """(M, N, K), and the layout after them where it is not NN: a transposed run is a shape of its own."""
    layout = row.get("layout", "NN")
    return (row["m"], row["n"], row["k"]) if layout == "NN" else (row["m"], row["n"], row["k"], layout)


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


def pairs_of(row):
    """How many pairs the row's ratio to its vendor rests on (0 where the file does not say): one pair has no spread,
    and before a4d0851 its vendor side was the vendor's first run (bench/NOTES.md, "A ratio of one pair")."""
    return whole(row.get("vs_vendor_pairs")) or 0


# name: the file's name as the report shows it; notes: what checks.py escaped or cut in it.
Run = namedtuple("Run", "path name context results notes")


# What tells one machine from another (group_machines): lent machines often share a hostname ("vm") and a CPU model.
MachineKey = namedtuple("MachineKey", "hostname cpu_model caches gpu cores gpus")


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
        self.show_host = False  # another machine has the same hardware label: the label names the hostname, too
        self.run_of = {}  # id(row) -> the Run it came from: each cell can say which commit measured it

    def add(self, run):
        self.runs.append(run)
        values = input_values(run.context)
        rows = self.rows if values == UNIFORM else self.rows_by_values.setdefault(values, {})
        sequence, seen = [], set()
        for row in run.results:
            self.run_of[id(row)] = run
            backend, shape = row["backend"], shape_of(row)
            # Runs arrive oldest first, so a repeated backend and shape keeps the newer row, but a multi-GPU row keeps
            # its run on the most GPUs: the machine's own figure (the scaling section keeps every count).
            if not fewer_gpus(row, rows.get((backend,) + shape)):
                rows[(backend,) + shape] = row
            self.latest_row[backend] = row
            if values == UNIFORM and row.get("speedup_basis") and is_number(row.get("devices")):
                self.scaling_rows[(backend, row["devices"]) + shape] = row
            if backend not in seen:
                seen.add(backend)
                sequence.append(backend)
        merge_order(self.backends, sequence)

    @property
    def context(self):
        return self.runs[-1].context

    @property
    def hardware(self):
        """What the machine is, from its CPU model, cores and GPU ("NVIDIA H100 80GB HBM3 (16-core Intel Xeon host)",
        "2-core Intel Xeon VM (AVX-512)"): lent machines' hostnames are often no more than "vm"."""
        context = self.context
        gpu = nested(context, "gpu", "name")
        cores = self.key.cores or whole(context.get("cpu_cores"))  # the newest file may not record them
        cpu = short_cpu(context.get("cpu_model"))
        if isinstance(gpu, str) and gpu.strip():
            host = " ".join(part for part in (f"{cores}-core" if cores else "", cpu or "CPU", "host") if part)
            gpus = self.key.gpus
            what = f"{gpus}× {gpu} ({host})" if gpus > 1 else f"{gpu} ({host})"
        else:
            vm = " VM" if str(self.key.hostname).strip().lower() == "vm" else ""
            what = (f"{cores}-core " if cores else "") + (cpu or "CPU") + vm if cpu or cores else "CPU only" + vm
            extras = [isa_of(context)] if isa_of(context) else []
            if self.twin:
                extras.append(self.key.caches or "caches not recorded")
            what += f" ({'; '.join(extras)})" if extras else ""
        if self.show_host:
            what += f", host {self.key.hostname or 'unnamed'}"
        return what

    @property
    def label(self):
        return f"M{self.number} · {self.hardware}"

    def commit(self, row):
        """The git commit of the run a row came from ("not recorded" where the file names none)."""
        run = self.run_of.get(id(row))
        commit = run.context.get("git_commit") if run else None
        return commit if isinstance(commit, str) and commit.strip() else "not recorded"

    def file_of(self, row):
        run = self.run_of.get(id(row))
        return run.name if run else ""

    @property
    def shapes(self):
        found = {key[1:] for key in self.rows}
        return sorted(found, key=lambda s: (flops(s), s))

    @property
    def sweep_shapes(self):
        """The shapes some run outside a suite measured: the overview's columns and the per-size tables. A suite's
        problems (DeepBench's 160, a model's layers) have their own section, 2d."""
        found = {shape_of(row) for run in self.runs
                 if input_values(run.context) == UNIFORM and not isinstance(run.context.get("suite"), dict)
                 for row in run.results}
        return sorted(found, key=lambda s: (flops(s), s))

    def row(self, backend, shape):
        return self.rows.get((backend,) + shape)

    def device(self, backend):
        row = self.latest_row[backend]
        return row.get("device") or backend.split("/")[0]


def gpus_of(row):
    """How many GPUs the row ran on (1 where the file does not say)."""
    return whole(row.get("devices")) or 1


def fewer_gpus(row, kept):
    """The row is a multi-GPU backend's on fewer GPUs than the row kept for its backend and shape."""
    return kept is not None and bool(row.get("speedup_basis")) and gpus_of(row) < gpus_of(kept)


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
        notes = check_document(path, document)
        runs.append(Run(path, escape(os.path.basename(path)), document["context"], document["results"], notes))
    # Oldest first, ties by file name: later runs then overwrite earlier rows of the same machine.
    runs.sort(key=lambda r: (str(r.context.get("timestamp_utc") or ""), r.name, r.path))
    return runs


def cpu_caches(context):
    """The cache sizes cpu/blis read ("L1d 32 KiB, L2 1024 KiB, L3 320 MiB"), or "" where the file predates them."""
    found = re.search(r"\((L1d [^)]{0,100})\)", str(context.get("cpu_blis") or ""))
    return found.group(1) if found else ""


def host_of(context):
    """What names a machine before the details that tell machines of one name apart: hostname, CPU model, GPU."""
    return (str(context.get("hostname") or ""), str(context.get("cpu_model") or ""),
            str(nested(context, "gpu", "name") or "none"))


def gpu_count(context):
    """How many GPUs the machine has (the context's `gpus`, every GPU it saw, whatever `--devices` chose), or None
    where the file predates the list."""
    gpus = context.get("gpus")
    return len(gpus) if isinstance(gpus, list) and gpus else None


def joined(value, known, default):
    """A detail a file records, or else its host's one known value, or else `default`."""
    values = sorted(known - {None})
    return value if value is not None else values[0] if len(values) == 1 else default


def group_machines(runs):
    # Lent machines often say no more than "vm" and "AMD EPYC": two such with different logical processors (a 2-GPU
    # host and a 1-GPU one, both "vm" with the same Xeon and GPU model), caches or GPU counts are two machines. A file
    # that does not record one of these joins its host's one known value, and stands apart only where there are
    # several; the caches and GPU counts are compared among files of the same processor count.
    def cores_of(run):
        return whole(run.context.get("cpu_cores")) or None
    cores_known = {}
    for run in runs:
        cores_known.setdefault(host_of(run.context), set()).add(cores_of(run))
    hosts = [host_of(run.context) + (joined(cores_of(run), cores_known[host_of(run.context)], 0),) for run in runs]
    named, counted = {}, {}
    for run, host in zip(runs, hosts):
        named.setdefault(host, set()).add(cpu_caches(run.context) or None)
        counted.setdefault(host, set()).add(gpu_count(run.context))
    machines = {}
    for run, host in zip(runs, hosts):
        caches = joined(cpu_caches(run.context) or None, named[host], "")
        gpus = joined(gpu_count(run.context), counted[host], 1)
        hostname, cpu_model, gpu, cores = host
        key = MachineKey(hostname, cpu_model, caches, gpu, cores, gpus)
        machines.setdefault(key, Machine(key)).add(run)
        machines[key].twin = len(named[host] - {None}) > 1
    ordered = [machines[key] for key in sorted(machines)]
    for machine in ordered:
        for what, count, limit in (("backends", len(machine.backends), MAX_BACKENDS),
                                   ("shapes outside suites", len(machine.sweep_shapes), MAX_SHAPES)):
            if count > limit:
                files = ", ".join(shown(run.path) for run in machine.runs[:3]) + (", …" if len(machine.runs) > 3 else "")
                raise InputError(f"the files of host {shown(machine.key.hostname)} ({files}) hold {count} {what} together; "
                                 f"a report takes at most {limit} per machine")
    # Two machines of the same hardware label are told apart by their hostnames.
    by_label = {}
    for machine in ordered:
        by_label.setdefault(machine.hardware, []).append(machine)
    for same in by_label.values():
        if len(same) > 1 and len({m.key.hostname for m in same}) > 1:
            for machine in same:
                machine.show_host = True
    for number, machine in enumerate(ordered, start=1):
        machine.number = number
        hardware = hardware_slug(machine.context, machine.key.gpus, machine.key.cores)
        machine.slug = f"m{number}-{hardware}" if hardware else f"m{number}"
    return ordered


def whole(value):
    """A positive whole number, or None (a count the file may hold as anything)."""
    return int(value) if is_number(value) and value >= 1 and value == int(value) and value < 1e9 else None


def short_cpu(model):
    """The CPU model without trademarks, "CPU", "Processor" and the clock: "Intel(R) Xeon(R) Processor" is "Intel
    Xeon"; "" where the file names none."""
    if not isinstance(model, str):
        return ""
    text = re.sub(r"\((R|TM|r|tm)\)", "", model)
    text = re.sub(r"@.*$", "", text)
    text = re.sub(r"\b(CPU|Processor|processor)\b", "", text)
    return " ".join(text.split())[:60]


# OpenBLAS's kernel families (context.openblas.core) and what they say of the vector instructions.
AVX512_CORES = ("skylakex", "cooperlake", "sapphirerapids")
AVX2_CORES = ("haswell", "zen", "skylake", "alderlake")


def isa_of(context):
    """"AVX-512" or "AVX2" where the run says which kernels its libraries picked, else ""."""
    core = str(nested(context, "openblas", "core") or "").lower()
    blis = str(context.get("cpu_blis") or "").lower()
    if core in AVX512_CORES or blis.startswith("avx512"):
        return "AVX-512"
    if core in AVX2_CORES or blis.startswith("avx2"):
        return "AVX2"
    return ""


# Words of a GPU name that say nothing of which chip it is: dropped from the plot files' names.
GPU_NAME_NOISE = re.compile(r"^(nvidia|geforce|tesla|quadro|\d+gb|hbm\d*e?|pcie|sxm\d*|nvl|gddr\d*x?)$")


def hardware_slug(context, gpus=1, cores=0):
    """A short ASCII name of the hardware for file names: "h100", "2x-h200", "rtx-4070", "epyc-2c", "xeon-16c"."""
    gpu = nested(context, "gpu", "name")
    if isinstance(gpu, str) and gpu.strip():
        words = [w for w in re.split(r"[^a-z0-9]+", gpu.lower()) if w and not GPU_NAME_NOISE.match(w)]
        several = f"{gpus}x-" if gpus > 1 else ""
        return (several + "-".join(words[:2]))[:24]
    words = [w for w in re.split(r"[^a-z0-9]+", short_cpu(context.get("cpu_model")).lower())
             if w and w not in ("intel", "amd")]
    cores = cores or whole(context.get("cpu_cores"))
    return "-".join(words[:1] + ([f"{cores}c"] if cores else []))[:24]



def gflops_of(row):
    return positive(row.get("gflops")) if has_figure(row) else None

