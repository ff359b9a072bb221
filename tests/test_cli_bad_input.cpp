// The CLI's contract for bad input, failed writes and signals, one table: each case is an argument vector and an
// environment, run in a fresh folder, with the exit status (or the signal) it must end with, the one line
// `matcompare: error: ...` it must print (with its key words), nothing on stdout and no file left behind.
// With CLI_CASES_TABLE=path set, the cases are also written there as a Markdown table; CLI_CASES_MATCHING=text
// runs only the table's cases whose command contains the text.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "test_cli_spawn.hpp"

using namespace cli_test;

namespace {

// A run that would take minutes: anything refused must be refused before it starts.
const std::vector<std::string> kLongRun = words("--size 1024 --filter cpu/gold --min-time 600 --time-limit 100000");
// No flush between samples: these runs test refusals and failed writes, and the flush (a 960 MiB write a sample on the
// CI VM) was most of their time.
const std::vector<std::string> kQuickRun = words("--size 8 --filter cpu/gold --repetitions 1 --min-time 0 --no-flush");

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// kLongRun without `option` and its value, followed by `option value`: the value alone decides, not a repetition.
std::vector<std::string> long_run_with(const std::string& option, const std::string& value) {
  std::vector<std::string> args;
  for (std::size_t i = 0; i < kLongRun.size(); i += 2)
    if (kLongRun[i] != option) args.insert(args.end(), {kLongRun[i], kLongRun[i + 1]});
  return args + std::vector<std::string>{option, value};
}

struct Case {
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> said;  // words the line must contain
  int exit_code = 2;
  Stdout out = Stdout::capture;
};

// Where the report cases find their inputs (outside the case's folder, which must stay empty).
fs::path inputs_folder() {
  static const fs::path folder = [] {
    const fs::path f = empty_folder("cli_bad_input_inputs");
    std::ofstream(f / "run.json") << R"({"context": {}, "results": []})";
    std::ofstream(f / "empty.py");
    std::ofstream(f / "shapes.txt") << "64 32 16 NT\n";
    std::ofstream(f / "bad_shapes.txt") << "64 32 16\n17 33 x\n";
    return f;
  }();
  return folder;
}

std::string substituted(std::string text, const fs::path& folder) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{folder}", folder.string()},
                                   {"{inputs}", inputs_folder().string()}})
    for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
  return text;
}

