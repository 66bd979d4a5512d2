// SPDX-License-Identifier: Apache-2.0
#pragma once
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

/// When a MemoryPool hands returned memory out again. Either way, memory that the driver or
/// openclaw still references (a kernel bound to it, a graph, a sub-buffer) waits until that
/// reference goes.
enum class PoolReuse {
    /// Once the commands enqueued on the pool's queue before its return have completed (a marker
    /// event after the returns): the next buffer over that memory may be used anywhere, on other
    /// queues and by the host, as a new buffer can.
    after_completion,
    /// At once, for the commands enqueued after it on the pool's queue, which must be in order:
    /// those run after the commands of the memory's previous lease (CUDA's stream-ordered reuse,
    /// cudaFreeAsync then cudaMallocAsync on one stream). No marker, no wait, and a loop that
    /// runs ahead of the device holds one buffer per size instead of every one in flight. The
    /// contract: the pool's buffers are used by commands of the pool's queue only, or of another
    /// queue only after it has waited for the pool's queue (an event of it) since the buffer was
    /// allocated; otherwise the other queue may run while the previous lease's commands still
    /// use the memory.
    queue_order,
};

/// How a MemoryPool holds memory: when it hands returned memory out again (PoolReuse) and how
/// much it may hold.
struct PoolOptions {
    /// The most bytes the pool holds (0: no limit). An allocation past it waits for the oldest
    /// returned memory's commands (the queue keeps running) and releases idle buffers of other
    /// sizes before it fails. It bounds what a host that runs ahead of the device holds.
    std::size_t max_bytes = 0;
    /// When returned memory is reused (the default: once its commands have completed).
    PoolReuse reuse = PoolReuse::after_completion;
};

/// What a MemoryPool holds, in bytes of its memory objects (sizes are rounded up to classes).
struct PoolStats {
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
inline void release_event(cl_event event) noexcept {
    if (const cl_int code = clReleaseEvent(event); code != CL_SUCCESS) {
        report_cleanup_failure("clReleaseEvent", code);
    }
}

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

    static void release(const Entry& entry) noexcept {
        if (const cl_int code = clReleaseMemObject(entry.mem); code != CL_SUCCESS) {
            report_cleanup_failure("clReleaseMemObject", code);
        }
    }
    void release_all() noexcept {
        for (const Entry& entry : idle) {
            release(entry);
        }
        for (const Entry& entry : returned) {
            release(entry);
        }
        for (const Entry& entry : referenced) {
            release(entry);
        }
        for (const Group& group : waiting) {
            for (const Entry& entry : group.entries) {
                release(entry);
            }
            release_event(group.marker);
        }
        idle.clear();
        returned.clear();
        referenced.clear();
        waiting.clear();
    }

    // A lease ended (a Buffer destructor, any thread): the memory waits for its commands.
    void give_back(Entry entry) noexcept {
        const std::lock_guard lock(mutex);
        stats.bytes_in_use -= entry.bytes;
        if (closed) {
            stats.bytes_held -= entry.bytes;
            --stats.buffers_held;
            release(entry);
            return;
        }
        stats.bytes_pending += entry.bytes;
        // In queue order the queue orders the next lease's commands after this one's: only other
        // references hold the memory back.
        (queue_order ? referenced : returned).push_back(entry);
    }

