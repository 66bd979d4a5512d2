// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The registry of live mappings (detail core layer): every MappedSpan and MappedImage registers
// the byte range of its root buffer it maps, and transfers, set_args and launches ask it whether
// their use of a buffer conflicts with one. It costs one relaxed atomic load per check when
// nothing is mapped. Process-wide state: one registry per program (docs/design.md).

#include <openclaw/detail/base/info.hpp>
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

    /// The bytes of its root buffer `mem` covers (two queries for a sub-buffer, one otherwise).
    static MemRange range_of(cl_mem mem, OnError on_error);

  private:
    const Region* find_conflict(const MemRange& range, bool writes) const;
    [[gnu::cold]] bool check_slow(cl_mem mem, Use use, const char* call, OnError on_error) const;
    [[gnu::cold]] static void conflict(const Region& mapped, const MemRange& range, Use use,
                                       const char* call, OnError on_error);

    std::atomic<std::size_t> live_{0};
    mutable std::mutex mutex_;
    std::vector<Region> regions_;
    std::uint64_t last_ticket_ = 0;
};

/// The process's one registry (defined in impl/detail/base/map_registry.ipp).
extern constinit MapRegistry map_registry;

}  // namespace detail
OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/base/map_registry.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
