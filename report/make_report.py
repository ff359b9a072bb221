#!/usr/bin/env python3
"""Markdown report with plots from `matcompare --format json` result files.

    python3 report/make_report.py FILE.json [FILE.json ...] --out DIR

Writes DIR/README.md and the PNG plots it links. The Markdown depends only on the contents of
the JSON files (not on their order on the command line, the clock or the locale), so the same
files always give the same bytes. This is `matcompare report`: bad input gets the CLI's contract,
one line `matcompare: error: ...` on stderr and exit status 2, and every file is checked before
anything is written. The work is done by the modules of matcompare_report/ beside this file.
"""
import argparse
import logging
import os
import signal
import sys
import warnings

from matcompare_report import scaling, seeds, tables
from matcompare_report.checks import escape, shown
from matcompare_report.runs import InputError, group_machines, load_runs

EXIT_BAD_INPUT = 2
# A fault of the generator itself, not of its input: still one line, never a traceback.
EXIT_INTERNAL = 1


def say(kind, message):
    # One line whatever the message holds.
    print(f"matcompare: {kind}: {escape(message)}", file=sys.stderr, flush=True)


def fail(message, status=EXIT_BAD_INPUT):
    say("error", message)
    sys.exit(status)


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def prepare_folder(path):
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        fail(f"--out {shown(path)} is a file, not a folder")
    except OSError as error:
        fail(f"cannot create --out {shown(path)}: {error.strerror}")
    if not os.access(path, os.W_OK | os.X_OK):
        fail(f"cannot write into --out {shown(path)}")


def write_text(path, text):
    """Writes beside the file and renames it into place: an interrupted report leaves the old file whole."""
    partial = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.partial")
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def import_plots():
    try:
        from matcompare_report import plots
    except ImportError as error:
        fail(f"{shown(sys.executable)} cannot load matplotlib ({error}); install python3-matplotlib, or run the "
             "report with a Python that has it")
    # The user's matplotlibrc must not change the plots, nor matplotlib's log messages reach stderr.
    plots.matplotlib.rcdefaults()
    logging.getLogger("matplotlib").setLevel(logging.CRITICAL + 1)
    return plots


def warning_line(runs, seed_mismatches):
    """At most one line: what was escaped or cut in the files, and seed tables that name backends of another seed."""
    parts = []
    notes = sum(len(run.notes) for run in runs)
    if notes:
        parts.append(f"{notes} text(s) in the input were escaped or cut (listed under \"Input notes\" in the report)")
    if seed_mismatches:
        parts.append(f"{len(seed_mismatches)} seed-table step(s) name a backend whose seed field does not name "
                     f"that seed (first: {seed_mismatches[0]})")
    return "; ".join(parts)


def make_report(files, out_dir):
    """Writes the report; returns the warning line ("" for none)."""
    runs = load_runs(files)
    machines = group_machines(runs)
    seed_mismatches = seeds.check_seed_mapping(machines)
    # Loaded only now: matplotlib takes most of a second, and bad input is refused without it.
    plots = import_plots()
    prepare_folder(out_dir)
    lines = (tables.header_section(runs, machines) + tables.machines_section(machines)
             + tables.overview_section(machines) + tables.fast_path_section(machines)
             + scaling.scaling_section(machines) + seeds.seeds_section(machines)
             + plots.plots_section(machines, out_dir))
    write_text(os.path.join(out_dir, "README.md"), "\n".join(lines).rstrip("\n") + "\n")
    return warning_line(runs, seed_mismatches)


def main():
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="output of `matcompare --format json`")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for README.md and the plots")
    args = parser.parse_args()
    try:
        # Warnings of the libraries (matplotlib's about glyphs, limits or overflow) are not the user's concern.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warning = make_report(args.files, args.out)
        if warning:
            say("warning", warning)
    except InputError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write the report into {shown(args.out)}: {error.strerror or error}")
    except MemoryError:
        fail("out of memory while making the report")
    except KeyboardInterrupt:
        # Like the CLI: one line, then end by the signal itself so that the caller sees an interrupt.
        print("matcompare: error: interrupted (SIGINT); the report is not complete", file=sys.stderr)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except Exception as error:  # noqa: BLE001  (a bug: one line instead of a traceback)
        fail(f"internal error in the report generator ({type(error).__name__}: {error}); please report it",
             EXIT_INTERNAL)


if __name__ == "__main__":
    main()
