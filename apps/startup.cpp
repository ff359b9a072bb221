#include "startup.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "interrupt.hpp"

namespace {

// Set in the environment of the restarted image: the descriptor that holds the real stderr meanwhile.
constexpr char kSavedStderr[] = "MATCOMPARE_RESTART_STDERR_FD";

int saved_stderr_in(char** environment) {
  const std::size_t length = sizeof kSavedStderr - 1;
  for (char** e = environment; e && *e; ++e)
    if (std::strncmp(*e, kSavedStderr, length) == 0 && (*e)[length] == '=') {
      char* end = nullptr;
      const long fd = std::strtol(*e + length + 1, &end, 10);
      return end != *e + length + 1 && *end == '\0' && fd > STDERR_FILENO && fcntl(int(fd), F_GETFD) != -1 ? int(fd)
                                                                                                         : -1;
    }
  return -1;
}

int saved_stderr = -1;

}  // namespace

void start_process(char** environment) {
  static bool started = false;
  if (started) return;
  started = true;
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd)
    if (fcntl(fd, F_GETFD) == -1) {
      const int opened = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
      if (opened >= 0 && opened != fd) {
        dup2(opened, fd);
        close(opened);
      }
    }
  saved_stderr = saved_stderr_in(environment);
  stop_on_signals(saved_stderr >= 0);
}

void finish_start() {
  if (saved_stderr >= 0) {
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    saved_stderr = -1;
  }
  unsetenv(kSavedStderr);
  unblock_stop_signals();
}

void restart_with(const std::vector<std::pair<std::string, std::string>>& settings, char** argv) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return;
  self[length] = '\0';
  const int saved = fcntl(STDERR_FILENO, F_DUPFD, 10);  // inherited by the new image (no FD_CLOEXEC)
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved < 0 || null < 0) {
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    return;
  }
  for (const auto& [name, value] : settings) setenv(name.c_str(), value.c_str(), 1);
  setenv(kSavedStderr, std::to_string(saved).c_str(), 1);
  block_stop_signals();
  // Other threads (OpenBLAS's, started when it loaded) do not block the signals: from here a signal they take is sent
  // on to this thread, pending across the exec (interrupt.hpp). One that began ending the process before stops here:
  // its line is written and the process ends by it.
  if (!begin_restart())
    for (;;) pause();
  dup2(null, STDERR_FILENO);
  execv(self, argv);
  dup2(saved, STDERR_FILENO);
  end_restart();
  unblock_stop_signals();
  close(saved);
  close(null);
  unsetenv(kSavedStderr);
  for (const auto& [name, value] : settings) unsetenv(name.c_str());
}
