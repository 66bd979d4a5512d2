// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pipelined transfers between pageable host memory and a device through pinned staging buffers
// (the memory core's, under the typed buffers; made on first use per queue).
// Discrete GPUs move pinned memory several times faster than pageable memory (55.5 vs 6.8 GB/s
// for writes on an H200), so large blocking reads and writes copy chunk by chunk through a few
// pinned buffers: the host copies one chunk (on several threads) while the device moves another.

#include <openclaw/detail/handle.hpp>
#include <openclaw/error.hpp>
#include <openclaw/queue.hpp>

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// Copies large blocks on several threads: a few persistent helpers plus the calling thread.
class CopyWorkers {
  public:
    explicit CopyWorkers(unsigned participants);
    CopyWorkers(const CopyWorkers&) = delete;
    CopyWorkers& operator=(const CopyWorkers&) = delete;
    ~CopyWorkers() {
        {
            const std::lock_guard lock(mutex_);
            stop_ = true;
        }
        start_.notify_all();
        for (std::thread& thread : threads_) {
            thread.join();
        }
    }

    void copy(void* dst, const void* src, std::size_t bytes) {
        // Below a few hundred KiB, waking threads costs more than it saves.
        if (threads_.empty() || bytes < (std::size_t{256} << 10)) {
            std::memcpy(dst, src, bytes);
            return;
        }
        const std::size_t parts = threads_.size() + 1;
        const std::size_t part = (bytes / parts + 63) / 64 * 64;
        {
            const std::lock_guard lock(mutex_);
            job_ = {static_cast<char*>(dst), static_cast<const char*>(src), bytes, part};
            pending_ = threads_.size();
            ++generation_;
        }
        start_.notify_all();
        copy_part(0);
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
    }

  private:
    struct Job {
        char* dst = nullptr;
        const char* src = nullptr;
        std::size_t bytes = 0;
        std::size_t part = 0;
    };

    void copy_part(std::size_t index) const {
        const std::size_t begin = index * job_.part < job_.bytes ? index * job_.part : job_.bytes;
        const std::size_t end = job_.bytes - begin < job_.part ? job_.bytes : begin + job_.part;
        if (end > begin) {
            std::memcpy(job_.dst + begin, job_.src + begin, end - begin);
        }
    }

    void serve(unsigned index) {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                start_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_) {
                    return;
                }
                seen = generation_;
            }
            copy_part(index);
            {
                const std::lock_guard lock(mutex_);
                --pending_;
            }
            done_.notify_one();
        }
    }

    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable done_;
    Job job_;
    std::uint64_t generation_ = 0;
    std::size_t pending_ = 0;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

/// A queue's pinned staging buffers (persistently mapped) and copy threads.
class StagingPool {
  public:
    // Measured on an H200 host (16 cores) with bench/transfers: 8 MiB chunks copied by 16
    // threads moved 1 GiB at 46 GB/s (write) and 43 GB/s (read); 4 MiB chunks or 8 threads
    // reached 32 to 38 GB/s. See bench/RESULTS.md.
    static constexpr std::size_t chunk_bytes = std::size_t{8} << 20;
    static constexpr std::size_t slot_count = 4;
    /// Transfers smaller than this go straight to the driver.
    static constexpr std::size_t threshold_bytes = std::size_t{4} << 20;

    /// Makes the staging buffers; a failure goes to `on_error` and leaves the pool not ready().
    StagingPool(cl_context context, cl_command_queue queue, OnError on_error);
    StagingPool(const StagingPool&) = delete;
    StagingPool& operator=(const StagingPool&) = delete;

    /// False when a staging buffer could not be made: transfers then go straight to the driver.
    bool ready() const noexcept { return ready_; }

    /// Blocking write of `bytes` from pageable `src` to `dst` at byte `offset`.
    void write(cl_command_queue queue, cl_mem dst, std::size_t offset, const std::byte* src,
               std::size_t bytes, OnError on_error);