std::string shown(const std::vector<std::string>& args) {
  std::string line;
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_of(" '\";|&$`\\") == std::string::npos;
    line += (line.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return line;
}

// The Markdown table of the cases run, for the closing note.
void record(const std::string& command, const std::string& ended, const std::string& err, const std::string& files) {
  const char* path = std::getenv("CLI_CASES_TABLE");
  if (!path) return;
  static bool header = false;
  std::ofstream table(path, header ? std::ios::app : std::ios::trunc);
  if (!header) table << "| command | ended | stderr | files left |\n|---|---|---|---|\n";
  header = true;
  auto cell = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.replace(at, 1, "\\|");
    for (std::size_t at; (at = s.find('\n')) != std::string::npos;) s.replace(at, 1, " ⏎ ");
    return s;
  };
  table << "| `" << cell(command) << "` | " << ended << " | `" << cell(err) << "` | " << (files.empty() ? "none" : files)
        << " |\n";
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

void check_refused(const Case& c, int index) {
  const fs::path folder = empty_folder("cli_bad_input_" + std::to_string(index));
  Run run;
  for (const std::string& a : c.args) run.args.push_back(substituted(a, folder));
  for (const auto& [name, value] : c.env) run.set_env.emplace_back(name, substituted(value, folder));
  run.out = c.out;
  run.folder = folder.string();
  run.deadline_s = 20;
  std::string command;
  for (const auto& [name, value] : run.set_env) command += name + "=" + shown({value}) + " ";
  command += "matcompare " + shown(run.args);
  if (c.out == Stdout::dev_full) command += " >/dev/full";
  if (c.out == Stdout::closed) command += " >&-";
  // CLI_CASES_MATCHING=text: only the cases whose command contains it (to look at a few, or to try a mutation).
  if (const char* only = std::getenv("CLI_CASES_MATCHING"); only && command.find(only) == std::string::npos) {
    fs::remove_all(folder);
    return;
  }
  const Outcome o = run_cli(run);
  const std::vector<std::string> left = names_in(folder);
  record(command, o.signal ? "signal " + std::to_string(o.signal) : "exit " + std::to_string(o.exit_code), o.err,
         listed(left));
  INFO("case ", index, ": ", command, "\nstderr: ", o.err, "\nstdout: ", o.out.substr(0, 300));
  CHECK_FALSE(o.killed_at_deadline);
  CHECK(o.signal == 0);
  CHECK(o.exit_code == c.exit_code);
  CHECK(count_lines(o.err) == 1);
  CHECK(o.err.rfind("matcompare: error: ", 0) == 0);
  for (const std::string& word : c.said) CHECK_MESSAGE(o.err.find(substituted(word, folder)) != std::string::npos, word);
  CHECK(o.err.size() < 400);  // a sentence, not a 309-digit range
  CHECK(o.out.empty());
  CHECK(left.empty());
  fs::remove_all(folder);
}

std::vector<Case> bad_input_cases() {
  std::vector<Case> cases;
  auto add = [&](std::vector<std::string> args, std::vector<std::string> said, int exit_code = 2,
                 std::vector<std::pair<std::string, std::string>> env = {}, Stdout out = Stdout::capture) {
    cases.push_back({std::move(args), std::move(env), std::move(said), exit_code, out});
  };
  // Writes: standard output full or closed (exit 4), an --out that cannot be written (exit 2).
  add(words("--filter cpu/openblas --size 64 --repetitions 1 --min-time 0"), {"standard output", "No space left"}, 4, {},
      Stdout::dev_full);
  add(words("--filter cpu/openblas --size 64 --repetitions 1 --min-time 0"), {"standard output", "Bad file descriptor"},
      4, {}, Stdout::closed);
  add(words("--list"), {"standard output", "No space left"}, 4, {}, Stdout::dev_full);
  add(words("--list --format json"), {"standard output"}, 4, {}, Stdout::closed);
  add(words("--help"), {"standard output"}, 4, {}, Stdout::dev_full);
  add(words("--version"), {"standard output"}, 4, {}, Stdout::closed);
  add(kQuickRun + words("--out /dev/full"), {"'/dev/full'", "No space left"});
  add(words("--list --out /dev/full"), {"'/dev/full'", "No space left"});
  add(long_run_with("--out", ""), {"--out", "empty"});
  add(kLongRun + words("--out /proc/version"), {"'/proc/version'", "takes no new files"});
  add(kLongRun + words("--out /no/such/folder/x.json"), {"/no/such/folder/x.json", "No such file"});
  add(kLongRun + words("--out {folder}"), {"Is a directory"});
  // Options: every value checked, with --list too.
  for (const char* seed : {"-1", "-5", "18446744073709551616", "1e3", ""}) add(long_run_with("--seed", seed), {"--seed"});
  for (const char* option : {"--budget", "--time-limit"})
    for (const char* value : {"nan", "inf", "-inf", "-1", "-3", "0", "1e400", "abc"})
      add(long_run_with(option, value), {option});
  for (const char* value : {"nan", "inf", "-1", "3601"}) add(long_run_with("--min-time", value), {"--min-time"});
  for (const char* option : {"--size", "--m", "--n", "--k", "--filter", "--format", "--values", "--devices"})
    add(long_run_with(option, ""), {option});
  for (const char* sizes : {"0", "-5", "abc", "12x", "512:256", "1:100000:1"}) add(words("--size") + words(sizes), {"--size"});
  for (const char* sizes : {"300000", "8,300000"}) add(words("--size") + words(sizes), {"300000", "GiB of host memory"});
  add(words("--m 4,5 --n 3,4,5"), {"different lengths"});
  add(words("--bogus"), {"--bogus"});
  add(words("--filter no-such-backend"), {"no-such-backend"});
  add(words("--format xml"), {"xml"});
  add(words("--values gaussian"), {"gaussian"});
  for (const char* layouts : {"XY", "N", "NN,NN", "NT,"}) add(words("--layout") + words(layouts), {"--layout"});
  add(long_run_with("--layout", ""), {"--layout"});
  add(words("--list --layout TN"), {"--layout", "--list"});
  add(words("--list --format gbench"), {"gbench", "--list"});
  add(words("--suite no-such-suite"), {"--suite", "no-such-suite", "--list-suites"});
  add(words("--suite deepbench-training --size 64"), {"--size does nothing with --suite"});
  add(words("--shapes {inputs}/shapes.txt --layout TN"), {"--layout does nothing with --shapes"});
  add(words("--suite deepbench-training --shapes {inputs}/shapes.txt"), {"exclude each other"});
  add(words("--shapes {inputs}/bad_shapes.txt"), {"bad_shapes.txt:2:", "K 'x'"});
  add(words("--shapes {inputs}/no_such.txt"), {"cannot read the shape list"});
  add(words("--list-suites --size 64"), {"--size does nothing with --list-suites"});
  add(words("--list --suite deepbench-training"), {"--suite does nothing with --list"});
  for (const char* value : {"-1", "100000", "x"}) add(kLongRun + words("--threads") + words(value), {"--threads"});
  add(kLongRun + words("--repetitions 0"), {"--repetitions"});
  for (const char* value : {"nan", "1e40"}) add(kLongRun + words("--alpha") + words(value), {"--alpha"});
  for (const char* value : {"inf", "1e40"}) add(kLongRun + words("--beta") + words(value), {"--beta"});
  add(kLongRun + words("--device -1"), {"--device", "GPU index"});
  add(kLongRun + words("--device 99999999999999999999"), {"--device"});
  for (const char* devices : {"0,0", "64", "x", "0,"}) add(kLongRun + words("--devices") + words(devices), {"--devices"});
  add(words("--list --size abc"), {"--size", "--list"});
  add(words("--list --size 1024"), {"--size", "--list"});
  add(words("--list --seed 1"), {"--seed", "--list"});
  add(words("--list --repetitions 3"), {"--repetitions", "--list"});
  add(words("--list --devices 0,0"), {"--devices"});
  add(words("--list --device -1"), {"--device"});
  add(words("--list --format xml"), {"xml"});
  add(words("--list --filter ''"), {"--filter"});
  // matcompare report: how the CLI finds and starts Python (the report itself is report/'s).
  const std::vector<std::string> report = words("report {inputs}/run.json --out {folder}/report");
  add(words("--size 8") + report, {"--size", "report"});
  add(words("report {inputs}/no-such.json --out {folder}/report"), {"no-such.json"});
  add(words("report {inputs}/run.json --out ''"), {"--out"});
  add(report, {"MATCOMPARE_PYTHON", "touch"}, 2, {{"MATCOMPARE_PYTHON", "x'; touch {folder}/INJECTED; echo '"}});
  add(report, {"MATCOMPARE_PYTHON", "$(touch"}, 2, {{"MATCOMPARE_PYTHON", "$(touch {folder}/INJECTED)"}});
  add(report, {"MATCOMPARE_PYTHON", "not an executable file"}, 2, {{"MATCOMPARE_PYTHON", "/etc/passwd"}});
  add(report, {"MATCOMPARE_PYTHON", "on PATH"}, 2, {{"MATCOMPARE_PYTHON", "no-such-python-here"}});
  add(report, {"MATCOMPARE_PYTHON", "matplotlib"}, 2, {{"MATCOMPARE_PYTHON", "/bin/true"}});
  add(report, {"MATCOMPARE_PYTHON", "empty"}, 2, {{"MATCOMPARE_PYTHON", ""}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "/etc/passwd", "not a Python file"}, 2,
      {{"MATCOMPARE_REPORT_SCRIPT", "/etc/passwd"}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "/dev/null", "not a regular file"}, 2,
      {{"MATCOMPARE_REPORT_SCRIPT", "/dev/null"}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "not a Python file"}, 2, {{"MATCOMPARE_REPORT_SCRIPT", "{inputs}/empty.py"}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "No such file"}, 2, {{"MATCOMPARE_REPORT_SCRIPT", "/no/such/make_report.py"}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "not a regular file"}, 2, {{"MATCOMPARE_REPORT_SCRIPT", "{inputs}"}});
  add(report, {"MATCOMPARE_REPORT_SCRIPT", "empty"}, 2, {{"MATCOMPARE_REPORT_SCRIPT", ""}});
  // The environment: checked before any work, when the row that reads a variable is not even selected.
  const std::vector<std::pair<const char*, std::vector<const char*>>> variables = {
      {"MATCOMPARE_BLIS_BLOCKS", {"abc", "1,2", "0,1,1", "1,1,1,1,1", "256,336,2720,", "99999999,1,1"}},
      {"MATCOMPARE_MICROKERNEL", {"foo", "AVX2+FMA", " generic", "generic "}},
      {"MATCOMPARE_TF32_TILE", {"64x64", "256X128", "abc"}},
      {"MATCOMPARE_FEW_ROWS", {"abc", "65", "-1", "1e1", " 8"}},
      {"MATCOMPARE_CUBLASXT_BLOCK_DIM", {"", "abc", "32", "65537", "8192x"}},
      {"MATCOMPARE_CUBLASMP_BLOCK", {"", "0", "65537", "abc"}},
      {"MATCOMPARE_CUBLASMP_TIMEOUT_S", {"", "0", "1e3", "86401"}},
      {"MATCOMPARE_CUBLASMP_WORKER", {"", "/etc/passwd", "/no/such/worker", "/tmp"}},
      {"MATCOMPARE_HOST_MEMORY_GIB", {"", "lots", "nan", "inf", "-1", "0"}},
  };
  for (const auto& [name, values] : variables)
    for (const char* value : values) {
      add(kLongRun, {name}, 2, {{name, value}});
      if (std::string(name) == "MATCOMPARE_BLIS_BLOCKS" || std::string(name) == "MATCOMPARE_TF32_TILE")
        add(words("--list"), {name}, 2, {{name, value}});
    }
  return cases;
}

struct Signal {
  int number;
  const char* name;
};
const Signal kSignals[] = {{SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}, {SIGQUIT, "SIGQUIT"}};

enum class Moment { first_handler, during_restart, after_1ms, mid_run };
const char* moment_name(Moment m) {
  switch (m) {
    case Moment::first_handler: return "as soon as its handler is installed";
    case Moment::during_restart: return "while the restarted image loads";
    case Moment::after_1ms: return "1 ms after the spawn";
    default: return "mid-run, while the --out file is being written";
  }
}

}  // namespace

