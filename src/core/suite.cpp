#include "matcompare/suite.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace matcompare {
namespace {

constexpr std::int64_t kMaxExtent = 2147483647;  // the CLI's --m/--n/--k range

std::int64_t extent(const std::string& text, const char* what, const std::string& where) {
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  errno = 0;
  const long long value = digits ? std::strtoll(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno != 0 || value < 1 || value > kMaxExtent)
    throw std::invalid_argument(where + std::string(what) + " '" + text + "' is not a whole number from 1 to " +
                                std::to_string(kMaxExtent));
  return value;
}

}  // namespace

Suite read_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read the shape list '" + path + "'");
  Suite suite;
  suite.path = path;
  suite.name = std::filesystem::path(path).stem().string();
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      const std::size_t text = line.find_first_not_of("# \t");
      if (number == 1 && text != std::string::npos) suite.title = line.substr(text);
      continue;
    }
    const std::string where = path + ":" + std::to_string(number) + ": ";
    std::istringstream fields(line);
    std::string m, n, k, layout;
    fields >> m >> n >> k;
    if (k.empty()) throw std::invalid_argument(where + "a problem is M N K [LAYOUT [NAME]], got '" + line + "'");
    SuiteShape s;
    s.shape.m = extent(m, "M", where);
    s.shape.n = extent(n, "N", where);
    s.shape.k = extent(k, "K", where);
    if (fields >> layout) {
      try {
        s.shape.layout = parse_layout(layout);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(where + e.what());
      }
    }
    std::getline(fields >> std::ws, s.name);
    suite.shapes.push_back(std::move(s));
  }
  if (suite.shapes.empty()) throw std::invalid_argument("the shape list '" + path + "' holds no problem");
  // "deepbench-training: DeepBench's GEMM training set": the title without the name the file already gives.
  if (suite.title.rfind(suite.name + ": ", 0) == 0) suite.title.erase(0, suite.name.size() + 2);
  return suite;
}

std::vector<Suite> suites_in(const std::string& folder) {
  std::vector<Suite> suites;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.is_regular_file() && entry.path().extension() == ".txt") suites.push_back(read_suite(entry.path().string()));
  std::sort(suites.begin(), suites.end(), [](const Suite& a, const Suite& b) { return a.name < b.name; });
  return suites;
}

}  // namespace matcompare
