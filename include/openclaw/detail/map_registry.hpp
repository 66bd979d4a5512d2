// SPDX-License-Identifier: Apache-2.0
#pragma once
// The registry of live mappings (detail core layer): every MappedSpan and MappedImage registers
// the byte range of its root buffer it maps, and transfers, set_args and launches ask it whether
// their use of a buffer conflicts with one. It costs one relaxed atomic load per check when
// nothing is mapped. Process-wide state: one registry per program (docs/design.md).

#include <openclaw/detail/info.hpp>
#include <openclaw/error.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// What a command does with a buffer: reading may overlap a read-only mapping, nothing else may.
enum class Use : unsigned char { read, write };

/// A buffer's place in its root buffer (sub-buffers are resolved to the root they were cut from).
struct MemRange {
    cl_mem root = nullptr;
    std::size_t begin = 0;  // bytes
    std::size_t end = 0;
};

/// The live mappings of this process.
class MapRegistry {
  public:
    struct Region {
        std::uint64_t ticket;
        MemRange range;
        bool writable;
    };

    /// True when some mapping is alive somewhere (the only cost of a check in the common case).
    bool any() const noexcept { return live_.load(std::memory_order_relaxed) != 0; }

    /// Fails with CL_INVALID_OPERATION (and returns false) if using `mem` as `use` conflicts
    /// with a live mapping.
    bool check(cl_mem mem, Use use, const char* call, OnError on_error) const {
        if (any()) [[unlikely]] {
            return check_slow(mem, use, call, on_error);
        }
        return true;
    }

    /// Records a new mapping of `mem`'s byte range [begin, end) (relative to `mem`), after
    /// checking that it conflicts with no live one; returns its ticket, 0 after a failure.
    std::uint64_t add(cl_mem mem, std::size_t begin, std::size_t end, bool writable,
                      const char* call, OnError on_error);

    /// Forgets the mapping of `ticket`.
    void remove(std::uint64_t ticket) noexcept;

  private:
    static MemRange range_of(cl_mem mem, OnError on_error);
    const Region* find_conflict(const MemRange& range, bool writes) const;
    [[gnu::cold]] bool check_slow(cl_mem mem, Use use, const char* call, OnError on_error) const;
    [[gnu::cold]] static void conflict(const Region& mapped, const MemRange& range, Use use,
                                       const char* call, OnError on_error);

    std::atomic<std::size_t> live_{0};
    mutable std::mutex mutex_;
    std::vector<Region> regions_;
    std::uint64_t last_ticket_ = 0;
};

OPENCLAW_PROCESS_STATE MapRegistry map_registry OPENCLAW_INITIALIZED_AS();

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
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
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

}  // namespace detail
OPENCLAW_END_NAMESPACE
