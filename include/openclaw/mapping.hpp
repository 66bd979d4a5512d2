// SPDX-License-Identifier: Apache-2.0
#pragma once
// MappedSpan<T>: host access to a mapped region of a buffer that unmaps itself, and the registry
// of live mappings that lets launches and transfers refuse a buffer while a conflicting view of
// it is alive. The registry costs one relaxed atomic load per check when nothing is mapped.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

namespace detail {

/// What a command does with a buffer: reading may overlap a read-only mapping, nothing else may.
enum class Use : unsigned char { read, write };

/// A buffer's place in its root buffer (sub-buffers are resolved to the root they were cut from).
struct MemRange {
    cl_mem root = nullptr;
    std::size_t begin = 0;  // bytes
    std::size_t end = 0;
};

inline MemRange range_of(cl_mem mem) {
    const cl_mem parent = get_info<cl_mem, CL_MEM_ASSOCIATED_MEMOBJECT>(mem);
    const std::size_t size = get_info<cl_mem, CL_MEM_SIZE>(mem);
    if (parent == nullptr) {
        return {mem, 0, size};
    }
    const std::size_t offset = get_info<cl_mem, CL_MEM_OFFSET>(mem);
    return {parent, offset, offset + size};
}

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
    bool check(cl_mem mem, Use use, const char* call) const {
        if (any()) [[unlikely]] {
            return check_slow(mem, use, call);
        }
        return true;
    }

    /// Records a new mapping of `mem`'s byte range [begin, end) (relative to `mem`), after
    /// checking that it conflicts with no live one; returns its ticket, 0 after a failure.
    std::uint64_t add(cl_mem mem, std::size_t begin, std::size_t end, bool writable,
                      const char* call) {
        const FailureWatch watch;
        const MemRange whole = range_of(mem);
        if (watch.failed()) {
            return 0;
        }
        const MemRange range{whole.root, whole.begin + begin, whole.begin + end};
        const std::lock_guard lock(mutex_);
        if (const Region* other = find_conflict(range, writable)) {
            conflict(*other, range, writable ? Use::write : Use::read, call);
            return 0;
        }
        const std::uint64_t ticket = ++last_ticket_;
        regions_.push_back({ticket, range, writable});
        live_.fetch_add(1, std::memory_order_relaxed);
        return ticket;
    }

    void remove(std::uint64_t ticket) noexcept {
        const std::lock_guard lock(mutex_);
        const auto it = std::find_if(regions_.begin(), regions_.end(),
                                     [&](const Region& r) { return r.ticket == ticket; });
        if (it != regions_.end()) {
            regions_.erase(it);
            live_.fetch_sub(1, std::memory_order_relaxed);
        }
    }

  private:
    const Region* find_conflict(const MemRange& range, bool writes) const {
        for (const Region& region : regions_) {
            const bool overlap = region.range.root == range.root &&
                                 region.range.begin < range.end && range.begin < region.range.end;
            if (overlap && (region.writable || writes)) {
                return &region;
            }
        }
        return nullptr;
    }

    [[gnu::noinline, gnu::cold]] bool check_slow(cl_mem mem, Use use, const char* call) const {
        const FailureWatch watch;
        const MemRange range = range_of(mem);
        if (watch.failed()) {
            return false;
        }
        const std::lock_guard lock(mutex_);
        if (const Region* other = find_conflict(range, use == Use::write)) {
            conflict(*other, range, use, call);
            return false;
        }
        return true;
    }

    [[gnu::noinline, gnu::cold]] static void conflict(const Region& mapped, const MemRange& range,
                                                      Use use, const char* call) {
        fail(CL_INVALID_OPERATION, call,
             concat("the buffer's bytes [", range.begin, ", ", range.end, ") would be ",
                    use == Use::write ? "written" : "read", " while bytes [", mapped.range.begin,
                    ", ", mapped.range.end, ") are mapped for ",
                    mapped.writable ? "writing" : "reading",
                    " by a live MappedSpan: unmap it (destroy it or call unmap()) first"));
    }

    std::atomic<std::size_t> live_{0};
    mutable std::mutex mutex_;
    std::vector<Region> regions_;
    std::uint64_t last_ticket_ = 0;
};

inline constinit MapRegistry map_registry{};

}  // namespace detail

/// A mapped region of a buffer, readable (MappedSpan<const T>) or writable (MappedSpan<T>) from
/// the host. Move-only; unmaps when destroyed or by unmap(). Holds its buffer and queue, so it
/// stays valid when the Buffer and Queue variables it came from are gone. While it is alive,
/// launches and transfers that would conflict with it throw CL_INVALID_OPERATION.
template <class T>
class MappedSpan {
  public:
    /// T (const T for a read-only view).
    using element_type = T;
    /// T without const.
    using value_type = std::remove_cv_t<T>;
    /// std::size_t.
    using size_type = std::size_t;
    /// A pointer into the mapped region.
    using iterator = T*;
    /// A reference to an element of the mapped region.
    using reference = T&;

