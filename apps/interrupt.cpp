#include "interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace {

// Read by the handler, so only lock-free atomics and async-signal-safe calls below.
std::atomic<const char*> pending_output{nullptr};
static_assert(std::atomic<const char*>::is_always_lock_free);
std::atomic<bool> erase_progress_line{false};

void write_text(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t written = write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= std::size_t(written);
  }
}

void on_interrupt(int signal_number) {
  if (const char* path = pending_output.load()) unlink(path);
  if (erase_progress_line.load()) write_text("\r\033[K");
  write_text(signal_number == SIGINT ? "matcompare: error: interrupted (SIGINT); no results written\n"
                                     : "matcompare: error: terminated (SIGTERM); no results written\n");
  // SA_RESETHAND restored the default action: the signal, delivered when this returns, ends the process.
  raise(signal_number);
}

}  // namespace

void stop_on_interrupt(bool clear_line) {
  erase_progress_line = clear_line;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void discard_on_interrupt(const char* path) { pending_output = path; }
