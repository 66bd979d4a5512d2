// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/base/map_registry.hpp>: compiled once into
// the openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/base/map_registry.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

OPENCLAW_INLINE constinit MapRegistry map_registry{};

OPENCLAW_INLINE MemRange MapRegistry::range_of(cl_mem mem, OnError on_error) {
    const cl_mem parent = get_info<cl_mem, CL_MEM_ASSOCIATED_MEMOBJECT>(on_error, mem);
    const std::size_t size = get_info<cl_mem, CL_MEM_SIZE>(on_error, mem);
    if (parent == nullptr) {
        return {mem, 0, size};
    }
    const std::size_t offset = get_info<cl_mem, CL_MEM_OFFSET>(on_error, mem);
    return {parent, offset, offset + size};
}

OPENCLAW_INLINE std::uint64_t MapRegistry::add(cl_mem mem, std::size_t begin, std::size_t end,
                                               bool writable, const char* call, OnError on_error) {
    Relay step(on_error);
    const MemRange whole = range_of(mem, step);
    if (step.failed()) {
        return 0;
    }
    const MemRange range{whole.root, whole.begin + begin, whole.begin + end};
    const std::lock_guard lock(mutex_);
    if (const Region* other = find_conflict(range, writable)) {
        conflict(*other, range, writable ? Use::write : Use::read, call, on_error);
        return 0;
    }
    const std::uint64_t ticket = ++last_ticket_;
    regions_.push_back({ticket, range, writable});
    live_.fetch_add(1, std::memory_order_relaxed);
    return ticket;
}

OPENCLAW_INLINE void MapRegistry::remove(std::uint64_t ticket) noexcept {
    const std::lock_guard lock(mutex_);
    for (auto it = regions_.begin(); it != regions_.end(); ++it) {
        if (it->ticket == ticket) {
            regions_.erase(it);
            live_.fetch_sub(1, std::memory_order_relaxed);
            return;
        }
    }
}

OPENCLAW_INLINE const MapRegistry::Region* MapRegistry::find_conflict(const MemRange& range,
                                                                      bool writes) const {
    for (const Region& region : regions_) {
        const bool overlap = region.range.root == range.root && region.range.begin < range.end &&
                             range.begin < region.range.end;
        if (overlap && (region.writable || writes)) {
            return &region;
        }
    }
    return nullptr;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool MapRegistry::check_slow(cl_mem mem, Use use,
                                                                          const char* call,
                                                                          OnError on_error) const {
    Relay step(on_error);
    const MemRange range = range_of(mem, step);
    if (step.failed()) {
        return false;
    }
    const std::lock_guard lock(mutex_);
    if (const Region* other = find_conflict(range, use == Use::write)) {
        conflict(*other, range, use, call, on_error);
        return false;
    }
    return true;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void MapRegistry::conflict(const Region& mapped,
                                                                        const MemRange& range,
                                                                        Use use, const char* call,
                                                                        OnError on_error) {
    fail(on_error, CL_INVALID_OPERATION, call,
         concat("the buffer's bytes [", range.begin, ", ", range.end, ") would be ",
                use == Use::write ? "written" : "read", " while bytes [", mapped.range.begin, ", ",
                mapped.range.end, ") are mapped for ", mapped.writable ? "writing" : "reading",
                " by a live MappedSpan: unmap it (destroy it or call unmap()) first"));
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
