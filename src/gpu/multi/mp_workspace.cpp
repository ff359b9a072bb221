// The worker processes behind gpu/cublasmp-fp32, seen from the process that runs the benchmark: spawning them
// (posix_spawn, never fork, since this process may already hold a CUDA context), the shared memfd with A, B and C,
// one command to every rank and one reply back from each, within a deadline, and stopping and reaping them.
#include "mp_workspace.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../../core/workspace_checks.hpp"
#include "mp_protocol.hpp"

extern char** environ;

namespace matcompare::gpu {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

// A descriptor numbered 10 or above and closed on exec: the spawn's dup2 onto 3 and 4 can then never overwrite
// another one it still has to copy, and no worker inherits another worker's socket (which would hide its death).
int high_fd(int fd, const std::string& what) {
  if (fd < 0) throw std::runtime_error(errno_text(what));
  const int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  const int saved = errno;
  close(fd);
  errno = saved;
  if (high < 0) throw std::runtime_error(errno_text(what));
  return high;
}

// The parent's environment, with NVLink multicast off unless the user says otherwise: this project's GPU machines
// must never create multicast objects, and NCCL and NVSHMEM would where NVLink SHARP is present.
std::vector<std::string> worker_environment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  for (const char* setting : {"NCCL_NVLS_ENABLE=0", "NVSHMEM_DISABLE_NVLS=1"}) {
    const std::string name = std::string(setting).substr(0, std::strchr(setting, '=') - setting);
    if (!std::getenv(name.c_str())) env.emplace_back(setting);
  }
  return env;
}

std::string exit_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + strsignal(WTERMSIG(status));
  return "stopped";
}

long env_number(const char* name, long low, long high, long fallback) {
  const char* text = std::getenv(name);
  if (!text) return fallback;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || value < low || value > high)
    throw std::invalid_argument(std::string(name) + "='" + text + "' is not a whole number from " +
                                std::to_string(low) + " to " + std::to_string(high));
  return value;
}

struct Worker {
  pid_t pid = -1;
  int socket = -1;
  int device = 0;
  std::string pending;  // bytes read after the last full line
  bool reaped = false;
  int status = 0;
};

// The workers of one workspace. Once a call fails the group is broken: every later call throws at once, and the
// destructor kills what is left instead of asking it to quit.
class WorkerGroup {
 public:
  WorkerGroup(const std::string& program, const std::vector<int>& devices, const mp::WorkerArgs& common,
              std::size_t shared_bytes)
      : timeout_(cublasmp_timeout_s()) {
    try {
      shared_fd_ = high_fd(memfd_create("matcompare-cublasmp", MFD_CLOEXEC), "memfd_create for cuBLASMp's matrices");
      if (ftruncate(shared_fd_, off_t(shared_bytes)) != 0)
        throw std::runtime_error(errno_text("sizing cuBLASMp's shared matrices (" + std::to_string(shared_bytes) +
                                            " bytes)"));
      shared_bytes_ = shared_bytes;
      void* map = mmap(nullptr, shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd_, 0);
      if (map == MAP_FAILED) throw std::runtime_error(errno_text("mapping cuBLASMp's shared matrices"));
      shared_ = static_cast<float*>(map);
      const std::vector<std::string> env = worker_environment();
      for (std::size_t rank = 0; rank < devices.size(); ++rank) {
        mp::WorkerArgs args = common;
        args.rank = int(rank);
        args.device = devices[rank];
        spawn(program, args, env);
      }
    } catch (...) {
      broken_ = true;
      stop();
      throw;
    }
  }
  WorkerGroup(const WorkerGroup&) = delete;
  WorkerGroup& operator=(const WorkerGroup&) = delete;
  ~WorkerGroup() { stop(); }

  float* shared() { return shared_; }
  int size() const { return int(workers_.size()); }

  // Sends the command to every rank first (NCCL's collectives need them all), then waits for every reply. Returns
  // each rank's reply text; throws naming the first rank that failed.
  std::vector<std::string> all(const mp::Command& command) {
    for (int rank = 0; rank < size(); ++rank) send(rank, command);
    std::vector<std::string> replies;
    for (int rank = 0; rank < size(); ++rank) replies.push_back(receive(rank, mp::op_name(command.op)));
    return replies;
  }

