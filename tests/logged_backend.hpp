#pragma once
// A fake backend for tests of the measurement method: it computes with a real backend and logs every call its
// workspaces receive; its flush and compute can sleep, its stopwatch can return scripted times, its download can
// spoil an element.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "matcompare/matcompare.hpp"

namespace matcompare_test {

using matcompare::Availability;
using matcompare::Backend;
using matcompare::BackendInfo;
using matcompare::GemmShape;
using matcompare::MatrixF;
using matcompare::Stopwatch;
using matcompare::Workspace;

// Every call the fake backends' workspaces receive, in order, as "name:call".
using CallLog = std::vector<std::string>;

// A backend that computes with a real one and records every workspace call in a shared log. Its flush and compute
// can sleep; its stopwatch can return scripted times instead of measured ones (one list per backend, across its
// workspaces, in the order they are read); its download can spoil one element of C.
class LoggedBackend final : public Backend {
 public:
  LoggedBackend(std::string name, const Backend& inner, CallLog& log) : inner_(inner), log_(log) {
    info_ = inner.info();
    info_.name = std::move(name);
  }
  const BackendInfo& info() const override { return info_; }
  // Marks it a vendor library; `baseline`: also the vendor of its device and precision.
  void make_vendor_library(bool baseline) {
    info_.vendor_library = true;
    info_.vendor = info_.precision_vendor = baseline;
  }
  Availability availability() const override { return {true, ""}; }
  std::unique_ptr<Workspace> prepare(const GemmShape& shape) const override {
    log_.push_back(info_.name + ":prepare");
    return std::make_unique<LoggedWorkspace>(*this, inner_.prepare(shape), shape);
  }

  double flush_sleep_ms = 0;
  double compute_sleep_ms = 0;
  std::vector<double> scripted_ms;  // empty: the stopwatch measures
  bool spoil_last_element = false;
  std::string kernel_name;          // what its workspaces say they run (Workspace::kernel)
  // Its clock (Workspace::clock): kClockMax MHz, or 70% of it after a run whose time read at least
  // throttled_from_ms (0: never); unknown when report_clock is false.
  static constexpr double kClockMax = 1980;
  bool report_clock = true;
  double throttled_from_ms = 0;
  mutable std::size_t script_reads = 0;
  mutable double last_ms = 0;
  // Its times read slowed_factor times longer while slowed_beside has a workspace (a neighbour that slows it beside
  // that one row alone); live_workspaces counts this backend's own.
  const LoggedBackend* slowed_beside = nullptr;
  double slowed_factor = 1;
  mutable int live_workspaces = 0;

 private:
  struct LoggedStopwatch final : Stopwatch {
    LoggedStopwatch(const LoggedBackend& owner, std::unique_ptr<Stopwatch> inner)
        : owner(owner), inner(std::move(inner)) {}
    void start() override {
      owner.log(":start");
      inner->start();
    }
    void stop() override {
      inner->stop();
      owner.log(":stop");
    }
    double elapsed_ms() override {
      const double measured = inner->elapsed_ms();
      owner.last_ms = owner.scripted_ms.empty() ? measured
                                                : owner.scripted_ms[owner.script_reads++ % owner.scripted_ms.size()];
      if (owner.slowed_beside && owner.slowed_beside->live_workspaces > 0) owner.last_ms *= owner.slowed_factor;
      return owner.last_ms;
    }
    const LoggedBackend& owner;
    std::unique_ptr<Stopwatch> inner;
  };
  struct LoggedWorkspace final : Workspace {
    LoggedWorkspace(const LoggedBackend& owner, std::unique_ptr<Workspace> inner, GemmShape shape)
        : owner(owner), inner(std::move(inner)), shape(shape) {
      ++owner.live_workspaces;
    }
    ~LoggedWorkspace() override { --owner.live_workspaces; }
    LoggedWorkspace(const LoggedWorkspace&) = delete;
    LoggedWorkspace& operator=(const LoggedWorkspace&) = delete;
    void upload(const MatrixF& a, const MatrixF& b) override {
      owner.log(":upload");
      inner->upload(a, b);
    }
    void set_output(const MatrixF& c) override {
      owner.log(":set_output");
      inner->set_output(c);
    }
    void poison_output(const GemmShape& s) override {
      owner.log(":poison");
      inner->poison_output(s);
    }
    void compute(float alpha, float beta) override {
      owner.log(":compute");
      inner->compute(alpha, beta);
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(owner.compute_sleep_ms));
    }
    void download(MatrixF& c) override {
      owner.log(":download");
      inner->download(c);
      if (owner.spoil_last_element) c(c.rows() - 1, c.cols() - 1) += 1.0f;
    }
    void download_rows(const std::vector<std::int64_t>& rows, const GemmShape& s, MatrixF& out) override {
      owner.log(":download_rows");
      inner->download_rows(rows, s, out);
      if (owner.spoil_last_element) out(out.rows() - 1, out.cols() - 1) += 1.0f;
    }
    void flush_cache() override {
      owner.log(":flush");
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(owner.flush_sleep_ms));
      inner->flush_cache();
    }
    void synchronize() override { inner->synchronize(); }
    std::string kernel() const override { return owner.kernel_name; }
    matcompare::ClockReading clock() override {
      if (!owner.report_clock) return {};
      const bool throttled = owner.throttled_from_ms > 0 && owner.last_ms >= owner.throttled_from_ms;
      return {throttled ? 0.7 * kClockMax : kClockMax, kClockMax};
    }
    std::unique_ptr<Stopwatch> stopwatch() override {
      return std::make_unique<LoggedStopwatch>(owner, inner->stopwatch());
    }
    const LoggedBackend& owner;
    std::unique_ptr<Workspace> inner;
    GemmShape shape;
  };
  void log(const char* call) const { log_.push_back(info_.name + call); }

  const Backend& inner_;
  CallLog& log_;
  BackendInfo info_;
};

}  // namespace matcompare_test
