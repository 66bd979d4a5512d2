// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Pipelined transfers between pageable host memory and a device through pinned staging buffers
// (the memory core's, under the typed buffers; made on first use per queue).
// Discrete GPUs move pinned memory several times faster than pageable memory (55.5 vs 6.8 GB/s
// for writes on an H200), so large blocking reads and writes copy chunk by chunk through a few
// pinned buffers: the host copies one chunk (on several threads) while the device moves another.

#include <openclaw/detail/base/handle.hpp>
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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// How staged transfers are cut and copied. The defaults were chosen with bench/staging_sweep on
/// an H200 host (bench/RESULTS.md). A benchmark may change them before a queue makes its pool
/// (the pool keeps a copy); the threshold is read at every blocking pageable transfer.
struct StagingTuning {
    std::size_t slot_bytes = std::size_t{8} << 20;  ///< each pinned slot: the largest chunk
    std::size_t slots = 4;                          ///< pinned slots (at most max_slots)
    std::size_t min_chunk = std::size_t{8} << 20;   ///< the smallest chunk a transfer is cut into
    std::size_t target_chunks = 1;                  ///< chunks per transfer, between the two
    unsigned threads = 16;                          ///< copying threads, the caller included
    bool stream_reads = false;   ///< non-temporal stores into the caller's memory (reads)
    bool stream_writes = false;  ///< non-temporal stores into the pinned slots (writes)
    unsigned spin_us = 0;        ///< helpers' wait for the next chunk, awake
    unsigned poll_us = 0;        ///< a chunk's wait polls its event this long, then blocks
    std::size_t threshold = std::size_t{4} << 20;  ///< smaller transfers go straight through
    /// Transfers up to this size are mid-sized (0: none): cut into about mid_chunks chunks (all
    /// in flight at once where the slots hold them) and copied by mid_threads threads that stay
    /// awake mid_spin_us between chunks. A chunk's wake-up is a large part of a transfer of a
    /// fraction of a millisecond, and fewer threads than cores leave the driver's own threads a
    /// core (bench/RESULTS.md, issue 34).
    std::size_t mid_limit = std::size_t{32} << 20;
    std::size_t mid_chunks = 8;  ///< chunks per mid-sized transfer
    unsigned mid_threads = 8;    ///< copying threads of mid-sized transfers, the caller included
    unsigned mid_spin_us = 200;  ///< their helpers' wait for the next chunk, awake
};

/// The tuning that staging pools are made with.
inline StagingTuning& staging_tuning() noexcept {
    static StagingTuning tuning;
    return tuning;
}

/// memcpy, or with `streaming` a copy whose stores bypass the caches (large blocks only): the
/// copied bytes are not read again soon, and the stores then need no read of their lines.
inline void copy_bytes(void* dst, const void* src, std::size_t bytes, bool streaming) noexcept {
#if defined(__SSE2__)
    if (streaming && bytes >= (std::size_t{64} << 10)) {
        auto* d = static_cast<unsigned char*>(dst);
        const auto* s = static_cast<const unsigned char*>(src);
        const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
        std::memcpy(d, s, head);
        d += head;
        s += head;
        bytes -= head;
        const std::size_t blocks = bytes / 64;
        for (std::size_t i = 0; i < blocks; ++i, d += 64, s += 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
            const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
            _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
        }
        _mm_sfence();  // the streamed stores are visible before the copy counts as done
        std::memcpy(d, s, bytes % 64);
        return;
    }
#endif
    (void)streaming;
    std::memcpy(dst, src, bytes);
}

/// Copies large blocks on several threads: a few persistent helpers plus the calling thread.
/// Between blocks the helpers stay awake for `spin_us` (the next chunk of a transfer comes
/// soon), then sleep.
class CopyWorkers {
  public:
    CopyWorkers(unsigned participants, unsigned spin_us);
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

