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
import os
import signal
import sys

from matcompare_report import scaling, seeds, tables
from matcompare_report.runs import InputError, group_machines, load_runs

EXIT_BAD_INPUT = 2


def fail(message):
    print(f"matcompare: error: {message}", file=sys.stderr)
    sys.exit(EXIT_BAD_INPUT)


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def prepare_folder(path):
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        fail(f"--out '{path}' is a file, not a folder")
    except OSError as error:
        fail(f"cannot create --out '{path}': {error.strerror}")
    if not os.access(path, os.W_OK | os.X_OK):
        fail(f"cannot write into --out '{path}'")


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


def make_report(files, out_dir):
    runs = load_runs(files)
    prepare_folder(out_dir)
    # Loaded only now: matplotlib takes most of a second, and bad input is refused without it.
    from matcompare_report import plots
    # The user's matplotlibrc must not change the plots.
    plots.matplotlib.rcdefaults()
    machines = group_machines(runs)
    seeds.check_seed_mapping(machines)
    lines = (tables.header_section(runs, machines) + tables.machines_section(machines)
             + tables.overview_section(machines) + tables.fast_path_section(machines)
             + scaling.scaling_section(machines) + seeds.seeds_section(machines)
             + plots.plots_section(machines, out_dir))
    write_text(os.path.join(out_dir, "README.md"), "\n".join(lines).rstrip("\n") + "\n")


def main():
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="output of `matcompare --format json`")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for README.md and the plots")
    args = parser.parse_args()
    try:
        make_report(args.files, args.out)
    except InputError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write the report into '{args.out}': {error.strerror}")
    except KeyboardInterrupt:
        # Like the CLI: one line, then end by the signal itself so that the caller sees an interrupt.
        print("matcompare: error: interrupted (SIGINT); the report is not complete", file=sys.stderr)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    main()
