#pragma once
// Process-wide state of the selected GPU: shared by every workspace.
#include <cstddef>

namespace matcompare::gpu {

// A device buffer of twice the L2 size; writing it evicts everything a sample left in L2.
void* l2_flush_buffer(std::size_t& bytes);
// After a kernel fault the context is unusable: reset it so the next backend starts clean.
void recover_if_broken();

}  // namespace matcompare::gpu
