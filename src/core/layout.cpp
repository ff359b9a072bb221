#include "matcompare/layout.hpp"

#include <cctype>
#include <stdexcept>

namespace matcompare {
namespace {

void check(Layout layout, const char* where) {
  if (layout != Layout::nn && layout != Layout::nt && layout != Layout::tn && layout != Layout::tt)
    throw std::invalid_argument(std::string(where) + ": Layout " + std::to_string(static_cast<int>(layout)) +
                                " is none of NN, NT, TN, TT");
}

}  // namespace

bool a_transposed(Layout layout) {
  check(layout, "a_transposed");
  return layout == Layout::tn || layout == Layout::tt;
}

bool b_transposed(Layout layout) {
  check(layout, "b_transposed");
  return layout == Layout::nt || layout == Layout::tt;
}

std::string to_string(Layout layout) {
  check(layout, "to_string");
  return std::string(a_transposed(layout) ? "T" : "N") + (b_transposed(layout) ? "T" : "N");
}

Layout parse_layout(const std::string& name) {
  std::string upper = name;
  for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  for (Layout layout : {Layout::nn, Layout::nt, Layout::tn, Layout::tt})
    if (upper == to_string(layout)) return layout;
  throw std::invalid_argument("unknown layout '" + name + "' (use NN, NT, TN or TT: op(A) then op(B), T transposed)");
}

}  // namespace matcompare