    // Puts memory returned since the last call behind a marker (under the lock).
    bool mark(OnError on_error) {
        if (returned.empty()) {
            return true;
        }
        Group group;
        if (!check(detail::enqueued(
                       clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &group.marker),
                       &group.marker),
                   "clEnqueueMarkerWithWaitList", on_error,
                   [] { return "the pool's marker after returned buffers"; })) {
            return false;
        }
        group.entries = returned;
        waiting.push_back(std::move(group));
        returned.clear();
        return true;
    }

    // Moves memory whose marker has completed, and that nothing else references, to `idle`
    // (under the lock). False after a failed call (what was moved stays moved).
    bool collect(OnError on_error) {
        bool ok = true;
        std::size_t done = 0;
        while (ok && done < waiting.size()) {
            cl_int status = CL_QUEUED;
            ok =
                check(clGetEventInfo(waiting[done].marker, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                     sizeof(status), &status, nullptr),
                      "clGetEventInfo", on_error, [] { return "the status of the pool's marker"; });
            if (!ok || status > CL_COMPLETE) {
                break;  // markers of an in-order queue complete in order
            }
            // Complete, or failed (its commands were terminated): either way nothing runs.
            referenced.insert(referenced.end(), waiting[done].entries.begin(),
                              waiting[done].entries.end());
            release_event(waiting[done].marker);
            ++done;
        }
        waiting.erase(waiting.begin(), waiting.begin() + static_cast<std::ptrdiff_t>(done));
        // Only the pool may still reference the memory: nothing can take a new reference to it.
        std::vector<Entry> still;
        for (std::size_t i = 0; i < referenced.size(); ++i) {
            cl_uint count = 2;
            ok = ok && check(clGetMemObjectInfo(referenced[i].mem, CL_MEM_REFERENCE_COUNT,
                                                sizeof(count), &count, nullptr),
                             "clGetMemObjectInfo", on_error,
                             [] { return "the reference count of a returned buffer"; });
            if (ok && count <= 1) {
                stats.bytes_pending -= referenced[i].bytes;
                idle.push_back(referenced[i]);
            } else {
                still.push_back(referenced[i]);
            }
        }
        referenced = std::move(still);
        return ok;
    }

    // Makes what has become reusable idle (under the lock). False after a failed call.
    bool harvest(OnError on_error) { return mark(on_error) && collect(on_error); }

    // Waits for `marker`, or with none for the whole queue, with `lock` (on `mutex`) released:
    // buffers may come back meanwhile, from any thread (one that a command waits on, too). The
    // marker is retained meanwhile, as a harvest may release the group's reference. False after
    // a failed call.
    bool wait_unlocked(std::unique_lock<std::mutex>& lock, cl_event marker, OnError on_error) {
        if (marker == nullptr) {
            lock.unlock();
            const cl_int code = clFinish(queue.get());
            lock.lock();
            return check(code, "clFinish", on_error,
                         [] { return "the pool's queue, for returned buffers"; });
        }
        if (!check(clRetainEvent(marker), "clRetainEvent", on_error,
                   [] { return "the pool's marker after returned buffers"; })) {
            return false;
        }
        lock.unlock();
        const cl_int code = clWaitForEvents(1, &marker);
        release_event(marker);
        lock.lock();
        return check(code, "clWaitForEvents", on_error,
                     [] { return "the pool's marker after returned buffers"; });
    }

    // An idle memory object of `bytes` (under the lock), or null.
    cl_mem take(std::size_t bytes) noexcept {
        for (std::size_t i = idle.size(); i-- > 0;) {  // the most recently returned first
            if (idle[i].bytes == bytes) {
                const cl_mem mem = idle[i].mem;
                idle.erase(idle.begin() + static_cast<std::ptrdiff_t>(i));
                return mem;
            }
        }
        return nullptr;
    }

    // Releases memory objects of `from` (idle, or returned and still referenced elsewhere) until
    // at most `keep` bytes are held (under the lock); the bytes released. Releasing the pool's
    // reference is safe whoever else holds one: the driver frees the memory after them.
    std::size_t release_until(std::vector<Entry>& from, std::size_t keep) noexcept {
        std::size_t freed = 0;
        while (!from.empty() && stats.bytes_held > keep) {
            const Entry entry = from.back();
            from.pop_back();
            release(entry);
            if (&from != &idle) {
                stats.bytes_pending -= entry.bytes;
            }
            stats.bytes_held -= entry.bytes;
            --stats.buffers_held;
            ++stats.released;
            freed += entry.bytes;
        }
        return freed;
    }
    std::size_t release_idle(std::size_t keep) noexcept { return release_until(idle, keep); }
};

