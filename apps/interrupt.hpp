#pragma once
// Ctrl-C (SIGINT) and kill (SIGTERM) stop a run at once, from inside any backend: the handler
// deletes the --out file being written, prints one error line and ends the process by the same
// signal, so a calling shell or script sees that it was interrupted (status 130 or 143).

// Installs the handlers. clear_line: stderr shows a progress bar, to be erased first.
void stop_on_interrupt(bool clear_line);

// The temporary file an interrupt deletes, or nullptr for none. The text must outlive the
// registration.
void discard_on_interrupt(const char* path);
