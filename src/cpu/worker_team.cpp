#include "worker_team.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

namespace matcompare::cpu {
namespace {

// How long an idle worker spins before it sleeps: the gap between two calls of one measurement (a flush, then the
// run) is shorter, the gap before another library's run longer.
constexpr std::chrono::microseconds kSpin{500};

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Every worker takes part in every call, so a call starts only once every worker is done with the last one: no
// worker can read the next call's job as the last one's. A call with another team size replaces the workers.
bool fresh_after_fork = false;

class Team {
 public:

  void run(int team, const std::function<void(int, int)>& fn) {
    std::lock_guard<std::mutex> one_call(call_mutex_);
    team = std::max(team, 1);
    if (int(workers_.size()) != team - 1) {
      stop_workers();
      const std::uint64_t now = generation_.load(std::memory_order_relaxed);
      for (int index = 1; index < team; ++index) workers_.emplace_back([this, index, now] { work(index, now); });
    }
    job_ = &fn;
    team_ = team;
    finished_.store(0, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    // The workers run fn too: it must not be left, by an exception, before they are done with it.
    try {
      fn(0, team);
    } catch (...) {
      while (finished_.load(std::memory_order_acquire) < team - 1) relax();
      throw;
    }
    while (finished_.load(std::memory_order_acquire) < team - 1) relax();
  }

 private:
  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      stopping_.store(true, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stopping_.store(false, std::memory_order_relaxed);
  }

  void work(int index, std::uint64_t seen) {
    while (true) {
      const auto idle_since = std::chrono::steady_clock::now();
      for (int spins = 0; generation_.load(std::memory_order_acquire) == seen; ++spins) {
        relax();
        if (spins % 64 == 63 && std::chrono::steady_clock::now() - idle_since > kSpin) {
          std::unique_lock<std::mutex> lock(sleep_mutex_);
          wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        }
      }
      ++seen;  // one call at a time: the generation moved by exactly one
      if (stopping_.load(std::memory_order_relaxed)) return;
      (*job_)(index, team_);
      finished_.fetch_add(1, std::memory_order_acq_rel);
    }
  }

  std::mutex call_mutex_;   // one call at a time
  std::mutex sleep_mutex_;  // with wake_: the idle workers' sleep
  std::condition_variable wake_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> generation_{0};  // one step per call: the workers' signal to start
  std::atomic<int> finished_{0};
  std::atomic<bool> stopping_{false};
  const std::function<void(int, int)>* job_ = nullptr;
  int team_ = 1;
};

// Never destroyed: a program may exit while another of its threads is in a call, or from inside a job, and idle
// workers need no joining. A child of fork() has none of the parent's workers, so it starts a team of its own.
Team* shared_team() {
  static Team* team = [] {
    pthread_atfork(nullptr, nullptr, [] { fresh_after_fork = true; });
    return new Team;
  }();
  if (fresh_after_fork) {
    fresh_after_fork = false;
    team = new Team;  // the parent's is left as it is: its threads do not exist here, and its locks may be held
  }
  return team;
}

}  // namespace

void run_on_team(int team, const std::function<void(int thread, int team)>& fn) { shared_team()->run(team, fn); }

}  // namespace matcompare::cpu
