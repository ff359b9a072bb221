#include "progress.hpp"

#include <algorithm>
#include <cstdio>

namespace {

std::string shape_text(const matcompare::GemmShape& s) { return matcompare::to_string(s); }

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s < 10 ? "%.1fs" : "%.0fs", s);
  return text;
}

}  // namespace

ProgressReport::ProgressReport(Mode mode, std::ostream& out, double tick_s, double quiet_start_s, double quiet_line_s)
    : mode_(mode), out_(out), tick_s_(tick_s), quiet_start_s_(quiet_start_s), quiet_line_s_(quiet_line_s) {
  if (mode_ != Mode::off) ticker_ = std::thread([this] { tick(); });
}

ProgressReport::~ProgressReport() { finish(); }

void ProgressReport::update(const matcompare::Progress& p) {
  if (mode_ == Mode::off || p.total == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopped_) return;
  const bool new_row = !have_ || p.backend != last_.backend || p.planning != last_.planning ||
                       shape_text(p.shape) != shape_text(last_.shape) || p.done != last_.done;
  last_ = p;
  last_at_ = Clock::now();
  have_ = true;
  tell_overrun();
  if (mode_ == Mode::terminal) {
    draw(false);
    return;
  }
  if (!new_row) return;
  next_quiet_line_s_ = quiet_line_s_;
  announced_ = false;
  announce();
}

void ProgressReport::announce() {
  if (announced_ || !shows_a_step()) return;
  const double row_s = std::chrono::duration<double>(Clock::now() - last_at_).count();
  if (last_.elapsed_s + row_s < quiet_start_s_) return;
  announced_ = true;
  // Planning is a few-row trial of every row of a shape: one line for all of them.
  if (last_.planning) {
    if (planned_shape_ == shape_text(last_.shape)) return;
    planned_shape_ = shape_text(last_.shape);
  }
  draw(row_s >= tick_s_);
}

void ProgressReport::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
    if (mode_ == Mode::terminal && last_width_ > 0) out_ << "\r" << std::string(last_width_, ' ') << "\r" << std::flush;
    last_width_ = 0;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void ProgressReport::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopped_) {
    wake_.wait_for(lock, std::chrono::duration<double>(tick_s_));
    if (stopped_ || !have_ || !shows_a_step()) continue;
    const double row_s = std::chrono::duration<double>(Clock::now() - last_at_).count();
    if (mode_ == Mode::terminal) {
      draw(true);
    } else if (!announced_) {
      announce();
    } else if (!last_.planning && row_s >= next_quiet_line_s_) {
      next_quiet_line_s_ += quiet_line_s_;
      draw(true);
    }
  }
}

void ProgressReport::tell_overrun() {
  // A second of slack: a prediction within it is no news. Lines mode keeps its quiet start.
  constexpr double kSlack_s = 1.0;
  const double left_s = std::max(0.0, last_.budget_left_s), beyond_s = last_.fixed_costs_left_s - left_s;
  if (overrun_told_ || last_.fixed_costs_left_s <= 0 || beyond_s <= kSlack_s ||
      (mode_ == Mode::lines && last_.elapsed_s < quiet_start_s_))
    return;
  overrun_told_ = true;
  if (mode_ == Mode::terminal && last_width_ > 0) out_ << "\r" << std::string(last_width_, ' ') << "\r";
  last_width_ = 0;
  out_ << "matcompare: note: the shapes left need about " << seconds(last_.fixed_costs_left_s)
       << " beyond their rows' samples (inputs, float64 references, set-ups, verification; learnt from the shapes "
          "done), more than the "
       << seconds(left_s) << " of the budget left: the run will end about " << seconds(beyond_s)
       << " past its budget\n"
       << std::flush;
}

bool ProgressReport::shows_a_step() const { return !last_.backend.empty() || last_.drawing_inputs; }

std::string ProgressReport::row_text(double row_elapsed_s) const {
  const matcompare::Progress& p = last_;
  std::string text = "[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]";
  if (p.drawing_inputs) return text + " " + shape_text(p.shape) + ": drawing the inputs and their float64 reference";
  if (p.backend.empty()) return text;
  if (p.planning) return text + " " + shape_text(p.shape) + ": planning (a few-row trial of each row)";
  text += " " + p.backend + " " + shape_text(p.shape) + ": ";
  text += row_elapsed_s > 0 ? seconds(row_elapsed_s) + " of up to " + seconds(p.row_budget_s)
                            : "up to " + seconds(p.row_budget_s);
  return text;
}

void ProgressReport::draw(bool ticking) {
  const double row_s = ticking ? std::chrono::duration<double>(Clock::now() - last_at_).count() : 0;
  const double elapsed = last_.elapsed_s + row_s;
  const double left = last_.budget_left_s > row_s ? last_.budget_left_s - row_s : 0;
  // Past the budget a run goes on with every shape's fixed costs (docs/method.md, "Budget"): "0.0s left" for a
  // minute would read as a hang.
  std::string line = row_text(row_s) + "  (" + seconds(elapsed) + " elapsed, " +
                     (left > 0 ? seconds(left) + " of the budget left)" : std::string("the budget spent)"));
  if (mode_ == Mode::lines) {
    out_ << "matcompare: " << line << "\n" << std::flush;
    return;
  }
  const std::size_t width = line.size();
  if (width < last_width_) line += std::string(last_width_ - width, ' ');
  last_width_ = width;
  out_ << "\r" << line << std::flush;
}
