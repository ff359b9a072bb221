"""Each machine's peaks: per device the FP32 (and TF32) rate and the memory bandwidth, and how each was found; and a
row's % of peak.

A run that records its peaks (`context.peaks`) is quoted as it is. GPU runs made before that field are derived here
from what the run says of its GPU (`context.gpu`): FP32 = SMs × FP32 lanes per SM × 2 × the maximum SM clock, TF32 =
SMs × dense TF32 flop per clock per SM × the same clock, bandwidth = the maximum memory clock × 2 × the bus width ÷ 8,
each per compute capability or GPU name from the tables below. A CPU's peak is never guessed: without
`context.peaks` it is "not recorded".
"""
import math
import re
from collections import namedtuple

from .markdown import DASH, fmt_gflops, table
from .runs import gpus_of, positive, whole

# source: "recorded" (context.peaks), "derived" (from context.gpu, here) or "" (unknown). Rates in GFLOP/s and GB/s.
Peak = namedtuple("Peak", "device name fp32 tf32 bandwidth basis source")

# FP32 lanes (FMA units) per SM by compute capability (major, minor); a major alone covers all its minors.
FP32_LANES = {(7,): 64, (8, 0): 64, (8, 6): 128, (8, 7): 128, (8, 9): 128, (9, 0): 128, (10,): 128, (12,): 128}
# Dense TF32 tensor-core flop per clock per SM (A100, GA10x, Ada, Hopper).
TF32_FLOP_PER_CLOCK = {(8, 0): 1024, (8, 6): 256, (8, 9): 256, (9, 0): 2048}
# Memory bus width by GPU name, for runs made before context.gpu.memory_bus_bits: (pattern, bits, what it is).
BUS_BITS = ((re.compile(r"\bH100\b.*\bHBM3\b"), 5120, "H100 80GB HBM3"), (re.compile(r"\bH200\b"), 6144, "H200"))
# A derived rate beyond these is not a machine's: the fields it came from are not what they say.
MIN_RATE, MAX_RATE = 1e-9, 1e12

NOT_RECORDED = "peak not recorded in this run"


def capability(value):
    """(major, minor) of "9.0" (or 9.0), else None."""
    found = re.fullmatch(r"\s*(\d{1,3})\.(\d{1,3})\s*", str(value)) if isinstance(value, (str, int, float)) else None
    return (int(found.group(1)), int(found.group(2))) if found else None


def by_capability(table, cc):
    return table.get(cc, table.get(cc[:1])) if cc else None


def rate(value):
    return value if value is not None and MIN_RATE <= value <= MAX_RATE and math.isfinite(value) else None


def fmt_mhz(value):
    return f"{value:g}"


def derive_gpu(gpu):
    """The Peak of the GPU a run describes, derived; rates it cannot derive are None, and its basis says why."""
    name = str(gpu.get("name") or "GPU")
    sms, clock = whole(gpu.get("multiprocessors")), positive(gpu.get("sm_clock_max_mhz"))
    cc = capability(gpu.get("compute_capability"))
    cc_text = f"{cc[0]}.{cc[1]}" if cc else "not recorded"
    lanes, tf32_rate = by_capability(FP32_LANES, cc), by_capability(TF32_FLOP_PER_CLOCK, cc)
    basis = []
    fp32 = tf32 = bandwidth = None
    if sms and clock and lanes:
        fp32 = rate(sms * lanes * 2 * clock / 1000)
    if fp32:
        basis.append(f"FP32 = {sms} SMs × {lanes} FP32 lanes × 2 × {fmt_mhz(clock)} MHz (compute capability {cc_text})")
    else:
        basis.append(f"FP32 not derived (SMs {gpu.get('multiprocessors')}, max SM clock {gpu.get('sm_clock_max_mhz')}"
                     f" MHz, compute capability {cc_text})")
    if sms and clock and tf32_rate:
        tf32 = rate(sms * tf32_rate * clock / 1000)
    if tf32:
        basis.append(f"TF32 = {sms} SMs × {tf32_rate} dense TF32 flop per clock × {fmt_mhz(clock)} MHz")
    elif cc and cc >= (8, 0):
        basis.append(f"no TF32 rate known here for compute capability {cc_text}")
    memory_clock = positive(gpu.get("memory_clock_max_mhz"))
    bits, bits_source = whole(gpu.get("memory_bus_bits")), "the run's `memory_bus_bits`"
    if not bits:
        found = next(((b, what) for pattern, b, what in BUS_BITS if pattern.search(name)), None)
        bits, bits_source = found if found else (None, "")
        bits_source = f"the {bits_source} bus width from the report's table" if bits else ""
    if memory_clock and bits:
        bandwidth = rate(memory_clock * 2 * bits / 8 / 1000)
    if bandwidth:
        basis.append(f"bandwidth = {fmt_mhz(memory_clock)} MHz × 2 × {bits} bits ÷ 8 ({bits_source})")
    else:
        basis.append("bandwidth not derived (no bus width)" if memory_clock else "bandwidth not derived (no memory "
                                                                                 "clock)")
    return Peak("gpu", name, fp32, tf32, bandwidth, "derived: " + "; ".join(basis), "derived" if fp32 else "")


