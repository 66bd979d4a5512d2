// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// MemoryPool: buffers for one queue (its context and device) recycled instead of created and
// released (a side header). allocate<T, Access>(count) hands out a plain Buffer<T, Access> over a
// pooled memory object; when the last copy of that buffer goes, the memory returns to the pool,
// and is handed out again only once the commands enqueued on the pool's queue before the return
// have completed (a marker event), or at once for the queue's later commands
// (PoolReuse::queue_order), and nothing else holds the memory object (a kernel bound to it, a
// graph, a sub-buffer). Recycled whole buffers, not sub-buffers of large blocks: on NVIDIA's
// driver (580, H200) a kernel's first use of a new sub-buffer costs as much as a new buffer
// (96-405 us a cycle against 66-84 for clCreateBuffer), while reusing a memory object costs a
// launch alone (6 us).

#include <openclaw/buffer.hpp>
#include <openclaw/context.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/queue.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// How a MemoryPool holds memory: when it hands returned memory out again (PoolReuse) and how
/// much it may hold.
template <>
struct BasicPoolOptions<0> {
    /// The most bytes the pool holds (0: no limit). An allocation past it waits for the oldest
    /// returned memory's commands (the queue keeps running) and releases idle buffers of other
    /// sizes before it fails. It bounds what a host that runs ahead of the device holds.
    std::size_t max_bytes = 0;
    /// When returned memory is reused (the default: once its commands have completed).
    PoolReuse reuse = PoolReuse::after_completion;
};

/// What a MemoryPool holds, in bytes of its memory objects (sizes are rounded up to classes).
template <>
struct BasicPoolStats<0> {
    std::size_t bytes_held = 0;       ///< every memory object the pool holds
    std::size_t bytes_in_use = 0;     ///< handed out and not returned
    std::size_t bytes_pending = 0;    ///< returned, waiting for their commands or references
    std::size_t peak_bytes_held = 0;  ///< the most bytes_held has been
    std::size_t buffers_held = 0;     ///< memory objects held
    std::uint64_t allocations = 0;    ///< allocate() calls that succeeded
    std::uint64_t created = 0;        ///< clCreateBuffer calls made for them
    std::uint64_t released = 0;       ///< memory objects released by trim() and the limit
};

namespace detail {

/// Releases the pool's reference to a marker, reporting a failure.
void release_event(cl_event event) noexcept;

/// What a pool and the leases of its buffers share.
struct PoolState {
    struct Entry {
        cl_mem mem = nullptr;  // the pool's reference
        std::size_t bytes = 0;
    };
    struct Group {  // returned together, reusable when `marker` has completed
        cl_event marker = nullptr;
        std::vector<Entry> entries;
    };

    Queue queue;
    PoolOptions options;
    bool queue_order = false;       // options.reuse == PoolReuse::queue_order
    std::mutex mutex;               // guards what follows
    std::vector<Entry> idle;        // reusable now
    std::vector<Entry> returned;    // leases ended since the last harvest
    std::vector<Group> waiting;     // oldest first
    std::vector<Entry> referenced;  // commands done, memory still referenced elsewhere
    PoolStats stats;
    bool closed = false;  // the MemoryPool is gone: returned memory is released
    // The queue's device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, read once (0: unknown).
    std::size_t max_alloc = 0;

    PoolState() = default;
    PoolState(const PoolState&) = delete;
    PoolState& operator=(const PoolState&) = delete;
    ~PoolState() { release_all(); }

    static void release(const Entry& entry) noexcept;
    void release_all() noexcept;

    // A lease ended (a Buffer destructor, any thread): the memory waits for its commands.
    void give_back(Entry entry) noexcept;

    // Puts memory returned since the last call behind a marker (under the lock).
    bool mark(OnError on_error);

    // Moves memory whose marker has completed, and that nothing else references, to `idle`
    // (under the lock). False after a failed call (what was moved stays moved).
    bool collect(OnError on_error);

    // Makes what has become reusable idle (under the lock). False after a failed call.
    bool harvest(OnError on_error) { return mark(on_error) && collect(on_error); }

