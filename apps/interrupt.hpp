#pragma once
// The signals that end the process, SIGINT (Ctrl-C), SIGTERM (kill), SIGHUP (the terminal closed), SIGQUIT
// (Ctrl-\) and SIGPIPE (the reader of standard output went away), stop a run at once, from inside any backend:
// the handler deletes the --out file being written, prints one error line and ends the process by the same signal,
// so that a calling shell or script sees how it ended (status 128 + the signal: 130, 143, 129, 131, 141). A signal
// that was ignored when the process started (nohup, a background job's SIGINT) stays ignored.

// Installs the handlers (once; later calls change nothing) and, unless `keep_blocked`, unblocks those signals, so
// that one that came while they were blocked (across the CLI's re-exec) is handled now.
void stop_on_signals(bool keep_blocked = false);

// Blocks or unblocks the signals above in the calling thread: around the re-exec, whose new image has no handler
// until it installs its own.
void block_stop_signals();
void unblock_stop_signals();

// Around the re-exec (startup.cpp), called by the thread that execs with the signals blocked. From begin_restart on, a
// signal that another thread takes (OpenBLAS's threads exist from the library's load and do not block them) is sent on
// to the calling thread, where it stays pending across the exec for the new image to handle: ended there, the signal
// would race the exec, which can replace the image halfway through the line and lose the signal. Returns false when a
// signal is already ending the process; the caller then must not exec. end_restart: the exec failed, back to normal.
bool begin_restart();
void end_restart();

// Whether stderr shows a progress bar, erased before the line.
void erase_progress_line_on_signal(bool erase);

// Which temporary file: the --out file's, or that of the finished shapes' results kept beside it (partial_results.hpp).
enum class PendingFile { results, partial };

// The temporary file of that kind a signal deletes, or nullptr for none. The text must outlive the registration.
void discard_on_interrupt(const char* path, PendingFile which = PendingFile::results);

// From now on the line ends with `note` (where the finished shapes' results are) instead of "no results written";
// nullptr for none. The text must outlive the registration.
void partial_results_kept(const char* note);

// From now on the line says that the results were written (a signal between the last write and the exit).
void results_written();

// While one lives (in one thread at a time), a signal is held and acts when it ends: around creating the
// temporary file and registering it, and around renaming it into place and unregistering it, so that no signal
// lands between the two and leaves a file behind.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
};
