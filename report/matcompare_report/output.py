"""The report's folder, written whole or not at all.

The report is written into a new folder beside --out (same parent, so the same file system) and renamed into
place once complete; an old report there is renamed aside first and removed once the new one is in. An error or
a signal at any point before that leaves the old report as it was (or no folder, with any parent folders made
for it removed again). Since the old folder is replaced whole, --out must be new, empty or a report: a folder
holding anything else, one of the input files or the current folder is refused before anything is written.
"""
import os
import shutil
import stat

from . import interrupt
from .checks import InputError, shown

REPORT_README = "README.md"
PLOT_SUFFIX = ".png"
# What README.md of a report begins with: a README.md that does not is someone else's.
REPORT_TITLE = b"# matcompare report"


def is_within(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_entries(out, target, inputs):
    """InputError unless the existing folder holds nothing but a report's README.md and plots."""
    try:
        names = sorted(os.listdir(target))
    except OSError as error:
        raise InputError(f"cannot read --out {shown(out)}: {error.strerror}") from None
    input_ids = {(s.st_dev, s.st_ino) for s in inputs}
    for name in names:
        path = os.path.join(target, name)
        try:
            status = os.lstat(path)
        except OSError as error:
            raise InputError(f"cannot read {shown(path)}: {error.strerror}") from None
        if (status.st_dev, status.st_ino) in input_ids:
            raise InputError(f"--out {shown(out)} holds the input file {shown(name)} (a link to it); the report "
                             "replaces the whole folder, so write it elsewhere")
        ours = stat.S_ISREG(status.st_mode) and (name == REPORT_README or name.endswith(PLOT_SUFFIX))
        if ours and name == REPORT_README:
            try:
                with open(path, "rb") as handle:
                    ours = handle.read(len(REPORT_TITLE)) == REPORT_TITLE
            except OSError:
                ours = False
        if not ours:
            raise InputError(f"--out {shown(out)} holds {shown(name)}, which is not part of a matcompare report; "
                             "the report replaces the whole folder, so give it a new or empty folder, or one it "
                             "wrote before")


class OutputFolder:
    """Checks --out on creation; create() makes the folder the report is written into (`temp`), commit() puts it in
    place of --out, abandon() undoes whatever was done (and is what a signal runs)."""

    def __init__(self, out, input_paths):
        if out == "":
            raise InputError("--out is empty; name the folder for the report")
        self.out = out
        self.target = os.path.realpath(out)
        self.parent, self.name = os.path.split(self.target)
        if not self.name or self.target == os.path.realpath(os.sep):
            raise InputError(f"--out {shown(out)} is the root folder; name a folder for the report")
        if os.path.lexists(out) and not os.path.isdir(self.target):
            raise InputError(f"--out {shown(out)} is a file, not a folder")
        if is_within(os.path.realpath(os.getcwd()), self.target):
            raise InputError(f"--out {shown(out)} holds the current folder; the report replaces the whole folder, "
                             "so name one below it")
        inputs = []
        for path in input_paths:
            if is_within(os.path.realpath(path), self.target):
                raise InputError(f"--out {shown(out)} holds the input file {shown(path)}; the report replaces the "
                                 "whole folder, so write it elsewhere")
            try:
                inputs.append(os.stat(path))
            except OSError:
                pass  # read and checked before: it is there
        self.existed = os.path.isdir(self.target)
        if self.existed:
            check_entries(out, self.target, inputs)
        self.made = []        # parent folders made for the report, outermost first
        self.temp = None      # the folder the report is written into
        self.aside = None     # where the old report waits while the new one moves in
        self.moving_in = False
        self.finishing = False
        self.complete = False
        self.abandoned = False

    def _unique(self, kind):
        for number in range(1000):
            path = os.path.join(self.parent, f".{self.name}.{kind}-{os.getpid()}" + (f"-{number}" if number else ""))
            if not os.path.lexists(path):
                return path
        raise InputError(f"cannot find a free name beside --out {shown(self.out)} (.{self.name}.{kind}-…)")

    def create(self):
        """Makes the missing parents and the new folder beside --out; returns the new folder's path."""
        interrupt.on_signal(self.abandon)
        with interrupt.deferred():
            missing, folder = [], self.parent
            while not os.path.lexists(folder):
                missing.append(folder)
                folder = os.path.dirname(folder)
            for folder in reversed(missing):
                self.made.append(folder)  # recorded before it exists: abandon() tolerates a missing one
                os.mkdir(folder)
            self.temp = self._unique("partial")
            os.mkdir(self.temp, 0o700)
        if self.existed:
            mode = stat.S_IMODE(os.stat(self.target).st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o777 & ~umask
        os.chmod(self.temp, mode)
        return self.temp

    def commit(self):
        """Puts the complete report in place of --out. A signal held meanwhile undoes it all again."""
        with interrupt.deferred():
            if os.path.lexists(self.target):
                self.aside = self._unique("old")
                os.rename(self.target, self.aside)
            self.moving_in = True
            os.rename(self.temp, self.target)
            if interrupt.pending():
                return  # the handler runs as the signal is let through, and abandon() puts the old report back
            self.finishing = True
            warning = None
            if self.aside:
                try:
                    shutil.rmtree(self.aside)
                except OSError as error:
                    warning = f"the report is complete, but the old one is left in {shown(self.aside)}: " \
                              f"{error.strerror}"
            self.complete = True
        return warning

    def abandon(self):
        """Undoes what was done, whatever step it stopped at; True when the report was already complete."""
        if self.complete or self.finishing:
            if self.aside and os.path.lexists(self.aside):
                shutil.rmtree(self.aside, ignore_errors=True)
            self.complete = True
            return True
        if self.abandoned:
            return False
        self.abandoned = True
        if self.temp and os.path.lexists(self.temp):
            if self.aside and os.path.lexists(self.aside) and not os.path.lexists(self.target):
                os.rename(self.aside, self.target)
            shutil.rmtree(self.temp, ignore_errors=True)
        elif self.moving_in and os.path.lexists(self.target):
            # The new report is in place: the old one goes back, or there was none.
            if self.aside and os.path.lexists(self.aside):
                os.rename(self.target, self.temp)
                os.rename(self.aside, self.target)
                shutil.rmtree(self.temp, ignore_errors=True)
            else:
                shutil.rmtree(self.target, ignore_errors=True)
        for folder in reversed(self.made):
            try:
                os.rmdir(folder)
            except OSError:
                pass
        return False