  void send(int rank, const mp::Command& command) {
    check_usable();
    const std::string line = mp::encode(command) + "\n";
    Worker& w = workers_[std::size_t(rank)];
    for (std::size_t sent = 0; sent < line.size();) {
      // MSG_NOSIGNAL: a worker that died must become an exception here, not a SIGPIPE that ends the benchmark.
      const ssize_t n = ::send(w.socket, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(rank, mp::op_name(command.op), "could not be sent the command (" + std::string(strerror(errno)) + ")");
      sent += std::size_t(n);
    }
  }

  // The rank's next reply line; an "error" reply, an end of file or the deadline throws.
  std::string receive(int rank, const char* call) {
    check_usable();
    Worker& w = workers_[std::size_t(rank)];
    const auto deadline = Clock::now() + std::chrono::seconds(timeout_);
    while (w.pending.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) fail(rank, call, "did not answer within " + std::to_string(timeout_) + " s (" +
                                          kCublasMpTimeoutVariable + ")");
      pollfd p{w.socket, POLLIN, 0};
      const int ready = poll(&p, 1, int(std::min<long long>(left, 1000)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) fail(rank, call, errno_text("poll"));
      if (ready == 0) continue;
      char buffer[4096];
      const ssize_t n = read(w.socket, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        wait_exit(w, std::chrono::seconds(5));
        fail(rank, call, w.reaped ? exit_text(w.status) : "closed its socket");
      }
      w.pending.append(buffer, std::size_t(n));
    }
    const std::size_t newline = w.pending.find('\n');
    const std::string line = w.pending.substr(0, newline);
    w.pending.erase(0, newline + 1);
    mp::Reply reply;
    try {
      reply = mp::decode_reply(line);
    } catch (const std::exception& e) {
      fail(rank, call, e.what());
    }
    if (!reply.ok) fail(rank, call, reply.text);
    return reply.text;
  }

 private:
  void spawn(const std::string& program, const mp::WorkerArgs& args, const std::vector<std::string>& env) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
      throw std::runtime_error(errno_text("socketpair for a cuBLASMp worker"));
    Worker w;
    w.device = args.device;
    const int parent_end = pair[0], child_end = pair[1];
    try {
      w.socket = high_fd(parent_end, "socket for a cuBLASMp worker");
    } catch (...) {
      close(child_end);
      throw;
    }
    int child = -1;
    try {
      child = high_fd(child_end, "socket for a cuBLASMp worker");
    } catch (...) {
      close(w.socket);
      throw;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child, mp::kSocketFd);
    posix_spawn_file_actions_adddup2(&actions, shared_fd_, mp::kSharedFd);
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    std::vector<std::string> argv_text{program};
    for (const std::string& a : args.to_argv()) argv_text.push_back(a);
    std::vector<char*> argv, envp;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_copy = env;
    for (std::string& e : env_copy) envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc = posix_spawn(&w.pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(child);
    if (rc != 0) {
      close(w.socket);
      throw std::runtime_error("cannot start the cuBLASMp worker " + program + ": " + std::strerror(rc));
    }
    workers_.push_back(std::move(w));
  }

  void check_usable() const {
    if (broken_) throw std::runtime_error("cuBLASMp workers already failed: " + first_error_);
  }

  [[noreturn]] void fail(int rank, const char* call, const std::string& why) {
    broken_ = true;
    first_error_ = "cuBLASMp worker rank " + std::to_string(rank) + " (GPU " +
                   std::to_string(workers_[std::size_t(rank)].device) + ") during " + call + ": " + why;
    throw std::runtime_error(first_error_);
  }

  static void wait_exit(Worker& w, Clock::duration patience) {
    const auto until = Clock::now() + patience;
    while (!w.reaped) {
      const pid_t done = waitpid(w.pid, &w.status, WNOHANG);
      if (done == w.pid || (done < 0 && errno == ECHILD)) {
        w.reaped = true;
        break;
      }
      if (Clock::now() >= until) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // Asks every worker to quit (or, once the group is broken, kills them: one may be stuck in a collective that
  // waits for a dead peer), then reaps them all, so no zombie and no orphan holding a GPU is left behind.
  void stop() {
    if (!broken_)
      for (Worker& w : workers_) {
        const std::string line = mp::encode(mp::Command{mp::Op::quit}) + "\n";
        if (::send(w.socket, line.data(), line.size(), MSG_NOSIGNAL) < 0) broken_ = true;
      }
    for (Worker& w : workers_) {
      if (!broken_) wait_exit(w, std::chrono::seconds(std::min(timeout_, 30)));
      if (!w.reaped) {
        kill(w.pid, SIGKILL);
        wait_exit(w, std::chrono::seconds(30));
      }
      close(w.socket);
    }
    workers_.clear();
    if (shared_) munmap(shared_, shared_bytes_);
    if (shared_fd_ >= 0) close(shared_fd_);
    shared_ = nullptr;
    shared_fd_ = -1;
  }

  int timeout_;
  std::vector<Worker> workers_;
  int shared_fd_ = -1;
  std::size_t shared_bytes_ = 0;
  float* shared_ = nullptr;
  bool broken_ = false;
  std::string first_error_;
};

// compute() adds each call's slowest-rank time; the stopwatch reads how much was added between start and stop.
class MpStopwatch final : public Stopwatch {
 public:
  explicit MpStopwatch(const double* total_ms) : total_ms_(total_ms) {}
  void start() override { start_ = *total_ms_; }
  void stop() override { stop_ = *total_ms_; }
  double elapsed_ms() override { return stop_ - start_; }

 private:
  const double* total_ms_;
  double start_ = 0, stop_ = 0;
};

class MpWorkspace final : public Workspace {
 public:
  MpWorkspace(const std::string& worker, const std::vector<int>& devices, const GemmShape& s)
      : shape_(s), layout_(mp::shared_layout(s.m, s.n, s.k)), group_(worker, devices, common_args(s, devices), layout_.bytes()) {
    // Rank 0 opens with NCCL's unique id (its bootstrap root then lives in that worker, which lives as long as the
    // communicator); every rank gets it in init and answers once NCCL, cuBLASMp and its GPU memory are ready.
    mp::Command init{mp::Op::init};
    init.id = group_.receive(0, "start");
    group_.all(init);
  }

  void upload(const MatrixF& a, const MatrixF& b) override {
    if (std::int64_t(a.rows()) != shape_.m || std::int64_t(a.cols()) != shape_.k ||
        std::int64_t(b.rows()) != shape_.k || std::int64_t(b.cols()) != shape_.n)
      throw std::invalid_argument("A or B has the wrong shape for this workspace");
    std::copy_n(a.data(), a.size(), group_.shared() + layout_.a);
    std::copy_n(b.data(), b.size(), group_.shared() + layout_.b);
    group_.all(mp::Command{mp::Op::upload});
  }
  void set_output(const MatrixF& c) override {
    check_c(c);
    std::copy_n(c.data(), c.size(), group_.shared() + layout_.c);
    group_.all(mp::Command{mp::Op::set_output});
  }
  void compute(float alpha, float beta) override {
    mp::Command command{mp::Op::compute};
    command.alpha = alpha;
    command.beta = beta;
    double slowest_ms = 0;
    for (const std::string& ns : group_.all(command)) slowest_ms = std::max(slowest_ms, std::strtod(ns.c_str(), nullptr) / 1e6);
    total_ms_ += slowest_ms;
  }
  void download(MatrixF& c) override {
    check_c(c);
    group_.all(mp::Command{mp::Op::download});
    std::copy_n(group_.shared() + layout_.c, c.size(), c.data());
  }
  // The workers fill their parts of C with NaN on their GPUs: no host copy of a NaN matrix.
  void poison_output(const GemmShape&) override { group_.all(mp::Command{mp::Op::poison}); }
  // C comes back into the shared mapping in one piece; the rows are read from there.
  void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, MatrixF& out) override {
    check_download_rows(rows, shape, shape_, out);
    group_.all(mp::Command{mp::Op::download});
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::copy_n(group_.shared() + layout_.c + rows[i] * shape_.n, std::size_t(shape_.n), &out(i, 0));
  }
  // Every worker evicts its GPU's L2 (a buffer of twice the L2 written on its stream, as the single-GPU rows do)
  // and answers once the write is done: the row's samples start from the same cold L2 as those of cuBLAS FP32, whose
  // compute time its speedup divides.
  void flush_cache() override { group_.all(mp::Command{mp::Op::flush}); }
  // compute() and flush_cache() return only once every rank has finished.
  void synchronize() override {}
  std::unique_ptr<Stopwatch> stopwatch() override { return std::make_unique<MpStopwatch>(&total_ms_); }

 private:
  static mp::WorkerArgs common_args(const GemmShape& s, const std::vector<int>& devices) {
    if (devices.empty()) throw std::invalid_argument("cuBLASMp needs at least one GPU");
    mp::WorkerArgs args;
    args.world = int(devices.size());
    args.grid = mp::choose_grid(args.world);
    args.m = s.m;
    args.n = s.n;
    args.k = s.k;
    const long forced = cublasmp_block_override();
    args.block = forced ? forced : mp::choose_block(s.m, s.n, s.k, args.grid);
    return args;
  }
  void check_c(const MatrixF& c) const {
    if (std::int64_t(c.rows()) != shape_.m || std::int64_t(c.cols()) != shape_.n)
      throw std::invalid_argument("C has the wrong shape for this workspace");
  }

  GemmShape shape_;
  mp::SharedLayout layout_;
  WorkerGroup group_;
  double total_ms_ = 0;
};

}  // namespace

std::unique_ptr<Workspace> make_mp_workspace(const std::string& worker, const std::vector<int>& devices,
                                             const GemmShape& shape) {
  if (shape.m < 1 || shape.n < 1 || shape.k < 1) throw std::invalid_argument("gemm needs M, N, K >= 1");
  return std::make_unique<MpWorkspace>(worker, devices, shape);
}

long cublasmp_block_override() { return env_number(kCublasMpBlockVariable, 1, 65536, 0); }

int cublasmp_timeout_s() { return int(env_number(kCublasMpTimeoutVariable, 1, 86400, 300)); }

}  // namespace matcompare::gpu
