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
#include <atomic>
#include <chrono>
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

/// How staged transfers are cut and copied. The defaults are the best of bench/staging_sweep on
/// an H200 host (16 cores; bench/RESULTS.md): a transfer is cut into about 8 chunks of 256 KiB to
/// 8 MiB, 8 pinned slots of 8 MiB (64 MiB per queue, made on its first staged transfer) and 15
/// helper threads. The sweep changes them (before making a queue) to measure others.
struct StagingTuning {
    std::size_t max_chunk = std::size_t{8} << 20;    // the size of each pinned slot
    std::size_t min_chunk = std::size_t{256} << 10;  // the smallest chunk a transfer is cut into
    std::size_t target_chunks = 8;                   // chunks per transfer, between the two sizes
    std::size_t slots = 8;                           // pinned slots in flight (at most 16)
    unsigned threads = 16;                           // copy helpers + the caller (at most)
    std::size_t threshold = std::size_t{1} << 20;    // smaller transfers go straight to the driver
};
/// The tuning staging pools are made with (and transfers cut by).
inline StagingTuning& staging_tuning() noexcept {
    static StagingTuning tuning;
    return tuning;
}

/// The chunks of one staged transfer: chunk c is `size(c)` bytes at byte c * chunk of the
/// caller's memory and in pinned slot c % slot_count; `to_slots` says which way they are copied.
struct StagedChunks {
    std::byte* user = nullptr;
    std::byte* const* slots = nullptr;
    std::size_t slot_count = 0;
    std::size_t chunk = 0;
    std::size_t bytes = 0;
    std::size_t count = 0;
    bool to_slots = false;

    std::size_t size(std::size_t c) const noexcept {
        return bytes - c * chunk < chunk ? bytes - c * chunk : chunk;
    }
};

/// Helper threads that copy the chunks of a staged transfer: every helper copies its share of
/// each chunk, in chunk order, as far as the caller allows (allow()), and counts the chunk
/// down when its share is done (copied()). The caller meanwhile hands finished chunks to the
/// device, so the device's side of one chunk overlaps the copy of the next. Between transfers
/// the helpers spin briefly (transfers come in bursts), then sleep.
class CopyWorkers {
  public:
    explicit CopyWorkers(unsigned helpers);
    CopyWorkers(const CopyWorkers&) = delete;
    CopyWorkers& operator=(const CopyWorkers&) = delete;
    ~CopyWorkers() {
        {
            const std::lock_guard lock(mutex_);
            stop_.store(true, std::memory_order_release);
        }
        start_.notify_all();
        for (std::thread& thread : threads_) {
            thread.join();
        }
    }

    /// The number of helper threads (0: the caller copies alone).
    std::size_t helpers() const noexcept { return threads_.size(); }

    /// Starts the helpers on `chunks`, allowed up to chunk `allowed` (exclusive).
    void start(const StagedChunks& chunks, std::size_t allowed) {
        chunks_ = chunks;
        remaining_.reset(new std::atomic<std::size_t>[chunks.count]);
        for (std::size_t c = 0; c < chunks.count; ++c) {
            remaining_[c].store(threads_.size(), std::memory_order_relaxed);
        }
        allowed_.store(allowed, std::memory_order_relaxed);
        abort_.store(false, std::memory_order_relaxed);
        finished_.store(0, std::memory_order_relaxed);
        {
            const std::lock_guard lock(mutex_);
            generation_.fetch_add(1, std::memory_order_release);
        }
        if (sleeping_.load(std::memory_order_acquire) != 0) {
            start_.notify_all();
        }
    }
    /// Lets the helpers copy chunks before `allowed`.
    void allow(std::size_t allowed) noexcept { allowed_.store(allowed, std::memory_order_release); }
    /// True when every helper has copied its share of chunk `c`.
    bool copied(std::size_t c) const noexcept {
        return remaining_[c].load(std::memory_order_acquire) == 0;
    }
    /// Waits until the helpers are done with the transfer; `abort` stops them at the next chunk.
    void finish(bool abort) noexcept {
        if (abort) {
            abort_.store(true, std::memory_order_release);
        }
        while (finished_.load(std::memory_order_acquire) != threads_.size()) {
            relax();
        }
        remaining_.reset();
    }

