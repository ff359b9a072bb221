#pragma once
// Which operands are transposed, in the row-major convention of the whole library: C = α·op(A)·op(B) + β·C with
// op(A) M×K and op(B) K×N. The first letter is A's, the second B's: NT is C = A·Bᵀ with B stored N×K, the
// y = x·Wᵀ of a linear layer. A transposed operand is stored as the transpose: A of TN is a K×M matrix. To a
// column-major BLAS the same memory is Cᵀ = op(B)ᵀ·op(A)ᵀ: row-major XY is its call with the operands swapped and
// transa = Y, transb = X (docs/cli.md, "Layouts").
#include <string>

namespace matcompare {

enum class Layout { nn, nt, tn, tt };

bool a_transposed(Layout layout);  // TN, TT
bool b_transposed(Layout layout);  // NT, TT
// These throw std::invalid_argument for a value that is none of Layout's.
std::string to_string(Layout layout);  // "NN", "NT", "TN", "TT"
// "NN", "NT", "TN" or "TT" (upper or lower case); throws std::invalid_argument naming the accepted names.
Layout parse_layout(const std::string& name);

}  // namespace matcompare
