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

// Every form is replaced, so that whatever allocates through one form and frees through another
// stays on malloc/free, and no sanitizer runtime is asked for the forms left out. (Replacing only
// some let Catch's `new (std::nothrow)` reach AddressSanitizer's allocator and come back to
// std::free here, an alloc-dealloc mismatch; and ThreadSanitizer's runtime defines them all in one
// object file, whose other forms then collided with these at link time.)
namespace {
void* counted_malloc(std::size_t size) noexcept {
    ++allocations;
    return std::malloc(size != 0 ? size : 1);
}
void* counted_aligned(std::size_t size, std::align_val_t alignment) noexcept {
    ++allocations;
    const auto align = static_cast<std::size_t>(alignment);
    return std::aligned_alloc(align, (size + align - 1) / align * align);
}
void* or_throw(void* p) {
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}
}  // namespace

void* operator new(std::size_t size) {
    return or_throw(counted_malloc(size));
}
void* operator new[](std::size_t size) {
    return or_throw(counted_malloc(size));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    return counted_malloc(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    return counted_malloc(size);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
    return or_throw(counted_aligned(size, alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
    return or_throw(counted_aligned(size, alignment));
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return counted_aligned(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return counted_aligned(size, alignment);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}
