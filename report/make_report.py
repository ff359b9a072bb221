#!/usr/bin/env python3
"""Markdown report with plots from `matcompare --format json` result files.

    python3 report/make_report.py FILE.json [FILE.json ...] --out DIR

Writes DIR/README.md and the PNG plots it links, and lists on stdout what it wrote. The Markdown
depends only on the contents of the JSON files (not on their order on the command line, the clock
or the locale), so the same files always give the same bytes. This is `matcompare report`: bad input gets the CLI's contract,
one line `matcompare: error: ...` on stderr and exit status 2, and nothing is written; the report
is made in a folder beside DIR that replaces DIR only once complete, so an error or a signal
(INT, TERM, HUP, QUIT, PIPE: one line, then the end by that signal) leaves the old DIR, or none.
The work is done by the modules of matcompare_report/ beside this file.
"""
if __name__ == "__main__":
    # First of all, before any slow import: a signal from the first moment gets the contract's answer.
    from matcompare_report import interrupt
    interrupt.install()

import argparse  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402

from matcompare_report import accuracy, peaks, scaling, seeds, tables, vendors, workloads  # noqa: E402
from matcompare_report.checks import escape, shown  # noqa: E402
from matcompare_report.markdown import wrap  # noqa: E402
from matcompare_report.output import OutputFolder  # noqa: E402
from matcompare_report.runs import InputError, group_machines, load_runs  # noqa: E402

EXIT_BAD_INPUT = 2
# A fault of the generator itself, not of its input: still one line, never a traceback.
EXIT_INTERNAL = 1


class Refused(Exception):
    """The report cannot be made; the message is the error line's text."""

    def __init__(self, message, status=EXIT_BAD_INPUT):
        super().__init__(message)
        self.status = status


def say(kind, message):
    # One line whatever the message holds.
    print(f"matcompare: {kind}: {escape(message)}", file=sys.stderr, flush=True)


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise Refused(message)


def import_plots():
    try:
        from matcompare_report import plots
    except ImportError as error:
        raise Refused(f"{shown(sys.executable)} cannot load matplotlib ({error}); install python3-matplotlib, or "
                      "run the report with a Python that has it") from None
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


def make_report(files, out):
    """Writes the report; returns the warning line ("" for none) and the names of the files written (README.md first).
    Refused or InputError when it cannot."""
    runs = load_runs(files)
    folder = OutputFolder(out, files)
    machines = group_machines(runs)
    seed_mismatches = seeds.check_seed_mapping(machines)
    plots = import_plots()
    lines = (tables.header_section(runs, machines) + tables.machines_section(machines)
             + peaks.peaks_section(machines)
             + tables.overview_section(machines) + vendors.best_vendor_section(machines)
             + tables.fast_path_section(machines)
             + scaling.scaling_section(machines) + workloads.suite_section(machines)
             + accuracy.accuracy_section(machines) + seeds.seeds_section(machines))
    try:
        temp = folder.create()
        lines += plots.plots_section(machines, temp)
        with open(os.path.join(temp, "README.md"), "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(wrap(lines)).rstrip("\n") + "\n")
        written = ["README.md"] + sorted(name for name in os.listdir(temp) if name != "README.md")
        late_warning = folder.commit()
    except OSError as error:
        folder.abandon()
        where = f" ({shown(error.filename)})" if error.filename else ""
        raise Refused(f"cannot write the report into --out {shown(out)}{where}: {error.strerror or error}") from None
    except BaseException:
        folder.abandon()
        raise
    return "; ".join(text for text in (warning_line(runs, seed_mismatches), late_warning) if text), written


def written_lines(out, names):
    """What stdout says of a report made: a line that counts the files, then each file's path, one a line."""
    plots = len(names) - 1
    return ([f"matcompare: wrote the report into {escape(out)}: README.md and {plots} plot{'s' * (plots != 1)}"]
            + [escape(os.path.join(out, name)) for name in names])


def say_written(lines):
    """The list on stdout; a reader that went away is not an error of the report, which is complete by now."""
    try:
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            # No second complaint when the interpreter flushes stdout as it exits.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def main(argv=None):
    status, message = 0, None
    try:
        parser = ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("files", nargs="+", metavar="FILE.json", help="output of `matcompare --format json`")
        parser.add_argument("--out", required=True, metavar="DIR", help="folder for README.md and the plots")
        args = parser.parse_args(argv)
        # Warnings of the libraries (matplotlib's about glyphs, limits or overflow) are not the user's concern.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warning, written = make_report(args.files, args.out)
        if warning:
            say("warning", warning)
        say_written(written_lines(args.out, written))
    except Refused as error:
        status, message = error.status, str(error)
    except InputError as error:
        status, message = EXIT_BAD_INPUT, str(error)
    except MemoryError:
        status, message = EXIT_BAD_INPUT, "out of memory while making the report"
    except OSError as error:
        where = f" ({shown(error.filename)})" if error.filename else ""
        status, message = EXIT_BAD_INPUT, f"cannot make the report{where}: {error.strerror or error}"
    except Exception as error:  # noqa: BLE001  (a bug: one line instead of a traceback)
        status, message = EXIT_INTERNAL, (f"internal error in the report generator ({type(error).__name__}: "
                                          f"{error}); please report it")
    if message is not None:
        say("error", message)
    sys.exit(status)


if __name__ == "__main__":
    main()