def higher(a, b):
    """The larger of two rates, either of which may be None (not recorded)."""
    return b if a is None else a if b is None else max(a, b)


def recorded_peaks(machine):
    """Per device, the highest rates the machine's runs recorded (context.peaks), each field its own highest, the
    name and basis of the run with the highest FP32 rate (the newest on a tie); [] where none recorded any. A CPU's
    rates are measured as each run starts, and read low on a busy host or a slower one of the same model (the H200
    hosts: 954 to 1,993 GFLOP/s, 52 to 98 GB/s over ten runs): the best measurement is the ceiling."""
    best = {}
    for run in machine.runs:
        entries = run.context.get("peaks")
        if not isinstance(entries, list):
            continue
        for e in entries:
            if not isinstance(e, dict):
                continue
            peak = Peak(str(e.get("device") or ""), str(e.get("name") or DASH), rate(positive(e.get("fp32_gflops"))),
                        rate(positive(e.get("tf32_gflops"))), rate(positive(e.get("bandwidth_gbs"))),
                        str(e.get("basis") or "basis not recorded"), "recorded")
            kept = best.get(peak.device)
            if kept is None:
                best[peak.device] = peak
                continue
            lead = peak if (peak.fp32 or 0) >= (kept.fp32 or 0) else kept
            best[peak.device] = lead._replace(fp32=higher(kept.fp32, peak.fp32), tf32=higher(kept.tf32, peak.tf32),
                                              bandwidth=higher(kept.bandwidth, peak.bandwidth))
    return list(best.values())


def machine_peaks(machine):
    """[Peak] of the machine's devices: each recorded one, a derived GPU peak where none is recorded, and the CPU as
    "not recorded" where no peak of it is. Computed once per machine."""
    cached = getattr(machine, "_peaks", None)
    if cached is not None:
        return cached
    peaks = [p for p in recorded_peaks(machine) if p.device in ("cpu", "gpu")]
    devices = {p.device for p in peaks}
    gpu = machine.context.get("gpu")
    if "gpu" not in devices and isinstance(gpu, dict):
        peaks.append(derive_gpu(gpu))
    if "cpu" not in devices:
        cpu = machine.context.get("cpu_model")
        peaks.insert(0, Peak("cpu", str(cpu) if isinstance(cpu, str) and cpu else "CPU", None, None, None,
                             NOT_RECORDED, ""))
    machine._peaks = peaks
    return peaks


def device_peak(machine, device):
    """The first Peak of `device` with an FP32 rate, or None."""
    return next((p for p in machine_peaks(machine) if p.device == device and p.fp32), None)