    void copy(void* dst, const void* src, std::size_t bytes, bool streaming) {
        // Below a few hundred KiB, waking threads costs more than it saves.
        if (threads_.empty() || bytes < (std::size_t{256} << 10)) {
            copy_bytes(dst, src, bytes, streaming);
            return;
        }
        const std::size_t parts = threads_.size() + 1;
        const std::size_t part = (bytes / parts + 63) / 64 * 64;
        job_ = {static_cast<char*>(dst), static_cast<const char*>(src), bytes, part, streaming};
        pending_.store(threads_.size(), std::memory_order_relaxed);
        {
            // Under the mutex: a helper about to sleep either sees the new generation or is
            // counted in sleeping_ before it is read below.
            const std::lock_guard lock(mutex_);
            generation_.fetch_add(1, std::memory_order_release);
        }
        if (sleeping_.load(std::memory_order_acquire) != 0) {
            start_.notify_all();
        }
        copy_part(0);
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us_);
        for (unsigned spin = 1; pending_.load(std::memory_order_acquire) != 0; ++spin) {
            if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) {
                std::unique_lock lock(mutex_);
                done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
                break;
            }
            relax();
        }
    }

    /// Waits a moment (a pause instruction where there is one).
    static void relax() noexcept {
#if defined(__SSE2__)
        _mm_pause();
#else
        std::this_thread::yield();
#endif
    }

  private:
    struct Job {
        char* dst = nullptr;
        const char* src = nullptr;
        std::size_t bytes = 0;
        std::size_t part = 0;
        bool streaming = false;
    };

    void copy_part(std::size_t index) const noexcept {
        const std::size_t begin = index * job_.part < job_.bytes ? index * job_.part : job_.bytes;
        const std::size_t end = job_.bytes - begin < job_.part ? job_.bytes : begin + job_.part;
        if (end > begin) {
            copy_bytes(job_.dst + begin, job_.src + begin, end - begin, job_.streaming);
        }
    }

    void serve(unsigned index) {
        std::uint64_t seen = 0;
        for (;;) {
            const auto until =
                std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us_);
            for (unsigned spin = 1; generation_.load(std::memory_order_acquire) == seen &&
                                    !stop_.load(std::memory_order_acquire);
                 ++spin) {
                if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) {
                    std::unique_lock lock(mutex_);
                    sleeping_.fetch_add(1, std::memory_order_acq_rel);
                    start_.wait(lock, [&] {
                        return stop_.load(std::memory_order_acquire) ||
                               generation_.load(std::memory_order_acquire) != seen;
                    });
                    sleeping_.fetch_sub(1, std::memory_order_acq_rel);
                    break;
                }
                relax();
            }
            if (stop_.load(std::memory_order_acquire)) {
                return;
            }
            seen = generation_.load(std::memory_order_acquire);
            copy_part(index);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                // The last part: wake the caller if it stopped spinning (the lock orders this
                // after its test of pending_).
                { const std::lock_guard lock(mutex_); }
                done_.notify_one();
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable done_;
    Job job_;
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<std::size_t> pending_{0};
    std::atomic<unsigned> sleeping_{0};
    std::atomic<bool> stop_{false};
    unsigned spin_us_;
    std::vector<std::thread> threads_;
};

/// Which path a large pageable transfer takes: staged through pinned memory, or the driver's own.
/// Staging is several times faster on a host whose copy threads get their cores, and can be
/// slower than the driver where they do not (a lent H200 guest measured 0.27x-0.50x raw at 4-16
/// MiB in one lease, 1.4x-4.4x in another). Each direction and power-of-two size keeps the best
/// recent rate of each path (a sample's rate, or the best one decayed by 1/8 a sample, so a slow
/// host shows within a few transfers). The first transfer is staged and the second takes the
/// driver's path; then the faster path is taken and the other tried again now and then: the
/// driver's once every 256 transfers while staging wins, staging after 16 transfers while it
/// loses, then after twice as many each time it loses again (at most 1024).
class PathChooser {
  public:
    /// True when the next transfer of `bytes` in this direction should be staged.
    bool stage(bool reads, std::size_t bytes) noexcept {
        Rates& r = rates(reads, bytes);
        const std::uint32_t n = r.count;
        r.count = n == ~std::uint32_t{0} ? n : n + 1;
        if (r.staged == 0 || r.direct == 0) {
            return r.staged == 0 || n != 1;  // the driver's path once, at the second transfer
        }
        ++r.since;
        if (r.staged >= r.direct) {
            if (r.since < 256) {
                return true;
            }
            r.since = 0;
            return false;  // the driver's path again, now and then
        }
        if (r.since < r.interval) {
            return false;
        }
        r.since = 0;
        return true;  // staging again, less often each time it loses
    }
    /// Records that a transfer of `bytes` took `seconds` on one of the paths.
    void record(bool reads, std::size_t bytes, double seconds, bool staged) noexcept {
        if (!(seconds > 0)) {
            return;
        }
        Rates& r = rates(reads, bytes);
        double& best = staged ? r.staged : r.direct;
        const double rate = static_cast<double>(bytes) / seconds;
        best = rate > best * 0.875 ? rate : best * 0.875;
        if (staged && r.direct != 0) {
            r.interval = r.staged >= r.direct ? 16 : r.interval < 1024 ? r.interval * 2 : 1024;
        }
    }

  private:
    struct Rates {
        double staged = 0;  // bytes per second, 0: not measured
        double direct = 0;
        std::uint32_t count = 0;      // transfers so far (saturating)
        std::uint32_t since = 0;      // transfers since the other path was last tried
        std::uint32_t interval = 16;  // transfers between tries of a losing staged path
    };
    static constexpr std::size_t buckets = 16;  // 2^20 bytes and below, ..., 2^35 and above
    Rates& rates(bool reads, std::size_t bytes) noexcept {
        std::size_t bucket = 0;
        for (std::size_t b = bytes >> 20; b > 1 && bucket + 1 < buckets; b >>= 1) {
            ++bucket;
        }
        return rates_[(reads ? buckets : 0) + bucket];
    }
    std::array<Rates, 2 * buckets> rates_{};
};

/// A queue's pinned staging buffers (persistently mapped) and copy threads.
class StagingPool {
  public:
    /// The most slots a pool has.
    static constexpr std::size_t max_slots = 16;
    /// The most chunks of one transfer in flight.
    static constexpr std::size_t max_pieces = 64;

