// Shape suites: the file format (comments, optional layout and name), one line naming file and line for each bad
// problem, and the shipped suites against their sources (DeepBench's column-major tuples, Llama 3.1's layers).
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "matcompare/suite.hpp"

using namespace matcompare;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const SuiteShape& named(const Suite& suite, const std::string& name) {
  for (const SuiteShape& s : suite.shapes)
    if (s.name == name) return s;
  FAIL("no problem named " << name << " in " << suite.name);
  return suite.shapes.front();
}

}  // namespace

TEST_CASE("a suite file: comments and blank lines skipped, the layout and the name optional, CRLF taken") {
  const std::string path = write_file("mine.txt",
                                      "# mine: my model's layers\r\n"
                                      "\r\n"
                                      "   # an indented comment\n"
                                      "64 32 16\n"
                                      "7 8 9 tn\n"
                                      "1 4096 14336 NT   down projection, T=1 \n");
  const Suite suite = read_suite(path);
  CHECK(suite.name == "mine");
  CHECK(suite.title == "my model's layers");
  REQUIRE(suite.shapes.size() == 3);
  CHECK(suite.shapes[0].shape.m == 64);
  CHECK(suite.shapes[0].shape.n == 32);
  CHECK(suite.shapes[0].shape.k == 16);
  CHECK(suite.shapes[0].shape.layout == Layout::nn);
  CHECK(suite.shapes[0].name.empty());
  CHECK(suite.shapes[1].shape.layout == Layout::tn);
  CHECK(suite.shapes[2].shape.layout == Layout::nt);
  CHECK(suite.shapes[2].shape.k == 14336);
  CHECK(suite.shapes[2].name == "down projection, T=1 ");
}

TEST_CASE("a bad problem is one message naming the file, the line and what is wrong") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"# x\n64 32\n", ":2: a problem is M N K [LAYOUT [NAME]], got '64 32'"},
      {"0 1 1\n", ":1: M '0' is not a whole number from 1 to 2147483647"},
      {"1 -3 1\n", ":1: N '-3' is not a whole number"},
      {"\n\n1 1 99999999999\n", ":3: K '99999999999' is not a whole number"},
      {"1 1 1.5\n", ":1: K '1.5' is not a whole number"},
      {"1 1 1 XY name\n", ":1: unknown layout 'XY'"},
      {"# only comments\n\n", "holds no problem"},
  };
  int index = 0;
  for (const auto& [text, message] : cases) {
    const std::string path = write_file("bad" + std::to_string(index++) + ".txt", text);
    CAPTURE(text);
    try {
      read_suite(path);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      CHECK(what.find(path) != std::string::npos);
      CHECK(what.find(message) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(read_suite("/no/such/suite.txt"), doctest::Contains("cannot read"), std::invalid_argument);
}

TEST_CASE("the shipped suites: each reads, and its lines are its source's problems converted as its header says") {
  const std::vector<Suite> suites = suites_in(MATCOMPARE_SUITES_DIR);
  std::vector<std::string> names;
  for (const Suite& s : suites) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"deepbench-inference-device", "deepbench-inference-server",
                                          "deepbench-training", "error-vs-k", "llama-3.1-70b-decode",
                                          "llama-3.1-70b-prefill", "llama-3.1-8b-decode", "llama-3.1-8b-prefill"});
  for (const Suite& s : suites) {
    CAPTURE(s.name);
    CHECK_FALSE(s.title.empty());
    for (const SuiteShape& p : s.shapes) CHECK_FALSE(p.name.empty());
  }
  // DeepBench's first training problem, column-major (m 1760, n 16, k 1760, NN), is row-major 16 x 1760 x 1760 NN;
  // its (1760, 7133, 1760, a_t false, b_t true) is row-major M = 7133, N = 1760 with B's letter from a_t, A's from b_t.
  const Suite training = read_suite(std::string(MATCOMPARE_SUITES_DIR) + "/deepbench-training.txt");
  CHECK(training.shapes.size() == 160);
  const GemmShape first = training.shapes.front().shape;
  CHECK((first.m == 16 && first.n == 1760 && first.k == 1760 && first.layout == Layout::nn));
  const GemmShape b_t = named(training, "deepbench m=1760 n=7133 k=1760 a_t=0 b_t=1").shape;
  CHECK((b_t.m == 7133 && b_t.n == 1760 && b_t.k == 1760 && b_t.layout == Layout::tn));
  const GemmShape a_t = named(training, "deepbench m=1760 n=16 k=1760 a_t=1 b_t=0").shape;
  CHECK((a_t.m == 16 && a_t.n == 1760 && a_t.layout == Layout::nt));
  // Llama 3.1 8B: y = x W^T, M = tokens, N = out, K = in; qkv is 4096 + 2 x 8 KV heads x 128.
  const Suite decode = read_suite(std::string(MATCOMPARE_SUITES_DIR) + "/llama-3.1-8b-decode.txt");
  const GemmShape qkv = named(decode, "llama-3.1-8b qkv T=1").shape;
  CHECK((qkv.m == 1 && qkv.n == 6144 && qkv.k == 4096 && qkv.layout == Layout::nt));
  const GemmShape down = named(decode, "llama-3.1-8b down T=64").shape;
  CHECK((down.m == 64 && down.n == 4096 && down.k == 14336));
  const Suite prefill = read_suite(std::string(MATCOMPARE_SUITES_DIR) + "/llama-3.1-70b-prefill.txt");
  const GemmShape head = named(prefill, "llama-3.1-70b lm-head T=16384").shape;
  CHECK((head.m == 16384 && head.n == 128256 && head.k == 8192));
  // The error study: M = N = 512, K from 256 to 65536 in steps of 4.
  const Suite sweep = read_suite(std::string(MATCOMPARE_SUITES_DIR) + "/error-vs-k.txt");
  std::vector<std::int64_t> ks;
  for (const SuiteShape& p : sweep.shapes) {
    CHECK((p.shape.m == 512 && p.shape.n == 512 && p.shape.layout == Layout::nn));
    ks.push_back(p.shape.k);
  }
  CHECK(ks == std::vector<std::int64_t>{256, 1024, 4096, 16384, 65536});
}