    /// Waits a moment (a pause instruction; now and then a yield, for an oversubscribed host).
    static void relax() noexcept {
        thread_local unsigned spins = 0;
        if (++spins % 256 == 0) {
            std::this_thread::yield();
        } else {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }

  private:
    void copy_share(std::size_t c, std::size_t index) const noexcept {
        const std::size_t size = chunks_.size(c);
        const std::size_t parts = threads_.size();
        const std::size_t part = (size / parts + 4095) / 4096 * 4096;
        const std::size_t begin = index * part < size ? index * part : size;
        const std::size_t end = index + 1 == parts || size - begin < part ? size : begin + part;
        if (end <= begin) {
            return;
        }
        std::byte* user = chunks_.user + c * chunks_.chunk + begin;
        std::byte* slot = chunks_.slots[c % chunks_.slot_count] + begin;
        if (chunks_.to_slots) {
            std::memcpy(slot, user, end - begin);
        } else {
            std::memcpy(user, slot, end - begin);
        }
    }

    void serve(std::size_t index) {
        std::uint64_t seen = 0;
        for (;;) {
            // Spin a little (about 50 µs) for the next transfer, then sleep.
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
            for (unsigned spin = 1; generation_.load(std::memory_order_acquire) == seen &&
                                    !stop_.load(std::memory_order_acquire);
                 ++spin) {
                if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) {
                    break;
                }
                relax();
            }
            if (generation_.load(std::memory_order_acquire) == seen &&
                !stop_.load(std::memory_order_acquire)) {
                std::unique_lock lock(mutex_);
                sleeping_.fetch_add(1, std::memory_order_acq_rel);
                start_.wait(lock, [&] {
                    return stop_.load(std::memory_order_acquire) ||
                           generation_.load(std::memory_order_acquire) != seen;
                });
                sleeping_.fetch_sub(1, std::memory_order_acq_rel);
            }
            if (stop_.load(std::memory_order_acquire)) {
                return;
            }
            seen = generation_.load(std::memory_order_acquire);
            for (std::size_t c = 0; c < chunks_.count; ++c) {
                while (c >= allowed_.load(std::memory_order_acquire) &&
                       !abort_.load(std::memory_order_acquire)) {
                    relax();
                }
                if (abort_.load(std::memory_order_acquire)) {
                    break;
                }
                copy_share(c, index);
                remaining_[c].fetch_sub(1, std::memory_order_acq_rel);
            }
            finished_.fetch_add(1, std::memory_order_acq_rel);
        }
    }

    std::mutex mutex_;
    std::condition_variable start_;
    StagedChunks chunks_;
    std::unique_ptr<std::atomic<std::size_t>[]> remaining_;
    std::atomic<std::size_t> allowed_{0};
    std::atomic<std::size_t> finished_{0};
    std::atomic<bool> abort_{false};
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<unsigned> sleeping_{0};
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

/// A queue's pinned staging buffers (persistently mapped) and copy threads.
class StagingPool {
  public:
    /// The most slots a pool has.
    static constexpr std::size_t max_slots = 16;

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
        InFlight(std::size_t slots, OnError on_error) noexcept
            : slots_(slots), on_error_(on_error) {}
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
            for (std::size_t i = 0; i < slots_ && ok_; ++i) {
                wait(i);
            }
        }
        /// Waits for every slot's transfer by polling: the driver's blocking wait can sleep
        /// for longer than the last chunk takes.
        void drain() {
            for (std::size_t i = 0; i < slots_; ++i) {
                while (!poll(i)) {
                    CopyWorkers::relax();
                }
            }
        }
        /// True (after releasing it) when slot i's transfer has ended, or it has none.
        bool poll(std::size_t i) {
            cl_int status = CL_COMPLETE;
            if (events_[i] != nullptr &&
                clGetEventInfo(events_[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                               &status, nullptr) == CL_SUCCESS &&
                status > CL_COMPLETE) {
                return false;
            }
            wait(i);  // done, failed, or its status unknown: the wait says which
            return true;
        }
        /// False once a wait failed (and was reported).
        bool ok() const noexcept { return ok_; }

      private:
        std::array<cl_event, max_slots> events_{};
        std::size_t slots_;
        OnError on_error_;
        bool ok_ = true;
    };