    /// Blocking read of `bytes` from `src` at byte `offset` into pageable `dst`.
    void read(cl_command_queue queue, cl_mem src, std::size_t offset, std::byte* dst,
              std::size_t bytes, OnError on_error);

  private:
    // A persistently mapped pinned buffer; unmapped when destroyed (also when the pool's
    // constructor fails half-way). The release after the unmap is deferred by the driver until
    // the unmap has run.
    struct Slot {
        Slot() = default;
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot() {
            if (host != nullptr) {
                const cl_int code =
                    clEnqueueUnmapMemObject(queue.get(), mem.get(), host, 0, nullptr, nullptr);
                if (code != CL_SUCCESS) {
                    report_cleanup_failure("clEnqueueUnmapMemObject", code);
                }
            }
        }
        Handle<cl_mem> mem;
        Handle<cl_command_queue> queue;
        void* host = nullptr;
    };

    /// The event of each slot's last transfer. Whatever happens, nothing leaves this scope while
    /// the device may still use a staging buffer.
    class InFlight {
      public:
        explicit InFlight(OnError on_error) noexcept : on_error_(on_error) {}
        InFlight(const InFlight&) = delete;
        InFlight& operator=(const InFlight&) = delete;
        ~InFlight() {
            for (cl_event& event : events_) {
                if (event != nullptr) {
                    clWaitForEvents(1, &event);  // errors were or will be reported by wait()
                    clReleaseEvent(event);
                    event = nullptr;
                }
            }
        }
        cl_event* slot(std::size_t i) { return &events_[i]; }
        void wait(std::size_t i) {
            if (cl_event event = std::exchange(events_[i], nullptr)) {
                const cl_int code = clWaitForEvents(1, &event);
                clReleaseEvent(event);
                ok_ = ok_ && check(code, "clWaitForEvents", on_error_,
                                   [] { return "a staged transfer failed"; });
            }
        }
        void wait_all() {
            for (std::size_t i = 0; i < slot_count && ok_; ++i) {
                wait(i);
            }
        }
        /// False once a wait failed (and was reported).
        bool ok() const noexcept { return ok_; }

      private:
        std::array<cl_event, slot_count> events_{};
        OnError on_error_;
        bool ok_ = true;
    };

    // The bytes of the chunk at byte `done` of a transfer of `bytes`.
    static std::size_t chunk_of(std::size_t bytes, std::size_t done) noexcept {
        return bytes - done < chunk_bytes ? bytes - done : chunk_bytes;
    }

    std::array<Slot, slot_count> slots_;
    CopyWorkers workers_;
    bool ready_ = false;
};

/// The staging pool of `queue`'s family of copies, made on first use; nullptr when the queue
/// does not stage pageable transfers. The returned lock serializes staged transfers.
#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
OPENCLAW_INLINE std::pair<StagingPool*, std::unique_lock<std::mutex>> staging_of(
    const Queue& queue) {
    QueueState* state = QueueAccess::state(queue);
    if (state == nullptr || !state->stage_pageable) {
        return {nullptr, std::unique_lock<std::mutex>{}};
    }
    std::unique_lock lock(state->mutex);
    if (!state->staging) {
        // Pinned memory is an optimization: without it the transfer goes straight to the driver.
        Status unavailable;
        auto pool = std::make_shared<StagingPool>(queue.context_handle(), queue.get(), unavailable);
        if (!pool->ready()) {
            return {nullptr, std::unique_lock<std::mutex>{}};
        }
        state->staging = std::move(pool);
    }
    return {static_cast<StagingPool*>(state->staging.get()), std::move(lock)};
}
#else
std::pair<StagingPool*, std::unique_lock<std::mutex>> staging_of(const Queue& queue);
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
OPENCLAW_INLINE StagingPool::StagingPool(cl_context context, cl_command_queue queue,
                                         OnError on_error)
    : workers_(std::thread::hardware_concurrency() < 1    ? 1u
               : std::thread::hardware_concurrency() > 16 ? 16u
                                                          : std::thread::hardware_concurrency()) {
    for (Slot& slot : slots_) {
        cl_int code = CL_SUCCESS;
        slot.mem = Handle<cl_mem>::adopt(clCreateBuffer(
            context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, chunk_bytes, nullptr, &code));
        if (!check(code, "clCreateBuffer", on_error, [] { return "pinned staging buffer"; })) {
            slot.mem.reset();
            return;
        }
        slot.queue = Handle<cl_command_queue>::retain(queue);
        void* host = clEnqueueMapBuffer(queue, slot.mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                        0, chunk_bytes, 0, nullptr, nullptr, &code);
        if (!check(code, "clEnqueueMapBuffer", on_error, [] { return "pinned staging buffer"; })) {
            return;
        }
        slot.host = host;
    }
    ready_ = true;
}

