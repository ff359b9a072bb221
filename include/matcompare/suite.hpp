#pragma once
// Shape suites: lists of problems to run, shipped in suites/ (DeepBench's sets, transformer layers) or a user's own
// (--shapes FILE). One problem a line, "M N K [LAYOUT [NAME...]]"; '#' starts a comment line.
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare {

struct SuiteShape {
  GemmShape shape;
  std::string name;  // what the problem is in its source ("llama-3.1-8b qkv T=1"); may be empty
};

struct Suite {
  std::string name;   // the file's name without .txt
  std::string title;  // its first comment line, where it has one, less a leading "NAME: "
  std::string path;
  std::vector<SuiteShape> shapes;
};

// Reads a suite file. Throws std::invalid_argument naming the file and, for a bad line, its number and what is wrong
// with it: "my.txt:7: K 'x' is not a whole number from 1 to 2147483647". A file with no problem is refused too.
Suite read_suite(const std::string& path);

// The shipped suites in `folder` (every *.txt), by name. Throws std::invalid_argument for a file read_suite refuses.
std::vector<Suite> suites_in(const std::string& folder);

}  // namespace matcompare
