// SPDX-License-Identifier: Apache-2.0
#pragma once
// Counts the calling thread's operator new calls (support/allocations.cpp replaces the global
// operator new of the test program), to show which code paths allocate.

#include <cstddef>

namespace openclaw_test {

#if defined(OPENCLAW_TEST_NO_ALLOCATION_COUNT)
// ThreadSanitizer builds cannot replace operator new: nothing is counted there.
inline std::size_t allocations_on_this_thread() noexcept {
    return 0;
}
#else
std::size_t allocations_on_this_thread() noexcept;
#endif

}  // namespace openclaw_test
