#pragma once
// The checks every Workspace::download_rows makes before it reads a row (backend.hpp states the contract), and the
// layout check of every Backend::prepare.
#include <cstdint>
#include <vector>

#include "matcompare/backend.hpp"

namespace matcompare {

// Throws std::invalid_argument when `shape` is not `held` (the workspace's shape) or out is not rows.size() x N,
// std::out_of_range naming the first row outside [0, held.m).
void check_download_rows(const std::vector<std::int64_t>& rows, const GemmShape& shape, const GemmShape& held,
                         const MatrixF& out);

// Throws std::invalid_argument when `shape` has a layout other than NN and the row does not take every layout
// (BackendInfo::all_layouts): a kernel given a transposed operand it reads as untransposed would compute garbage.
void check_layout(const BackendInfo& info, const GemmShape& shape);

}  // namespace matcompare