    // The chunk size for a transfer of `bytes`: about target_chunks chunks, whole 64 KiB
    // units, between min_chunk and the slots' size.
    std::size_t chunk_for(std::size_t bytes) const noexcept {
        const StagingTuning& t = staging_tuning();
        std::size_t chunk = (bytes / t.target_chunks + 65535) / 65536 * 65536;
        chunk = chunk < t.min_chunk ? t.min_chunk : chunk;
        return chunk > slot_bytes_ ? slot_bytes_ : chunk;
    }

    std::array<Slot, max_slots> slots_;
    std::array<std::byte*, max_slots> hosts_{};
    std::size_t slot_count_;
    std::size_t slot_bytes_;
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
    : slot_count_(staging_tuning().slots < 1           ? 1
                  : staging_tuning().slots > max_slots ? max_slots
                                                       : staging_tuning().slots),
      slot_bytes_(staging_tuning().max_chunk),
      workers_([] {
          // Helpers besides the caller, which hands chunks to the device; none on one core.
          const unsigned cores = std::thread::hardware_concurrency();
          const unsigned wanted = staging_tuning().threads;
          const unsigned n = cores < wanted ? cores : wanted;
          return n <= 1 ? 0u : n - 1;
      }()) {
    for (std::size_t i = 0; i < slot_count_; ++i) {
        Slot& slot = slots_[i];
        cl_int code = CL_SUCCESS;
        slot.mem = Handle<cl_mem>::adopt(clCreateBuffer(
            context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, slot_bytes_, nullptr, &code));
        if (!check(code, "clCreateBuffer", on_error, [] { return "pinned staging buffer"; })) {
            slot.mem.reset();
            return;
        }
        slot.queue = Handle<cl_command_queue>::retain(queue);
        void* host = clEnqueueMapBuffer(queue, slot.mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                        0, slot_bytes_, 0, nullptr, nullptr, &code);
        if (!check(code, "clEnqueueMapBuffer", on_error, [] { return "pinned staging buffer"; })) {
            return;
        }
        slot.host = host;
        hosts_[i] = static_cast<std::byte*>(host);
    }
    ready_ = true;
}

OPENCLAW_INLINE void StagingPool::read(cl_command_queue queue, cl_mem src, std::size_t offset,
                                       std::byte* dst, std::size_t bytes, OnError on_error) {
    InFlight in_flight(slot_count_, on_error);
    const std::size_t chunk = chunk_for(bytes);
    const StagedChunks chunks{
        dst, hosts_.data(), slot_count_, chunk, bytes, (bytes + chunk - 1) / chunk, false};
    const std::size_t n = chunks.count;
    const std::size_t slots = slot_count_;
    const auto issue = [&](std::size_t c) {
        return check(clEnqueueReadBuffer(queue, src, CL_FALSE, offset + c * chunk, chunks.size(c),
                                         hosts_[c % slots], 0, nullptr, in_flight.slot(c % slots)),
                     "clEnqueueReadBuffer", on_error,
                     [&] {
                         return concat("staged chunk of ", chunks.size(c), " bytes at byte ",
                                       offset + c * chunk);
                     }) &&
               check(clFlush(queue), "clFlush", on_error);
    };
    std::size_t issued = 0;
    for (; issued < n && issued < slots; ++issued) {
        if (!issue(issued)) {
            return;
        }
    }
    if (workers_.helpers() == 0) {
        for (std::size_t c = 0; c < n; ++c) {
            in_flight.wait(c % slots);
            if (!in_flight.ok()) {
                return;
            }
            std::memcpy(dst + c * chunk, hosts_[c % slots], chunks.size(c));
            if (c + slots < n && !issue(c + slots)) {
                return;
            }
        }
        return;
    }
    // The helpers copy chunk c out once its read has ended; its slot then takes chunk c + slots.
    workers_.start(chunks, 0);
    bool ok = true;
    std::size_t allowed = 0;
    while (ok && (allowed < n || issued < n)) {
        bool progress = false;
        if (allowed < issued && in_flight.poll(allowed % slots)) {
            ok = in_flight.ok();
            workers_.allow(++allowed);
            progress = true;
        }
        if (ok && issued < n && issued - slots < allowed && workers_.copied(issued - slots)) {
            ok = issue(issued++);
            progress = true;
        }
        if (!progress) {
            CopyWorkers::relax();
        }
    }
    while (ok && !workers_.copied(n - 1)) {
        CopyWorkers::relax();
    }
    workers_.finish(!ok);
}

OPENCLAW_INLINE void StagingPool::write(cl_command_queue queue, cl_mem dst, std::size_t offset,
                                        const std::byte* src, std::size_t bytes, OnError on_error) {
    InFlight in_flight(slot_count_, on_error);
    const std::size_t chunk = chunk_for(bytes);
    // The caller's memory is only read (to_slots); StagedChunks holds both directions.
    const StagedChunks chunks{const_cast<std::byte*>(src), hosts_.data(), slot_count_, chunk, bytes,
                              (bytes + chunk - 1) / chunk, true};
    const std::size_t n = chunks.count;
    const std::size_t slots = slot_count_;
    const auto issue = [&](std::size_t c) {
        return check(clEnqueueWriteBuffer(queue, dst, CL_FALSE, offset + c * chunk, chunks.size(c),
                                          hosts_[c % slots], 0, nullptr, in_flight.slot(c % slots)),
                     "clEnqueueWriteBuffer", on_error,
                     [&] {
                         return concat("staged chunk of ", chunks.size(c), " bytes at byte ",
                                       offset + c * chunk);
                     }) &&
               check(clFlush(queue), "clFlush", on_error);
    };
    if (workers_.helpers() == 0) {
        for (std::size_t c = 0; c < n; ++c) {
            in_flight.wait(c % slots);  // the slot's previous chunk has left it
            if (!in_flight.ok()) {
                return;
            }
            std::memcpy(hosts_[c % slots], src + c * chunk, chunks.size(c));
            if (!issue(c)) {
                return;
            }
        }
        in_flight.wait_all();
        return;
    }
    // The helpers fill chunk c once its slot is free; the write of each filled chunk is
    // enqueued at once, and a slot is freed when its write has ended.
    workers_.start(chunks, n < slots ? n : slots);
    bool ok = true;
    std::size_t issued = 0;
    std::size_t freed = 0;  // chunks whose slot has been given to chunk + slots
    while (ok && issued < n) {
        bool progress = false;
        if (workers_.copied(issued)) {
            ok = issue(issued++);
            progress = true;
        }
        if (ok && freed < issued && freed + slots < n && in_flight.poll(freed % slots)) {
            ok = in_flight.ok();
            workers_.allow(++freed + slots);
            progress = true;
        }
        if (!progress) {
            CopyWorkers::relax();
        }
    }
    workers_.finish(!ok);
    if (ok) {
        in_flight.drain();
    }
}

OPENCLAW_INLINE CopyWorkers::CopyWorkers(unsigned helpers) {
    for (unsigned i = 0; i < helpers; ++i) {
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
