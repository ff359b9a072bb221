#pragma once
// One number in a message, printf-style: "%.3g s".
#include <cstdio>
#include <string>

namespace matcompare {

inline std::string format(const char* fmt, double x) {
  char text[64];
  std::snprintf(text, sizeof text, fmt, x);
  return text;
}

}  // namespace matcompare