/// The size class of a request: a power of two from 256 bytes up to 64 MiB, then whole 8 MiB
/// steps (a rounding of at most 12.5% there). 0 when the rounding would overflow.
inline std::size_t pool_class(std::size_t bytes) noexcept {
    constexpr std::size_t smallest = 256;
    constexpr std::size_t largest_power = std::size_t{64} << 20;
    constexpr std::size_t step = std::size_t{8} << 20;
    if (bytes <= smallest) {
        return smallest;
    }
    if (bytes <= largest_power) {
        std::size_t size = smallest;
        while (size < bytes) {
            size <<= 1;
        }
        return size;
    }
    std::size_t rounded = 0;
    if (!checked_add(bytes, step - 1, rounded)) {
        return 0;
    }
    return rounded / step * step;
}

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
class MemoryPool {
  public:
    /// An empty pool; assign one made for a queue before use.
    MemoryPool() = default;
    /// A pool for `queue`'s context and device.
    explicit MemoryPool(const Queue& queue, PoolOptions options = {}, OnError on_error = {}) {
        if (!queue) {
            detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, "MemoryPool", "queue");
            return;
        }
        detail::Relay step(on_error);
        const cl_ulong max_alloc = queue.device(step).max_mem_alloc_size(step);
        const bool queue_order = options.reuse == PoolReuse::queue_order;
        const cl_command_queue_properties properties =
            queue_order ? queue.info<CL_QUEUE_PROPERTIES>(step) : 0;
        if (step.failed()) {
            return;
        }
        if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
            detail::fail(on_error, CL_INVALID_COMMAND_QUEUE, "MemoryPool",
                         "PoolReuse::queue_order on an out-of-order queue: reuse in queue order "
                         "needs an in-order queue, whose commands run in the order enqueued");
            return;
        }
        state_ = std::make_shared<detail::PoolState>();
        state_->queue = queue;
        state_->options = options;
        state_->queue_order = queue_order;
        state_->max_alloc = max_alloc > std::numeric_limits<std::size_t>::max()
                                ? std::numeric_limits<std::size_t>::max()
                                : static_cast<std::size_t>(max_alloc);
    }
    /// Takes `other`'s memory; `other` is left empty.
    MemoryPool(MemoryPool&& other) noexcept = default;
    /// Releases this pool's idle memory and takes `other`'s; `other` is left empty.
    MemoryPool& operator=(MemoryPool&& other) noexcept {
        if (this != &other) {
            close();
            state_ = std::move(other.state_);
        }
        return *this;
    }
    MemoryPool(const MemoryPool&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;
    /// Releases the idle memory; memory still handed out is released when its buffers go.
    ~MemoryPool() { close(); }

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
    std::size_t trim(std::size_t keep_bytes = 0, OnError on_error = {}) {
        if (!state_) {
            detail::refuse_empty(on_error, CL_INVALID_VALUE, "MemoryPool::trim", "pool");
            return 0;
        }
        std::unique_lock lock(state_->mutex);
        if (!state_->mark(on_error)) {
            return 0;
        }
        // The newest marker covers every return (the queue is in order); in queue order nothing
        // marks the returns, and the whole queue is waited for.
        const bool wait_queue = state_->queue_order && !state_->referenced.empty();
        const cl_event newest = state_->waiting.empty() ? nullptr : state_->waiting.back().marker;
        if ((wait_queue || newest != nullptr) &&
            !state_->wait_unlocked(lock, wait_queue ? nullptr : newest, on_error)) {
            return 0;
        }
        if (!state_->collect(on_error)) {
            return 0;
        }
        return state_->release_idle(keep_bytes);
    }

    /// What the pool holds now.
    PoolStats stats() const {
        if (!state_) {
            return {};
        }
        const std::lock_guard lock(state_->mutex);
        return state_->stats;
    }
    /// The queue the pool's buffers are ordered by.
    const Queue& queue() const noexcept {
        static const Queue none;
        return state_ ? state_->queue : none;
    }
    /// True when the pool was made for a queue.
    explicit operator bool() const noexcept { return static_cast<bool>(state_); }

  private:
    void close() noexcept {
        if (state_) {
            const std::lock_guard lock(state_->mutex);
            state_->closed = true;
            const std::size_t in_use = state_->stats.bytes_in_use;
            state_->stats.bytes_held = in_use;
            state_->release_all();
        }
        state_.reset();
    }

    detail::MemObject lease(std::size_t count, detail::Element element, OnError on_error) {
        constexpr const char* call = "MemoryPool::allocate";
        if (!state_) [[unlikely]] {
            detail::refuse_empty(on_error, CL_INVALID_VALUE, call, "pool");
            return {};
        }
        std::size_t bytes = 0;
        const std::size_t size = count == 0 || !detail::checked_mul(count, element.size, bytes)
                                     ? 0
                                     : detail::pool_class(bytes);
        if (size == 0) [[unlikely]] {
            detail::fail(on_error, CL_INVALID_BUFFER_SIZE, call,
                         detail::concat("count ", count, " elements of ", element.size,
                                        count == 0 ? " bytes: a buffer needs at least one element"
                                                   : " bytes overflows size_t"));
            return {};
        }
        detail::PoolState& state = *state_;
        if (state.max_alloc != 0 && size > state.max_alloc) [[unlikely]] {
            detail::fail(on_error, CL_INVALID_BUFFER_SIZE, call,
                         detail::concat(count, " elements (", bytes, " bytes, ", size,
                                        " with the pool's rounding) exceed the largest allocation "
                                        "the queue's device allows, ",
                                        state.max_alloc, " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"));
            return {};
        }
        cl_mem mem = nullptr;
        {
            std::unique_lock lock(state.mutex);
            mem = state.take(size);
            if (mem == nullptr) {
                if (!state.harvest(on_error)) {
                    return {};
                }
                mem = state.take(size);
            }
            const std::size_t limit = state.options.max_bytes;
            // Past the limit in queue order: memory that only commands in flight reference (on
            // drivers that count those references) comes back once the queue has finished.
            if (mem == nullptr && limit != 0 && state.queue_order &&
                detail::saturating_add(state.stats.bytes_held, size) > limit &&
                !state.referenced.empty()) {
                if (!state.wait_unlocked(lock, nullptr, on_error) || !state.harvest(on_error)) {
                    return {};
                }
                mem = state.take(size);
            }
            // Past the limit: wait for the oldest returned memory's commands, one group at a
            // time (the queue keeps running), then make room from other sizes' idle memory.
            while (mem == nullptr && limit != 0 &&
                   detail::saturating_add(state.stats.bytes_held, size) > limit &&
                   !state.waiting.empty()) {
                if (!state.wait_unlocked(lock, state.waiting.front().marker, on_error) ||
                    !state.harvest(on_error)) {
                    return {};
                }
                mem = state.take(size);
            }
            if (mem == nullptr && limit != 0 &&
                detail::saturating_add(state.stats.bytes_held, size) > limit) {
                if (size <= limit) {
                    (void)state.release_idle(limit - size);
                    if (state.queue_order) {
                        // The queue has finished (above): what a kernel, a graph or a driver
                        // running late still references goes from the pool's count.
                        (void)state.release_until(state.referenced, limit - size);
                    }
                }
                if (detail::saturating_add(state.stats.bytes_held, size) > limit) {
                    detail::fail(
                        on_error, CL_MEM_OBJECT_ALLOCATION_FAILURE, call,
                        detail::concat(count, " elements (", size,
                                       " bytes with the pool's rounding): the pool "
                                       "holds ",
                                       state.stats.bytes_held, " bytes (", state.stats.bytes_in_use,
                                       " in use), its limit PoolOptions::max_bytes is ", limit));
                    return {};
                }
            }
            if (mem == nullptr) {
                // Reserved now, so that concurrent allocations see it against the limit.
                state.stats.bytes_held += size;
                ++state.stats.buffers_held;
            }
            state.stats.bytes_in_use += size;
            ++state.stats.allocations;
        }
        if (mem == nullptr) {
            cl_int code = CL_SUCCESS;
            mem = clCreateBuffer(state.queue.context_handle(), CL_MEM_READ_WRITE, size, nullptr,
                                 &code);
            mem = detail::created_or_null(mem, code);
            const std::lock_guard lock(state.mutex);
            if (code != CL_SUCCESS) {
                state.stats.bytes_held -= size;
                --state.stats.buffers_held;
                state.stats.bytes_in_use -= size;
                --state.stats.allocations;
                (void)detail::check(code, "clCreateBuffer", on_error, [&] {
                    return detail::concat(count, " elements (", bytes, " bytes, ", size,
                                          " with the pool's rounding) for a memory pool");
                });
                return {};
            }
            if (state.stats.bytes_held > state.stats.peak_bytes_held) {
                state.stats.peak_bytes_held = state.stats.bytes_held;
            }
            ++state.stats.created;
        }
        detail::MemObject made;
        Status retained;
        made.handle = detail::Handle<cl_mem>::retain(mem, retained);  // the buffer's reference
        if (retained.failed()) {
            state.give_back({mem, size});  // the pool's again before the failure is reported
            detail::fail(on_error, retained.cl_code(), retained.call().c_str(), retained.detail());
            return {};
        }
        made.context = state.queue.context_handle();
        made.bytes = bytes;
        made.flags = CL_MEM_READ_WRITE;
        made.lease = std::shared_ptr<void>(mem, [keep = state_, size](void* raw) noexcept {
            keep->give_back({static_cast<cl_mem>(raw), size});
        });
        return made;
    }

    std::shared_ptr<detail::PoolState> state_;
};

OPENCLAW_END_NAMESPACE