OPENCLAW_INLINE void StagingPool::read(cl_command_queue queue, cl_mem src, std::size_t offset,
                                       std::byte* dst, std::size_t bytes, OnError on_error) {
    InFlight in_flight(on_error);
    const std::size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
    const auto issue = [&](std::size_t i) {
        const std::size_t n = chunk_of(bytes, i * chunk_bytes);
        return check(clEnqueueReadBuffer(queue, src, CL_FALSE, offset + i * chunk_bytes, n,
                                         slots_[i % slot_count].host, 0, nullptr,
                                         in_flight.slot(i % slot_count)),
                     "clEnqueueReadBuffer", on_error, [&] {
                         return concat("staged chunk of ", n, " bytes at byte ",
                                       offset + i * chunk_bytes);
                     });
    };
    for (std::size_t i = 0; i < chunks && i < slot_count; ++i) {
        if (!issue(i)) {
            return;
        }
    }
    if (!check(clFlush(queue), "clFlush", on_error)) {
        return;
    }
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::size_t n = chunk_of(bytes, i * chunk_bytes);
        in_flight.wait(i % slot_count);
        if (!in_flight.ok()) {
            return;
        }
        workers_.copy(dst + i * chunk_bytes, slots_[i % slot_count].host, n);
        if (i + slot_count < chunks &&
            (!issue(i + slot_count) || !check(clFlush(queue), "clFlush", on_error))) {
            return;
        }
    }
}

OPENCLAW_INLINE void StagingPool::write(cl_command_queue queue, cl_mem dst, std::size_t offset,
                                        const std::byte* src, std::size_t bytes, OnError on_error) {
    InFlight in_flight(on_error);
    for (std::size_t done = 0, i = 0; done < bytes; done += chunk_bytes, ++i) {
        const std::size_t n = chunk_of(bytes, done);
        Slot& slot = slots_[i % slot_count];
        in_flight.wait(i % slot_count);  // the slot's previous chunk has left it
        if (!in_flight.ok()) {
            return;
        }
        workers_.copy(slot.host, src + done, n);
        if (!check(
                clEnqueueWriteBuffer(queue, dst, CL_FALSE, offset + done, n, slot.host, 0, nullptr,
                                     in_flight.slot(i % slot_count)),
                "clEnqueueWriteBuffer", on_error,
                [&] { return concat("staged chunk of ", n, " bytes at byte ", offset + done); }) ||
            !check(clFlush(queue), "clFlush", on_error)) {
            return;
        }
    }
    in_flight.wait_all();
}

OPENCLAW_INLINE CopyWorkers::CopyWorkers(unsigned participants) {
    for (unsigned i = 1; i < participants; ++i) {
#if defined(__cpp_exceptions)
        try {
            threads_.emplace_back([this, i] { serve(i); });
        } catch (const std::system_error&) {
            break;  // fewer helpers than asked: still correct, only slower
        }
#else
        threads_.emplace_back([this, i] { serve(i); });
#endif
    }
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

}  // namespace detail
OPENCLAW_END_NAMESPACE
