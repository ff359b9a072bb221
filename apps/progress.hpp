#pragma once
// What a long run shows on stderr while it measures. On a terminal: one line redrawn in place at each step and every
// second between steps, so a row that takes long shows its time going. Anywhere else (a pipe, a log): a line when each
// row starts and, while one row goes on, a line every few seconds; nothing is ever redrawn. Runs shorter than a few
// seconds stay silent there, so a script's short run leaves stderr to its result or its one error line. Either way,
// once the fixed costs predicted for the shapes left outgrow the budget left, one line says the run will end past
// its budget, and about how far, when that is first known rather than only at the end.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "matcompare/benchmark.hpp"

class ProgressReport {
 public:
  enum class Mode { off, terminal, lines };
  // tick_s: how often the terminal line is redrawn between steps; lines mode prints nothing in a run's first
  // quiet_start_s and, once a row has gone on for quiet_line_s, a line that says it still runs.
  explicit ProgressReport(Mode mode, std::ostream& out, double tick_s = 1.0, double quiet_start_s = 5.0,
                          double quiet_line_s = 10.0);
  ~ProgressReport();
  ProgressReport(const ProgressReport&) = delete;
  ProgressReport& operator=(const ProgressReport&) = delete;

  void update(const matcompare::Progress& p);
  // Erases the terminal line and stops the ticker; further updates print nothing.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  void tick();
  void draw(bool ticking);  // with mutex_ held
  void announce();          // lines mode, with mutex_ held: the current row's line, once the quiet start is over
  // Whether the last update names something to show: a row, or a shape whose inputs are being drawn.
  bool shows_a_step() const;
  std::string row_text(double row_elapsed_s) const;
  void tell_overrun();  // with mutex_ held: once, where last_'s fixed costs left outgrow its budget left

  Mode mode_;
  std::ostream& out_;
  double tick_s_, quiet_start_s_, quiet_line_s_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  bool have_ = false;
  matcompare::Progress last_;
  Clock::time_point last_at_;
  std::string planned_shape_;   // lines mode: the shape whose planning was announced
  bool announced_ = false;      // lines mode: the current row has its line
  bool overrun_told_ = false;   // the line that the fixed costs outgrow the budget is out
  double next_quiet_line_s_ = 0;
  std::size_t last_width_ = 0;
  std::thread ticker_;
};
