// The replacement global operator new/delete behind allocations_on_this_thread(). Kept in its own
// translation unit so that compilers do not inline it into callers and pair its malloc/free with
// the callers' new/delete expressions.
#include "support/allocations.hpp"

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t allocations = 0;
}  // namespace

std::size_t openclaw_test::allocations_on_this_thread() noexcept {
    return allocations;
}

void* operator new(std::size_t size) {
    ++allocations;
    if (void* p = std::malloc(size != 0 ? size : 1)) {
        return p;
    }
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