def peak_rate(machine, device, precision):
    """The peak GFLOP/s that a row of `precision` on `device` is measured against, as matcompare's own % of peak: the
    TF32 peak for TF32 rows, the FP32 peak for every other (3xTF32 too: FP32 accuracy); None where unknown."""
    peak = device_peak(machine, device)
    if peak is None:
        return None
    return peak.tf32 if str(precision or "").lower() == "tf32" else peak.fp32


def percent_of_peak(machine, row):
    """The row's GFLOP/s as a percentage of its device's peak for its precision (times its GPUs), or None."""
    if row is None or row.get("status") not in ("ok", "estimated"):
        return None
    gflops = positive(row.get("gflops"))
    device = row.get("device") or str(row.get("backend", "")).split("/")[0]
    peak = peak_rate(machine, device, row.get("precision"))
    if not gflops or not peak:
        return None
    devices = gpus_of(row)
    return 100.0 * gflops / (peak * devices)


def fmt_percent(value):
    """"76%", "4.2%", "0.031%": two significant digits at least, none lost below 1%."""
    if value is None:
        return DASH
    if round(value, 1) >= 10:
        return f"{value:,.0f}%"
    digits = 1 if value >= 1 else min(8, 1 - math.floor(math.log10(value)))
    return f"{value:.{digits}f}%"


def fmt_rate(value, unit="GFLOP/s"):
    return DASH if value is None else f"{fmt_gflops(value)} {unit}"


PEAKS_TEXT = (
    "Each device's FP32 and TF32 peak and its memory bandwidth: what “% of peak” divides by (TF32 rows by the TF32 "
    "peak, FP32 and 3xTF32 rows by the FP32 peak, a row on several GPUs by that many times the peak) and what the "
    "rooflines are drawn from. Peaks that runs record (`context.peaks`) are quoted, per device and rate the highest "
    "any run of the machine recorded (a CPU's are measured as each run starts, and read low on a busy host). "
    "For GPU runs made before "
    "that field they are derived here from the GPU the run describes: FP32 = SMs × FP32 lanes per SM (64 for compute "
    "capability 7.x and 8.0, 128 for 8.6 to 12.x) × 2 × the maximum SM clock; TF32 = SMs × dense TF32 flop per clock "
    "per SM (1024 for 8.0, 256 for 8.6 and 8.9, 2048 for 9.0) × the same clock; bandwidth = the maximum memory clock "
    "× 2 × the bus width ÷ 8 (the width from `context.gpu.memory_bus_bits`, or for older files from a table by GPU "
    "name: H100 80GB HBM3 5120 bits, H200 6144 bits). These are ceilings at the maximum clock, not datasheet figures: "
    "for the H100 SXM they give 66.9 TFLOP/s FP32 and 3.35 TB/s, as NVIDIA quotes, but 535 TFLOP/s dense TF32 at the "
    "1980 MHz the runs record, where NVIDIA quotes 494.7, the same formula at 1830 MHz. 3xTF32 rows reach FP32 "
    "accuracy on the tensor cores, so their % of the FP32 peak can pass 100%. A CPU's peak is quoted only where its "
    "run recorded one; older CPU runs say “" + NOT_RECORDED + "”.")


def peaks_section(machines):
    rows, bases = [], []
    for machine in machines:
        for peak in machine_peaks(machine):
            rows.append([f"M{machine.number}", peak.device.upper(), peak.name, fmt_rate(peak.fp32),
                         fmt_rate(peak.tf32), fmt_rate(peak.bandwidth, "GB/s"),
                         {"recorded": "recorded by the run", "derived": "derived here"}.get(peak.source, peak.basis)])
            if peak.source:
                bases.append(f"- M{machine.number} {peak.device.upper()}: {peak.basis}")
    if not rows:
        return []
    return (["## 1a. Peaks", "", PEAKS_TEXT, ""]
            + table(["Machine", "Device", "Name", "FP32", "TF32", "Memory bandwidth", "Source"], rows)
            + (["How each was found:", ""] + bases + [""] if bases else []))
