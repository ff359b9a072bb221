#pragma once
#include <string>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare {

// Every backend, CPU first, each ladder in the order its seeds teach it. Built once.
const std::vector<const Backend*>& all_backends();

// Throws std::invalid_argument naming the closest names when none matches exactly.
const Backend& find_backend(const std::string& name);

// Backends whose name contains any of the comma-separated patterns ("*" matches any run of
// characters); an empty pattern selects all.
std::vector<const Backend*> select_backends(const std::string& patterns);

}  // namespace matcompare
