#pragma once
// A row that exists in every build but cannot run in this one (no CUDA, no cuBLASMp): it says why.
#include <memory>
#include <string>

#include "matcompare/backend.hpp"

namespace matcompare {

std::unique_ptr<Backend> make_unavailable_backend(BackendInfo info, std::string reason);

}  // namespace matcompare