    // Waits for `marker`, or with none for the whole queue, with `lock` (on `mutex`) released:
    // buffers may come back meanwhile, from any thread (one that a command waits on, too). The
    // marker is retained meanwhile, as a harvest may release the group's reference. False after
    // a failed call.
    bool wait_unlocked(std::unique_lock<std::mutex>& lock, cl_event marker, OnError on_error);

    // An idle memory object of `bytes` (under the lock), or null.
    cl_mem take(std::size_t bytes) noexcept;

    // Releases memory objects of `from` (idle, or returned and still referenced elsewhere) until
    // at most `keep` bytes are held (under the lock); the bytes released. Releasing the pool's
    // reference is safe whoever else holds one: the driver frees the memory after them.
    std::size_t release_until(std::vector<Entry>& from, std::size_t keep) noexcept;
    std::size_t release_idle(std::size_t keep) noexcept { return release_until(idle, keep); }
};

/// The size class of a request: a power of two from 256 bytes up to 64 MiB, then whole 8 MiB
/// steps (a rounding of at most 12.5% there). 0 when the rounding would overflow.
std::size_t pool_class(std::size_t bytes) noexcept;

}  // namespace detail

/// Buffers recycled for one queue's context and device: allocate() hands out a plain
/// Buffer<T, Access>, and the memory comes back when its last copy goes (see PoolOptions for
/// when it is reused). CUDA's stream-ordered allocator (cudaMallocAsync / cudaFreeAsync on a
/// stream) for OpenCL, with the release implied by the buffer's lifetime, and the reuse ordered
/// by the completion of the queue's earlier commands (safe on any queue), or by the queue's order
/// alone with PoolReuse::queue_order (no marker per return, for buffers used on that queue):
///
///     openclaw::MemoryPool pool{queue};
///     for (...) {
///         auto scratch = pool.allocate<float>(n);   // reused after the first rounds
///         queue.enqueue(kernel.set_args(in, scratch, out), NDRange{n});
///     }                                             // scratch goes back to the pool
///
/// Thread-safe: allocate() may be called from several threads, and buffers may go in any
/// thread. A buffer may outlive its pool (its memory is then released when it goes).
template <>
class BasicMemoryPool<0> {
  public:
    /// An empty pool; assign one made for a queue before use.
    BasicMemoryPool() = default;
    /// A pool for `queue`'s context and device.
    explicit BasicMemoryPool(const Queue& queue, PoolOptions options = {}, OnError on_error = {});
    /// Takes `other`'s memory; `other` is left empty.
    BasicMemoryPool(MemoryPool&& other) noexcept = default;
    /// Releases this pool's idle memory and takes `other`'s; `other` is left empty.
    MemoryPool& operator=(MemoryPool&& other) noexcept {
        if (this != &other) {
            close();
            state_ = std::move(other.state_);
        }
        return *this;
    }
    BasicMemoryPool(const MemoryPool&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;
    /// Releases the idle memory; memory still handed out is released when its buffers go.
    ~BasicMemoryPool() { close(); }

    /// A buffer of `count` elements from the pool (recycled memory of the same size class when
    /// there is some, else a new memory object of that class). Empty after a failure.
    template <class T, class Access = ReadWrite>
    [[nodiscard]] Buffer<T, Access> allocate(std::size_t count, OnError on_error = {}) {
        detail::MemObject mem = lease(count, {sizeof(T), Access::name}, on_error);
        return detail::BufferAccess::make<T, Access>(std::move(mem));
    }

    /// Releases idle memory until the pool holds at most `keep_bytes`; returns the bytes
    /// released. Memory returned to the pool counts as idle once the commands before its return
    /// have completed, which trim waits for (in queue order: for the whole queue); memory in use,
    /// or still referenced elsewhere, stays.
    std::size_t trim(std::size_t keep_bytes = 0, OnError on_error = {});

    /// What the pool holds now.
    PoolStats stats() const;
    /// The queue the pool's buffers are ordered by.
    const Queue& queue() const noexcept;
    /// True when the pool was made for a queue.
    explicit operator bool() const noexcept { return static_cast<bool>(state_); }

  private:
    void close() noexcept;

    detail::MemObject lease(std::size_t count, detail::Element element, OnError on_error);

    std::shared_ptr<detail::PoolState> state_;
};

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/pool.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