TEST_CASE("bad input, failed writes and bad environment: one line, the documented status, no output, no file") {
  const std::vector<Case> cases = bad_input_cases();
  for (std::size_t i = 0; i < cases.size(); ++i) check_refused(cases[i], int(i));
}

TEST_CASE("a signal that ends the process prints one line, ends it by that signal and leaves no file") {
  int restart_window_hits = 0;  // signals sent while the new image had no handler yet, the signals blocked
  for (const Moment moment : {Moment::first_handler, Moment::during_restart, Moment::after_1ms, Moment::mid_run})
    for (const Signal& s : kSignals) {
      const fs::path folder = empty_folder("cli_signal");
      Run run;
      run.args = kLongRun + words("--format json --out results.json");
      run.folder = folder.string();
      run.deadline_s = 30;
      // The restart happens only while the thread-wait settings are not set: make sure it does.
      run.unset_env = {"GOMP_SPINCOUNT", "OMP_WAIT_POLICY", "OPENBLAS_THREAD_TIMEOUT"};
      Child child(run);
      bool ready = true;
      switch (moment) {
        case Moment::first_handler:
          ready = child.wait_until([&] { return child.catches(s.number); }, 10, std::chrono::microseconds(20));
          break;
        case Moment::during_restart:
          ready = child.wait_until(
              [&] { return child.start_environment().find("MATCOMPARE_RESTART_STDERR_FD=") != std::string::npos; }, 10,
              std::chrono::microseconds(20));
          break;
        case Moment::after_1ms:
          while (child.seconds_since_start() < 0.001) {
          }
          break;
        case Moment::mid_run:
          ready = child.wait_until(
              [&] {
                const auto names = names_in(folder);
                return names.size() == 1 && names[0].rfind("results.json.tmp-", 0) == 0;
              },
              20, std::chrono::milliseconds(5));
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          break;
      }
      const bool in_restart_window = moment == Moment::during_restart && !child.catches(s.number) &&
                                     (child.status_mask("SigBlk") & Child::bit(s.number));
      const double sent_at_ms = child.seconds_since_start() * 1000;
      REQUIRE(kill(child.pid(), s.number) == 0);
      restart_window_hits += in_restart_window;
      const Outcome o = child.finish();
      const std::string command = std::string("kill -") + (s.name + 3) + " " + moment_name(moment) + ": matcompare " +
                                  shown(run.args);
      record(command, o.signal ? "signal " + std::to_string(o.signal) + " (status " + std::to_string(o.shell_status()) + ")"
                               : "exit " + std::to_string(o.exit_code),
             o.err, listed(names_in(folder)));
      INFO(std::string(s.name), " ", std::string(moment_name(moment)), " (sent at ", sent_at_ms, " ms)\nstderr: ", o.err);
      CHECK(ready);
      CHECK_FALSE(o.killed_at_deadline);
      CHECK(o.signal == s.number);
      CHECK(o.shell_status() == 128 + s.number);
      CHECK(o.out.empty());
      CHECK(names_in(folder).empty());
      if (moment == Moment::after_1ms && o.err.empty()) {
        // Before the program's first instruction (the kernel and the dynamic loader at work) nothing can print.
        MESSAGE(std::string(s.name), " at 1 ms came before the program started: no line (sent at ", sent_at_ms, " ms)");
        continue;
      }
      CHECK(count_lines(o.err) == 1);
      CHECK(o.err.rfind("matcompare: error: ", 0) == 0);
      CHECK(o.err.find(s.name) != std::string::npos);
      CHECK(o.err.find("no results written") != std::string::npos);
    }
  CHECK(restart_window_hits >= 1);  // the window is milliseconds long: at least one of the four must land in it
}

