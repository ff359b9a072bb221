#include "cli_support.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace {

constexpr long long kMaxExtent = std::numeric_limits<int>::max();

long long parse_extent(const std::string& text, const std::string& option) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty())
    throw std::invalid_argument(option + ": '" + text + "' is not a whole number");
  if (value < 1) throw std::invalid_argument(option + ": sizes must be >= 1, got " + text);
  if (value > kMaxExtent) throw std::invalid_argument(option + ": " + text + " is larger than " + std::to_string(kMaxExtent));
  return value;
}

// The items of a comma-separated list, empty ones kept (the parsers refuse them with their own message).
std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
    items.push_back(text.substr(start, comma - start));
  items.push_back(text.substr(start));
  return items;
}

std::vector<long long> parse_list(const std::string& text, const std::string& option) {
  std::vector<long long> values;
  for (const std::string& item : split_commas(text)) {
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) {
      values.push_back(parse_extent(item, option));
    } else {
      const std::size_t colon2 = item.find(':', colon + 1);
      const long long first = parse_extent(item.substr(0, colon), option);
      const long long last = parse_extent(item.substr(colon + 1, colon2 == std::string::npos ? std::string::npos : colon2 - colon - 1), option);
      const long long step = colon2 == std::string::npos ? first : parse_extent(item.substr(colon2 + 1), option);
      if (last < first) throw std::invalid_argument(option + ": range '" + item + "' ends before it starts");
      if ((last - first) / step > 10000) throw std::invalid_argument(option + ": range '" + item + "' has too many sizes");
      for (long long v = first; v <= last; v += step) values.push_back(v);
    }
  }
  return values;
}

}  // namespace

std::vector<matcompare::GemmShape> parse_shapes(const std::string& sizes, const std::string& m, const std::string& n,
                                                const std::string& k) {
  const std::vector<long long> square = sizes.empty() ? std::vector<long long>{1024} : parse_list(sizes, "--size");
  const auto ms = m.empty() ? square : parse_list(m, "--m");
  const auto ns = n.empty() ? square : parse_list(n, "--n");
  const auto ks = k.empty() ? square : parse_list(k, "--k");
  std::size_t count = 1;
  for (const auto* list : {&ms, &ns, &ks})
    if (list->size() > 1) {
      if (count > 1 && list->size() != count)
        throw std::invalid_argument("--size/--m/--n/--k lists have different lengths (" + std::to_string(count) +
                                    " and " + std::to_string(list->size()) + "); give equal lengths or single values");
      count = list->size();
    }
  std::vector<matcompare::GemmShape> shapes;
  for (std::size_t i = 0; i < count; ++i)
    shapes.push_back({ms.size() > 1 ? ms[i] : ms[0], ns.size() > 1 ? ns[i] : ns[0], ks.size() > 1 ? ks[i] : ks[0]});
  return shapes;
}

std::vector<matcompare::GemmShape> with_layouts(const std::vector<matcompare::GemmShape>& shapes,
                                                const std::string& layouts) {
  std::vector<matcompare::Layout> chosen;
  for (const std::string& name : split_commas(layouts)) {
    try {
      const matcompare::Layout layout = matcompare::parse_layout(name);
      if (std::find(chosen.begin(), chosen.end(), layout) != chosen.end())
        throw std::invalid_argument("layout " + matcompare::to_string(layout) + " is listed twice");
      chosen.push_back(layout);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--layout: ") + e.what());
    }
  }
  std::vector<matcompare::GemmShape> out;
  for (const auto& shape : shapes)
    for (matcompare::Layout layout : chosen) {
      matcompare::GemmShape s = shape;
      s.layout = layout;
      out.push_back(s);
    }
  return out;
}

int exit_status(const std::vector<matcompare::BenchmarkResult>& results) {
  for (const auto& r : results)
    if (r.status == matcompare::Status::failed) return kExitRowFailed;
  return kExitOk;
}
