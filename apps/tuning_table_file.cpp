#include "tuning_table_file.hpp"

#include <sstream>

std::string rewritten_tuning_table(const std::string& old_text, int cc, long long short_bound, bool short_class,
                                   const std::vector<std::string>& own_rows) {
  std::ostringstream table;
  table << "// Written by matcompare-tune (apps/tune.cpp); rows: {compute capability, largest M*N of the class (0: the "
           "short-C\n// class), variant, group, tuned shape {M, N, K}, its median ms}; a class lists its best variant "
           "of each of up to three\n// block grids.\n";
  const std::string own = "{" + std::to_string(cc) + ",";
  const std::string own_short = own + " " + std::to_string(short_bound) + ",";
  std::istringstream in(old_text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("{", 0) != 0) continue;
    const bool is_short = line.rfind(own_short, 0) == 0;
    if (line.rfind(own, 0) != 0 || is_short != short_class) table << line << "\n";
  }
  for (const std::string& r : own_rows) table << r << "\n";
  return table.str();
}
