#include "worker_team.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
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

// A worker is given calls one at a time: the caller bumps its count of calls (under its mutex, so that a worker about
// to sleep sees it) and wakes it, and does not return before the worker is done, so no worker can read the next
// call's job as the last one's. A call of fewer threads than there are workers gives the others nothing and leaves them
// as they are (spinning or asleep); a larger one adds workers. None is ever replaced: replacing them at each change of
// size (the host cache flush takes every thread, cpu/blis's few-rows path one per MiB of B) started and joined 15
// threads a call, which cost more than the products (bench/NOTES.md, "A team of another size").
struct Worker {
  std::atomic<std::uint64_t> calls{0};  // calls given so far: the worker's signal to start
  std::mutex mutex;                     // with wake: the idle worker's sleep
  std::condition_variable wake;
  std::thread thread;
};

class Team {
 public:
  void run(int team, const std::function<void(int, int)>& fn) {
    std::lock_guard<std::mutex> one_call(call_mutex_);
    team = std::max(team, 1);
    // A worker joins the team only once its thread has started: were starting it to throw, no later call would wait
    // for it.
    workers_.reserve(std::size_t(team - 1));
    while (int(workers_.size()) < team - 1) {
      auto worker = std::make_unique<Worker>();
      const int index = int(workers_.size()) + 1;
      worker->thread = std::thread([this, w = worker.get(), index] { work(*w, index); });
      workers_.push_back(std::move(worker));  // no reallocation: reserved above
    }
    job_ = &fn;
    team_ = team;
    finished_.store(0, std::memory_order_relaxed);
    for (int index = 1; index < team; ++index) {
      Worker& worker = *workers_[std::size_t(index - 1)];
      {
        std::lock_guard<std::mutex> lock(worker.mutex);
        worker.calls.fetch_add(1, std::memory_order_release);
      }
      worker.wake.notify_one();
    }
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
  void work(Worker& worker, int index) {
    for (std::uint64_t seen = 0;; ++seen) {  // one call at a time: the count moved by exactly one
      const auto idle_since = std::chrono::steady_clock::now();
      for (int spins = 0; worker.calls.load(std::memory_order_acquire) == seen; ++spins) {
        relax();
        if (spins % 64 == 63 && std::chrono::steady_clock::now() - idle_since > kSpin) {
          std::unique_lock<std::mutex> lock(worker.mutex);
          worker.wake.wait(lock, [&] { return worker.calls.load(std::memory_order_acquire) != seen; });
        }
      }
      (*job_)(index, team_);
      finished_.fetch_add(1, std::memory_order_acq_rel);
    }
  }

  std::mutex call_mutex_;  // one call at a time
  std::vector<std::unique_ptr<Worker>> workers_;  // worker i runs thread index i + 1
  std::atomic<int> finished_{0};
  const std::function<void(int, int)>* job_ = nullptr;
  int team_ = 1;
};

// Never destroyed: idle workers need no joining. A child of fork() has none of the parent's workers, so it starts a
// team of its own, replaced in the child's fork handler while the child has one thread (a flag read later could be
// read by two of its threads at once).
std::atomic<Team*> team_in_use{nullptr};

Team* shared_team() {
  static const bool started = [] {
    team_in_use.store(new Team, std::memory_order_release);
    // The parent's team is left as it is in the child: its threads do not exist there, and its locks may be held.
    pthread_atfork(nullptr, nullptr, [] { team_in_use.store(new Team, std::memory_order_relaxed); });
    return true;
  }();
  (void)started;
  return team_in_use.load(std::memory_order_acquire);
}

}  // namespace

void run_on_team(int team, const std::function<void(int thread, int team)>& fn) { shared_team()->run(team, fn); }

}  // namespace matcompare::cpu
