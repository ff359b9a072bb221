#pragma once
// Runs the CLI (MATCOMPARE_CLI) as a child process from an argument vector with posix_spawn: no shell, so no
// quoting, and a value like '' or a ';' reaches the CLI as it is. stdout and stderr are captured in memory files
// (nothing is written to the folder the child runs in), stdout may instead be /dev/full, closed or a given
// descriptor. The stop signals start at their default action and unblocked, as from an interactive shell.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace cli_test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

enum class Stdout { capture, dev_full, closed, descriptor };

struct Run {
  std::vector<std::string> args;                            // after the program's name
  std::vector<std::pair<std::string, std::string>> set_env;  // for the child alone
  std::vector<std::string> unset_env;
  Stdout out = Stdout::capture;
  int out_descriptor = -1;        // with Stdout::descriptor
  std::string folder;             // the child's working folder; empty: this process's
  bool ignore_sigpipe = false;    // start the child with SIGPIPE ignored (as under some shells and daemons)
  bool ignore_sighup = false;     // as under nohup
  double deadline_s = 60;         // killed (and reported as such) after this
};

struct Outcome {
  int exit_code = -1;    // when it exited
  int signal = 0;        // when a signal ended it
  bool killed_at_deadline = false;
  std::string out, err;
  // 128 + the signal, as a shell reports it, or the exit code.
  int shell_status() const { return signal ? 128 + signal : exit_code; }
};

// Splits "--size 8 --filter cpu/gold" at spaces; the word '' stands for an empty argument. For the tests'
// readability only: nothing else is interpreted.
inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w == "''" ? std::string() : w);
  return out;
}

inline std::string read_all(int fd) {
  std::string text;
  lseek(fd, 0, SEEK_SET);
  char buffer[65536];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, std::size_t(n));
  return text;
}

class Child {
 public:
  explicit Child(const Run& run) : deadline_s_(run.deadline_s) {
    static const bool no_core_files = [] {  // SIGQUIT would dump core
      const rlimit none{0, 0};
      return setrlimit(RLIMIT_CORE, &none) == 0;
    }();
    (void)no_core_files;
    out_ = memfd_create("cli_stdout", MFD_CLOEXEC);
    err_ = memfd_create("cli_stderr", MFD_CLOEXEC);
    if (out_ < 0 || err_ < 0) throw std::runtime_error("memfd_create failed");

    std::vector<std::string> args{MATCOMPARE_CLI};
    args.insert(args.end(), run.args.begin(), run.args.end());
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      const std::string entry = *e;
      const std::string name = entry.substr(0, entry.find('='));
      const bool replaced = std::any_of(run.set_env.begin(), run.set_env.end(), [&](const auto& s) { return s.first == name; }) ||
                            std::find(run.unset_env.begin(), run.unset_env.end(), name) != run.unset_env.end();
      if (!replaced) env.push_back(entry);
    }
    for (const auto& [name, value] : run.set_env) env.push_back(name + "=" + value);
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    switch (run.out) {
      case Stdout::capture: posix_spawn_file_actions_adddup2(&actions, out_, STDOUT_FILENO); break;
      case Stdout::dev_full: posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/full", O_WRONLY, 0); break;
      case Stdout::closed: posix_spawn_file_actions_addclose(&actions, STDOUT_FILENO); break;
      case Stdout::descriptor: posix_spawn_file_actions_adddup2(&actions, run.out_descriptor, STDOUT_FILENO); break;
    }
    posix_spawn_file_actions_adddup2(&actions, err_, STDERR_FILENO);
    if (!run.folder.empty()) posix_spawn_file_actions_addchdir_np(&actions, run.folder.c_str());

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigemptyset(&none);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&defaults, s);
    // An ignored signal stays ignored in the child: ignore it here for the spawn, and keep it off the defaults.
    struct sigaction ignore {}, old_pipe {}, old_hup {};
    ignore.sa_handler = SIG_IGN;
    if (run.ignore_sigpipe) sigdelset(&defaults, SIGPIPE), sigaction(SIGPIPE, &ignore, &old_pipe);
    if (run.ignore_sighup) sigdelset(&defaults, SIGHUP), sigaction(SIGHUP, &ignore, &old_hup);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    started_ = Clock::now();
    const int failed = posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(), envp.data());
    if (run.ignore_sigpipe) sigaction(SIGPIPE, &old_pipe, nullptr);
    if (run.ignore_sighup) sigaction(SIGHUP, &old_hup, nullptr);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed) throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(failed));
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    close(out_);
    close(err_);
  }

  pid_t pid() const { return pid_; }
  double seconds_since_start() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
  bool running() {
    if (reaped_) return false;
    const pid_t done = waitpid(pid_, &status_, WNOHANG);
    if (done == pid_) reaped_ = true;
    return !reaped_;
  }

  // A line of /proc/PID/status ("SigCgt", "SigBlk") as a mask; 0 when unreadable.
  unsigned long long status_mask(const std::string& field) const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1), nullptr, 16);
    return 0;
  }
  static unsigned long long bit(int signal_number) { return 1ull << (signal_number - 1); }
  bool catches(int signal_number) const { return status_mask("SigCgt") & bit(signal_number); }
  // The environment the running image was started with (after an exec, the new one's).
  std::string start_environment() const {
    std::ifstream environ_file("/proc/" + std::to_string(pid_) + "/environ");
    std::stringstream text;
    text << environ_file.rdbuf();
    return text.str();
  }

  // Waits for `ready` (polled every `step`) up to `timeout_s`; returns whether it came true.
  template <class Ready>
  bool wait_until(Ready ready, double timeout_s, std::chrono::microseconds step = std::chrono::microseconds(50)) {
    const auto until = Clock::now() + std::chrono::duration<double>(timeout_s);
    while (Clock::now() < until) {
      if (ready()) return true;
      if (!running()) return ready();
      std::this_thread::sleep_for(step);
    }
    return false;
  }

  Outcome finish() {
    Outcome o;
    const auto until = started_ + std::chrono::duration<double>(deadline_s_);
    while (running() && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (!reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status_, 0);
      reaped_ = true;
      o.killed_at_deadline = true;
    }
    if (WIFEXITED(status_)) o.exit_code = WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) o.signal = WTERMSIG(status_);
    o.out = read_all(out_);
    o.err = read_all(err_);
    return o;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1, err_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  double deadline_s_;
  Clock::time_point started_;
};

inline Outcome run_cli(const Run& run) { return Child(run).finish(); }

inline Outcome run_cli(const std::vector<std::string>& args,
                       const std::vector<std::pair<std::string, std::string>>& set_env = {}) {
  Run run;
  run.args = args;
  run.set_env = set_env;
  return run_cli(run);
}

inline int count_lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// A fresh, empty folder (absolute path) for one case's files.
inline fs::path empty_folder(const std::string& name) {
  const fs::path folder = fs::absolute(name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

inline std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace cli_test