TEST_CASE("SIGPIPE: a reader that went away ends the run with one line; with SIGPIPE ignored the failed write says so") {
  for (const bool ignored : {false, true}) {
    const fs::path folder = empty_folder("cli_sigpipe");
    int pipe_fds[2];
    REQUIRE(pipe2(pipe_fds, O_CLOEXEC) == 0);
    close(pipe_fds[0]);  // the reader is gone before the first write
    Run run;
    run.args = kQuickRun;
    run.out = Stdout::descriptor;
    run.out_descriptor = pipe_fds[1];
    run.folder = folder.string();
    run.ignore_sigpipe = ignored;
    Child child(run);
    close(pipe_fds[1]);
    const Outcome o = child.finish();
    record(std::string(ignored ? "(SIGPIPE ignored) " : "") + "matcompare " + shown(run.args) + " | (reader closed)",
           o.signal ? "signal " + std::to_string(o.signal) + " (status " + std::to_string(o.shell_status()) + ")"
                    : "exit " + std::to_string(o.exit_code),
           o.err, listed(names_in(folder)));
    INFO("SIGPIPE ignored: ", ignored, "\nstderr: ", o.err);
    CHECK(count_lines(o.err) == 1);
    CHECK(o.err.rfind("matcompare: error: ", 0) == 0);
    CHECK(names_in(folder).empty());
    if (ignored) {
      CHECK(o.exit_code == 4);
      CHECK(o.err.find("Broken pipe") != std::string::npos);
    } else {
      CHECK(o.signal == SIGPIPE);
      CHECK(o.err.find("SIGPIPE") != std::string::npos);
    }
  }
}

