// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/pool.hpp>: compiled once into the openclaw
// library (src/wings.cpp), or included by that header itself when openclaw is header-only.

#include <openclaw/pool.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE void release_event(cl_event event) noexcept {
    if (const cl_int code = clReleaseEvent(event); code != CL_SUCCESS) {
        report_cleanup_failure("clReleaseEvent", code);
    }
}

OPENCLAW_INLINE void PoolState::release(const Entry& entry) noexcept {
    if (const cl_int code = clReleaseMemObject(entry.mem); code != CL_SUCCESS) {
        report_cleanup_failure("clReleaseMemObject", code);
    }
}

OPENCLAW_INLINE void PoolState::release_all() noexcept {
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

OPENCLAW_INLINE void PoolState::give_back(Entry entry) noexcept {
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

OPENCLAW_INLINE bool PoolState::mark(OnError on_error) {
    if (returned.empty()) {
        return true;
    }
    Group group;
    if (!check(detail::enqueued(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &group.marker),
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

OPENCLAW_INLINE bool PoolState::collect(OnError on_error) {
    bool ok = true;
    std::size_t done = 0;
    while (ok && done < waiting.size()) {
        cl_int status = CL_QUEUED;
        ok = check(clGetEventInfo(waiting[done].marker, CL_EVENT_COMMAND_EXECUTION_STATUS,
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

OPENCLAW_INLINE bool PoolState::wait_unlocked(std::unique_lock<std::mutex>& lock, cl_event marker,
                                              OnError on_error) {
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

OPENCLAW_INLINE cl_mem PoolState::take(std::size_t bytes) noexcept {
    for (std::size_t i = idle.size(); i-- > 0;) {  // the most recently returned first
        if (idle[i].bytes == bytes) {
            const cl_mem mem = idle[i].mem;
            idle.erase(idle.begin() + static_cast<std::ptrdiff_t>(i));
            return mem;
        }
    }
    return nullptr;
}

OPENCLAW_INLINE std::size_t PoolState::release_until(std::vector<Entry>& from,
                                                     std::size_t keep) noexcept {
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

OPENCLAW_INLINE std::size_t pool_class(std::size_t bytes) noexcept {
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

OPENCLAW_INLINE MemoryPool::BasicMemoryPool(const Queue& queue, PoolOptions options,
                                            OnError on_error) {
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

OPENCLAW_INLINE std::size_t MemoryPool::trim(std::size_t keep_bytes, OnError on_error) {
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

OPENCLAW_INLINE PoolStats MemoryPool::stats() const {
    if (!state_) {
        return {};
    }
    const std::lock_guard lock(state_->mutex);
    return state_->stats;
}

OPENCLAW_INLINE const Queue& MemoryPool::queue() const noexcept {
    static const Queue none;
    return state_ ? state_->queue : none;
}

OPENCLAW_INLINE void MemoryPool::close() noexcept {
    if (state_) {
        const std::lock_guard lock(state_->mutex);
        state_->closed = true;
        const std::size_t in_use = state_->stats.bytes_in_use;
        state_->stats.bytes_held = in_use;
        state_->release_all();
    }
    state_.reset();
}

OPENCLAW_INLINE detail::MemObject MemoryPool::lease(std::size_t count, detail::Element element,
                                                    OnError on_error) {
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
        mem = clCreateBuffer(state.queue.context_handle(), CL_MEM_READ_WRITE, size, nullptr, &code);
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

OPENCLAW_END_NAMESPACE