    /// Makes the staging buffers with `tuning`; a failure goes to `on_error` and leaves the pool
    /// not ready().
    StagingPool(cl_context context, cl_command_queue queue, const StagingTuning& tuning,
                OnError on_error);
    StagingPool(const StagingPool&) = delete;
    StagingPool& operator=(const StagingPool&) = delete;

    /// False when a staging buffer could not be made: transfers then go straight to the driver.
    bool ready() const noexcept { return ready_; }

    /// Which path the next transfer of `bytes` takes, and what each took (see PathChooser).
    PathChooser& paths() noexcept { return paths_; }

    /// True when a transfer of `bytes` is mid-sized (see StagingTuning::mid_limit).
    bool mid_sized(std::size_t bytes) const noexcept { return bytes <= tuning_.mid_limit; }

    /// The bytes of each chunk of a transfer of `bytes`, in whole 64 KiB units, at most the
    /// slots' size: about mid_chunks chunks for a mid-sized transfer, else about target_chunks
    /// and at least min_chunk.
    std::size_t chunk_for(std::size_t bytes) const noexcept {
        const bool mid = mid_sized(bytes);
        const std::size_t wanted = bytes / (mid ? tuning_.mid_chunks : tuning_.target_chunks);
        std::size_t chunk =
            wanted > tuning_.slot_bytes ? tuning_.slot_bytes : (wanted + 65535) / 65536 * 65536;
        const std::size_t least = mid ? 65536 : tuning_.min_chunk;
        chunk = chunk < least ? least : chunk;
        return chunk > tuning_.slot_bytes ? tuning_.slot_bytes : chunk;
    }

    /// Blocking write of `bytes` from pageable `src` to `dst` at byte `offset`; false after a
    /// failure (reported to `on_error`).
    bool write(cl_command_queue queue, cl_mem dst, std::size_t offset, const std::byte* src,
               std::size_t bytes, OnError on_error);

    /// Blocking read of `bytes` from `src` at byte `offset` into pageable `dst`; false after a
    /// failure (reported to `on_error`).
    bool read(cl_command_queue queue, cl_mem src, std::size_t offset, std::byte* dst,
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

    /// `wanted` copying threads, at least 1 and at most the host's cores.
    static unsigned threads_for(unsigned wanted) noexcept {
        const unsigned cores = std::thread::hardware_concurrency();
        wanted = wanted < 1 ? 1u : wanted;
        return cores >= 1 && cores < wanted ? cores : wanted;
    }

    /// The pinned memory cut into pieces of `chunk` bytes (whole pieces per slot, at most
    /// max_pieces): where the chunks of one transfer go in turn.
    struct Pieces {
        std::size_t count = 1;
        std::size_t per_slot = 1;
        std::size_t chunk = 0;
    };
    Pieces pieces_for(std::size_t chunk) const noexcept {
        const std::size_t per_slot = tuning_.slot_bytes / chunk;  // at least 1: chunk <= slot
        const std::size_t count = per_slot * tuning_.slots;
        return {count < max_pieces ? count : max_pieces, per_slot, chunk};
    }
    void* piece_host(const Pieces& pieces, std::size_t piece) const noexcept {
        return static_cast<char*>(slots_[piece / pieces.per_slot].host) +
               piece % pieces.per_slot * pieces.chunk;
    }

    /// The event of each piece's last transfer. Whatever happens, nothing leaves this scope
    /// while the device may still use a staging buffer.
    class InFlight {
      public:
        InFlight(std::size_t slots, unsigned poll_us, OnError on_error) noexcept
            : slots_(slots), poll_us_(poll_us), on_error_(on_error) {}
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
            // A driver's blocking wait may sleep for longer than a chunk takes: poll first.
            if (events_[i] != nullptr && poll_us_ != 0) {
                const auto until =
                    std::chrono::steady_clock::now() + std::chrono::microseconds(poll_us_);
                cl_int status = CL_QUEUED;
                while (clGetEventInfo(events_[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                      &status, nullptr) == CL_SUCCESS &&
                       status > CL_COMPLETE && std::chrono::steady_clock::now() < until) {
                    CopyWorkers::relax();
                }
            }
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
        /// False once a wait failed (and was reported).
        bool ok() const noexcept { return ok_; }

      private:
        std::array<cl_event, max_pieces> events_{};
        std::size_t slots_;
        unsigned poll_us_;
        OnError on_error_;
        bool ok_ = true;
    };

    std::array<Slot, max_slots> slots_;
    StagingTuning tuning_;
    CopyWorkers workers_;
    CopyWorkers mid_workers_;  // for mid-sized transfers
    PathChooser paths_;
    bool ready_ = false;
};

/// The staging pool of `queue`'s family of copies, made on first use; nullptr when the queue
/// does not stage pageable transfers. The returned lock serializes staged transfers.
std::pair<StagingPool*, std::unique_lock<std::mutex>> staging_of(const Queue& queue);

}  // namespace detail
OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/memory/staging.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
