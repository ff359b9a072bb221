"""Signals, as the CLI answers them for a run (apps/interrupt.cpp): one line `matcompare: error: interrupted
(SIGINT); no report written`, nothing half written, and the end by the signal itself (status 128 + its number).
A signal that comes after the new report is in place says "the report was written" instead.

make_report.py calls install() before its first slow import. The interpreter needs some milliseconds to reach
that line; a launcher that blocks these signals across its exec (the mask survives exec) has them held until
install() unblocks them, so that none is lost or answered by Python's own default in between. SIGINT, SIGQUIT
and SIGHUP that the parent ignores (a background job of a script, nohup) stay ignored, as every Unix tool does;
SIGTERM and SIGPIPE are always answered. One gap no script can close: CPython sets SIGPIPE to ignored while it
starts, which drops a SIGPIPE that came before install() (held or not); the run then goes on to its end. Only the
standard library's cheapest modules are imported here.
"""
import contextlib
import os
import signal

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE)
# Ignored by the parent on purpose when so inherited: keep them ignored.
MAY_STAY_IGNORED = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)

# Callables run when a signal ends the process: each undoes what it wrote and returns True when the report it
# guards was already complete (then nothing is undone), else False.
_cleanups = []
_handling = False


# The CLI's words for each signal (apps/interrupt.cpp).
WHAT_HAPPENED = {signal.SIGINT: "interrupted (SIGINT)", signal.SIGTERM: "terminated (SIGTERM)",
                 signal.SIGHUP: "hung up (SIGHUP)", signal.SIGQUIT: "quit (SIGQUIT)",
                 signal.SIGPIPE: "the reader of the output went away (SIGPIPE)"}


def message(number, complete):
    what = "the report was written" if complete else "no report written"
    return f"matcompare: error: {WHAT_HAPPENED[number]}; {what}\n"


def _write_stderr(text):
    data = text.encode("utf-8", "backslashreplace")
    while data:
        try:
            written = os.write(2, data)
        except InterruptedError:
            continue
        except OSError:
            return  # stderr closed or a broken pipe: the exit status still says what happened
        data = data[written:]


def end_by_signal(number):
    """Ends the process by `number` with its default action, as if it had never been caught."""
    try:
        import resource
        # SIGQUIT's default action may write a core file: the report writes nothing of the kind.
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
    os._exit(128 + number)  # not reached: the signal ends the process as it is unblocked


def _on_signal(number, frame):
    global _handling
    # Every handled signal waits from here on: a second one cannot cut the cleanup short.
    signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    if _handling:
        return
    _handling = True
    complete = False
    for cleanup in reversed(_cleanups):
        try:
            complete = bool(cleanup()) or complete
        except BaseException:  # noqa: BLE001  (whatever happens, the line and the status follow)
            pass
    _write_stderr(message(number, complete))
    end_by_signal(number)


def install():
    # One thread: deferred() holds the signals in the thread that runs it, and the kernel hands a signal sent to the
    # process to any thread that does not hold it. numpy's BLAS (under matplotlib) starts a pool of threads, and a
    # signal that went to one of them while a step was held was answered after the step's record was taken (CI saw
    # a SIGTERM during the final rename end a run with status 0). The report needs no threaded BLAS.
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    for number in HANDLED:
        if number in MAY_STAY_IGNORED and signal.getsignal(number) is signal.SIG_IGN:
            continue
        signal.signal(number, _on_signal)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED)


def on_signal(cleanup):
    """Runs `cleanup` (see _cleanups) if a signal ends the process."""
    _cleanups.append(cleanup)


@contextlib.contextmanager
def deferred():
    """Holds the handled signals for the block: a step on the file system and the record of it cannot be parted."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def pending():
    """Whether a signal that install() answers arrived while held (within deferred()); one left ignored does not
    count, nor does any before install() (as when the generator runs inside a test)."""
    return any(signal.getsignal(number) is _on_signal for number in signal.sigpending() & set(HANDLED))