TEST_CASE("a signal ignored at start (nohup) stays ignored") {
  const fs::path folder = empty_folder("cli_nohup");
  Run run;
  run.args = kLongRun + words("--out results.json");
  run.folder = folder.string();
  run.ignore_sighup = true;
  Child child(run);
  REQUIRE(child.wait_until([&] { return child.catches(SIGTERM); }, 10));
  REQUIRE(child.wait_until([&] { return names_in(folder).size() == 1; }, 20, std::chrono::milliseconds(5)));
  kill(child.pid(), SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(child.running());
  kill(child.pid(), SIGTERM);
  const Outcome o = child.finish();
  CHECK(o.signal == SIGTERM);
  CHECK(o.err.find("SIGTERM") != std::string::npos);
  CHECK(names_in(folder).empty());
}

TEST_CASE("--out keeps the mode of the file it replaces; a new file gets the umask's") {
  const fs::path folder = empty_folder("cli_out_mode");
  for (const fs::perms mode : {fs::perms(0600), fs::perms(0640), fs::perms(0444)}) {
    const fs::path out = folder / "results.csv";
    fs::remove(out);
    std::ofstream(out) << "old\n";
    fs::permissions(out, mode, fs::perm_options::replace);
    Run run;
    run.args = kQuickRun + words("--format csv --out " + out.string());
    const Outcome o = run_cli(run);
    char octal[8];
    std::snprintf(octal, sizeof octal, "%o", unsigned(mode));
    INFO("mode ", std::string(octal), "\nstderr: ", o.err);
    CHECK(o.exit_code == 0);
    CHECK((fs::status(out).permissions() & fs::perms::all) == mode);
    CHECK(names_in(folder) == std::vector<std::string>{"results.csv"});
    std::ifstream text(out);
    std::string first;
    std::getline(text, first);
    CHECK(first.rfind("backend,", 0) == 0);
  }
  const fs::path fresh = folder / "new.csv";
  const mode_t mask = umask(022);
  Run run;
  run.args = kQuickRun + words("--format csv --out " + fresh.string());
  const Outcome o = run_cli(run);
  umask(mask);
  CHECK(o.exit_code == 0);
  CHECK((fs::status(fresh).permissions() & fs::perms::all) == fs::perms(0644));
}

TEST_CASE("a bad OMP_NUM_THREADS or GOMP_SPINCOUNT: libgomp's warning once, not again from the restarted image") {
  for (const char* variable : {"OMP_NUM_THREADS", "GOMP_SPINCOUNT"}) {
    Run run;
    run.args = words("--list --filter cpu/gold --format csv");
    run.set_env = {{variable, "abc"}};
    run.unset_env = {"OPENBLAS_THREAD_TIMEOUT"};  // so that the CLI restarts itself
    const Outcome o = run_cli(run);
    INFO(std::string(variable), "\nstderr: ", o.err);
    CHECK(o.exit_code == 0);
    const std::string warning = std::string("environment variable ") + variable;
    std::size_t count = 0;
    for (std::size_t at = o.err.find(warning); at != std::string::npos; at = o.err.find(warning, at + 1)) ++count;
    CHECK(count <= 1);  // libgomp warns once; another OpenMP runtime may not warn at all
    CHECK(o.out.find("cpu/gold") != std::string::npos);
  }
}
