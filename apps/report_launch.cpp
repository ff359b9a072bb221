#include "report_launch.hpp"

#include <signal.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace {

constexpr char kPythonVariable[] = "MATCOMPARE_PYTHON";
constexpr char kScriptVariable[] = "MATCOMPARE_REPORT_SCRIPT";

bool executable_file(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::vector<char*> c_argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

// Whether `python` runs and imports matplotlib: it must print the probe's word, so that an executable that is not
// Python (true, echo) does not pass. Its stdin and stderr are /dev/null, its stdout a pipe.
bool imports_matplotlib(const std::string& python) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args{python, "-c", "import matplotlib; print('matplotlib' + '-found')"};
  std::vector<char*> argv = c_argv(args);
  pid_t child = -1;
  const int spawned = posix_spawn(&child, python.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string said;
  char buffer[256];
  ssize_t n = 0;
  while (spawned == 0 && said.size() < 4096 && ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)))
    if (n > 0) said.append(buffer, std::size_t(n));
  close(pipe_fds[0]);  // a program that writes on and on gets SIGPIPE
  if (spawned != 0) return false;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && said == "matplotlib-found\n";
}

}  // namespace

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::string::size_type start = 0;;) {
    const std::string::size_type colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable_file(candidate)) return candidate;
    if (colon == std::string::npos) return "";
    start = colon + 1;
  }
}

std::string report_python() {
  if (const char* wanted = std::getenv(kPythonVariable)) {
    const std::string value = wanted;
    const std::string said = std::string(kPythonVariable) + "='" + value + "'";
    if (value.empty()) throw std::invalid_argument(std::string(kPythonVariable) + " is set but empty (give a Python with matplotlib, or unset it)");
    const std::string python = value.find('/') != std::string::npos ? value : find_on_path(value);
    if (python.empty() || !executable_file(python))
      throw std::invalid_argument(said + (value.find('/') != std::string::npos
                                              ? " is not an executable file"
                                              : " is not the name of an executable file on PATH") +
                                  " (give a Python with matplotlib: an absolute path or a command on PATH)");
    if (!imports_matplotlib(python))
      throw std::invalid_argument(said + " is not a Python that can import matplotlib (install python3-matplotlib "
                                         "for it, or unset " + kPythonVariable + ")");
    return python;
  }
  for (const std::string& candidate : {find_on_path("python3"), std::string("/usr/bin/python3")})
    if (!candidate.empty() && executable_file(candidate) && imports_matplotlib(candidate)) return candidate;
  throw std::invalid_argument("no python3 with matplotlib found (install python3-matplotlib, or set " +
                              std::string(kPythonVariable) + ")");
}

std::string report_script(const std::string& installed, const std::string& in_source_tree) {
  if (const char* wanted = std::getenv(kScriptVariable)) {
    const std::string path = wanted;
    const std::string said = std::string(kScriptVariable) + "='" + path + "'";
    struct stat info {};
    if (path.empty()) throw std::invalid_argument(std::string(kScriptVariable) + " is set but empty (give the path of make_report.py, or unset it)");
    if (stat(path.c_str(), &info) != 0)
      throw std::invalid_argument(said + ": " + std::strerror(errno) + " (give the path of make_report.py)");
    if (!S_ISREG(info.st_mode))
      throw std::invalid_argument(said + " is not a regular file (give the path of make_report.py)");
    if (access(path.c_str(), R_OK) != 0)
      throw std::invalid_argument(said + " cannot be read: " + std::strerror(errno));
    if (path.size() < 4 || path.compare(path.size() - 3, 3, ".py") != 0 || info.st_size == 0)
      throw std::invalid_argument(said + " is not a Python file (a non-empty *.py: give the path of make_report.py)");
    return path;
  }
  for (const std::string& candidate : {installed, in_source_tree})
    if (!candidate.empty() && access(candidate.c_str(), R_OK) == 0) return candidate;
  throw std::invalid_argument("cannot find make_report.py (set " + std::string(kScriptVariable) + " to its path)");
}

void exec_argv(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv = c_argv(copy);
  // The signals that end a report stay blocked across the exec: Python needs tens of milliseconds before
  // make_report.py installs its handlers, and one arriving then would end it without a line. The script unblocks
  // them once its handlers are in, and a pending one is then handled as any other.
  sigset_t ending, before;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&ending, sig);
  sigprocmask(SIG_BLOCK, &ending, &before);
  execv(argv[0], argv.data());
  sigprocmask(SIG_SETMASK, &before, nullptr);  // the exec failed: the caller reports it with the handlers in place
}