    MappedSpan() = default;
    MappedSpan(const MappedSpan&) = delete;
    MappedSpan& operator=(const MappedSpan&) = delete;
    /// Takes over `other`'s mapping; `other` becomes empty.
    MappedSpan(MappedSpan&& other) noexcept
        : mem_(std::move(other.mem_)),
          queue_(std::move(other.queue_)),
          data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          ticket_(std::exchange(other.ticket_, 0)) {}
    /// Unmaps this view's region (if any), then takes over `other`'s mapping.
    MappedSpan& operator=(MappedSpan&& other) noexcept {
        if (this != &other) {
            unmap_noexcept();
            mem_ = std::move(other.mem_);
            queue_ = std::move(other.queue_);
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
            ticket_ = std::exchange(other.ticket_, 0);
        }
        return *this;
    }
    ~MappedSpan() { unmap_noexcept(); }

    /// Unmaps now, reporting a failure (see OnError); the view is empty afterwards.
    void unmap(OnError = {}) {
        if (data_ == nullptr) {
            return;
        }
        const cl_int code = release();
        (void)detail::check(code, "clEnqueueUnmapMemObject");
    }

    /// The first mapped element.
    T* data() const noexcept { return data_; }
    /// The number of mapped elements.
    std::size_t size() const noexcept { return size_; }
    /// size() * sizeof(T).
    std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    /// True for an empty (default-constructed, moved-from or unmapped) view.
    bool empty() const noexcept { return size_ == 0; }
    /// Iterator to the first element.
    T* begin() const noexcept { return data_; }
    /// Iterator past the last element.
    T* end() const noexcept { return data_ + size_; }
    /// Element `i` (unchecked, as std::span).
    T& operator[](std::size_t i) const noexcept { return data_[i]; }
    /// The region as a std::span.
    std::span<T> span() const noexcept { return {data_, size_}; }
    operator std::span<T>() const noexcept { return span(); }  // NOLINT: a view converts freely
    operator std::span<const T>() const noexcept requires(!std::is_const_v<T>) { return span(); }

    /// Maps `count` elements at element `offset` of `mem` (blocking) and registers the mapping.
    /// Used by Buffer::map_read/map_write/map_read_write. Empty after a failure.
    static MappedSpan map(cl_command_queue queue, cl_mem mem, cl_map_flags flags,
                          std::size_t offset, std::size_t count, const WaitList& wait = {}) {
        MappedSpan view;
        if (count == 0) {
            return view;
        }
        view.mem_ = detail::Handle<cl_mem>::retain(mem);
        view.queue_ = detail::Handle<cl_command_queue>::retain(queue);
        const bool writable = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
        const std::size_t begin = offset * sizeof(T);
        const std::size_t bytes = count * sizeof(T);
        const std::uint64_t ticket =
            detail::map_registry.add(mem, begin, begin + bytes, writable, "clEnqueueMapBuffer");
        if (ticket == 0) {
            return {};
        }
        cl_int code = CL_SUCCESS;
        void* host = clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, begin, bytes, wait.size(),
                                        wait.data(), nullptr, &code);
        if (code != CL_SUCCESS) {
            detail::map_registry.remove(ticket);
            detail::fail(code, "clEnqueueMapBuffer",
                         detail::concat(count, " elements at offset ", offset, " (", bytes,
                                        " bytes at ", begin, ")"));
            return {};
        }
        view.data_ = static_cast<T*>(host);
        view.size_ = count;
        view.ticket_ = ticket;
        return view;
    }

    /// Takes charge of a mapping made elsewhere (clEnqueueMapImage, for MappedImage): `count`
    /// elements at `data` of `mem`, registered in the map registry as `ticket`, which the view
    /// now owns (it unmaps and deregisters).
    static MappedSpan adopt_mapping(cl_command_queue queue, cl_mem mem, T* data, std::size_t count,
                                    std::uint64_t ticket) {
        MappedSpan view;
        view.mem_ = detail::Handle<cl_mem>::retain(mem);
        view.queue_ = detail::Handle<cl_command_queue>::retain(queue);
        view.data_ = data;
        view.size_ = count;
        view.ticket_ = ticket;
        return view;
    }

  private:
    cl_int release() noexcept {
        using Mutable = std::remove_const_t<T>;
        const cl_int code = clEnqueueUnmapMemObject(
            queue_.get(), mem_.get(), const_cast<Mutable*>(data_), 0, nullptr, nullptr);
        detail::map_registry.remove(ticket_);
        data_ = nullptr;
        size_ = 0;
        ticket_ = 0;
        mem_.reset();
        queue_.reset();
        return code;
    }

    void unmap_noexcept() noexcept {
        if (data_ != nullptr) {
            if (const cl_int code = release(); code != CL_SUCCESS) {
                detail::report_cleanup_failure("clEnqueueUnmapMemObject", code);
            }
        }
    }

    detail::Handle<cl_mem> mem_;
    detail::Handle<cl_command_queue> queue_;
    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::uint64_t ticket_ = 0;
};

}  // namespace openclaw
