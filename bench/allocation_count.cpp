// SPDX-License-Identifier: Apache-2.0
// Counts every C++ allocation of the program it is linked into (bench_transfers: the allocations
// of a non-blocking read). In a unit of its own, so that no caller inlines these operators: g++ 13
// at -O3 pairs an inlined delete's free() with the operator new it sees and warns
// (-Wmismatched-new-delete).
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> count{0};
}  // namespace

namespace bench {
std::size_t allocations() noexcept {
    return count.load(std::memory_order_relaxed);
}
}  // namespace bench

void* operator new(std::size_t bytes) {
    count.fetch_add(1, std::memory_order_relaxed);
    if (void* memory = std::malloc(bytes == 0 ? 1 : bytes)) {
        return memory;
    }
    throw std::bad_alloc();
}
void operator delete(void* memory) noexcept {
    std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
    std::free(memory);
}
