#include "interrupt.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

// Read by the handler, so only lock-free atomics and async-signal-safe calls below.
std::atomic<const char*> pending_output{nullptr};
std::atomic<const char*> pending_partial{nullptr};
std::atomic<const char*> partial_note{nullptr};
static_assert(std::atomic<const char*>::is_always_lock_free);
std::atomic<bool> erase_progress_line{false};
std::atomic<bool> written{false};
// What the process is doing, so that a signal and the re-exec never both go ahead: running, restarting (signals go on
// to restart_thread), or ending (a signal's end_by has begun).
enum Phase : int { kRunning, kRestarting, kEnding };
std::atomic<int> phase{kRunning};
std::atomic<long> restart_thread{0};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<long>::is_always_lock_free);
// 0: a signal acts at once; kHolding: a SignalsHeld lives; a signal number: that signal came while one lived.
constexpr int kHolding = -1;
std::atomic<int> hold_state{0};
static_assert(std::atomic<int>::is_always_lock_free);

void write_text(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t written_now = write(STDERR_FILENO, text, left);
    if (written_now <= 0) return;
    text += written_now;
    left -= std::size_t(written_now);
  }
}

const char* what_happened(int signal_number) {
  switch (signal_number) {
    case SIGINT: return "matcompare: error: interrupted (SIGINT)";
    case SIGTERM: return "matcompare: error: terminated (SIGTERM)";
    case SIGHUP: return "matcompare: error: hung up (SIGHUP)";
    case SIGQUIT: return "matcompare: error: quit (SIGQUIT)";
    default: return "matcompare: error: the reader of the output went away (SIGPIPE)";
  }
}

sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kStopSignals) sigaddset(&set, s);
  return set;
}

// Deletes the unfinished --out file (and an unfinished rewrite of the partial results), prints the line and ends the
// process by `signal_number`. Async-signal-safe:
// called by the handler, or when a SignalsHeld ends.
[[noreturn]] void end_by(int signal_number) {
  const sigset_t all = stop_signal_set();
  sigprocmask(SIG_BLOCK, &all, nullptr);  // no second signal in this thread from here on
  int expected = kRunning;
  if (!phase.compare_exchange_strong(expected, kEnding)) {
    // Another thread is ending the process, or is about to exec: the signal waits for the new image there, and this
    // thread ends with the old one.
    if (expected == kRestarting) syscall(SYS_tgkill, getpid(), restart_thread.load(), signal_number);
    for (;;) pause();
  }
  if (const char* path = pending_output.load()) unlink(path);
  if (const char* path = pending_partial.load()) unlink(path);
  if (erase_progress_line.load()) write_text("\r\033[K");
  write_text(what_happened(signal_number));
  // SIGPIPE comes from a write of the results that the reader did not take: some may have gone through.
  const char* partial = partial_note.load();
  write_text(written.load()                ? "; the results were written\n"
             : signal_number == SIGPIPE    ? "; the results were not written in full\n"
             : partial                     ? partial
                                           : "; no results written\n");
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);  // pending while blocked: unblocking this one alone delivers it, whatever else is pending
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  _exit(128 + signal_number);  // not reached
}

void on_signal(int signal_number) {
  if (phase.load() == kRestarting) {
    syscall(SYS_tgkill, getpid(), restart_thread.load(), signal_number);  // blocked there: pending across the exec
    return;
  }
  int state = hold_state.load();
  for (;;) {
    if (state == 0) end_by(signal_number);
    if (state > 0) return;  // one is already held: it ends the process
    if (hold_state.compare_exchange_weak(state, signal_number)) return;
  }
}

}  // namespace

void stop_on_signals(bool keep_blocked) {
  static bool installed = false;
  if (!installed) {
    installed = true;
    struct sigaction action {};
    action.sa_handler = on_signal;
    action.sa_flags = SA_RESTART;
    action.sa_mask = stop_signal_set();
    for (int s : kStopSignals) {
      struct sigaction before {};
      if (sigaction(s, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
      sigaction(s, &action, nullptr);
    }
  }
  if (!keep_blocked) unblock_stop_signals();
}

void block_stop_signals() {
  const sigset_t all = stop_signal_set();
  sigprocmask(SIG_BLOCK, &all, nullptr);
}

void unblock_stop_signals() {
  const sigset_t all = stop_signal_set();
  sigprocmask(SIG_UNBLOCK, &all, nullptr);
}

bool begin_restart() {
  restart_thread = long(syscall(SYS_gettid));
  int expected = kRunning;
  return phase.compare_exchange_strong(expected, kRestarting);
}

void end_restart() { phase = kRunning; }

void erase_progress_line_on_signal(bool erase) { erase_progress_line = erase; }


void discard_on_interrupt(const char* path, PendingFile which) {
  (which == PendingFile::results ? pending_output : pending_partial) = path;
}

void partial_results_kept(const char* note) { partial_note = note; }

void results_written() { written = true; }

SignalsHeld::SignalsHeld() { hold_state = kHolding; }

SignalsHeld::~SignalsHeld() {
  if (const int held = hold_state.exchange(0); held > 0) end_by(held);
}
