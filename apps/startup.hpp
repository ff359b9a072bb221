#pragma once
// The CLI's first steps, before its options are read.
#include <string>
#include <utility>
#include <vector>

// Standard descriptors and signal handlers. A closed stdin, stdout or stderr is opened on /dev/null the wrong way
// round (stdout and stderr read-only, stdin write-only): a write to a closed stdout then fails, and is reported,
// instead of landing in whichever file the process opens next. Then the handlers of interrupt.hpp; in an image
// started by restart_with() the signals stay blocked until finish_start(). Runs from .preinit_array, before the
// shared libraries' constructors, so that a signal is handled from the process's first moments; main() calls it
// again (nothing happens twice). `environment` is main's third argument (getenv may not work that early).
void start_process(char** environment);

// In an image started by restart_with(): stderr back (silent until now, so that libgomp and OpenBLAS, which read
// the environment when they load, do not print their warnings a second time) and the signals unblocked. Call it
// first thing in main(), after the shared libraries' constructors have run.
void finish_start();

// Runs this program again, by its real path (so that ps and pgrep show its name), with `settings` added to its
// environment: settings that OpenMP and OpenBLAS read only when they load. The stop signals stay blocked across the
// exec (pending, not lost). Returns only when that cannot be done; the process then goes on without them.
void restart_with(const std::vector<std::pair<std::string, std::string>>& settings, char** argv);
