// SPDX-License-Identifier: Apache-2.0
#pragma once
// Counts the calling thread's operator new calls (support/allocations.cpp replaces the global
// operator new of the test program), to show which code paths allocate.

#include <cstddef>

namespace openclaw_test {

std::size_t allocations_on_this_thread() noexcept;

}  // namespace openclaw_test
