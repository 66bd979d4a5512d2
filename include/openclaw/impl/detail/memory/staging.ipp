// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/memory/staging.hpp>: compiled once into the
// openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/memory/staging.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

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
        auto pool = std::make_shared<StagingPool>(queue.context_handle(), queue.get(),
                                                  staging_tuning(), unavailable);
        if (!pool->ready()) {
            return {nullptr, std::unique_lock<std::mutex>{}};
        }
        state->staging = std::move(pool);
    }
    return {static_cast<StagingPool*>(state->staging.get()), std::move(lock)};
}

OPENCLAW_INLINE StagingPool::StagingPool(cl_context context, cl_command_queue queue,
                                         const StagingTuning& tuning, OnError on_error)
    : tuning_(tuning),
      workers_(threads_for(tuning.threads), tuning.spin_us),
      mid_workers_(tuning.mid_limit == 0 ? 1u : threads_for(tuning.mid_threads),
                   tuning.mid_spin_us) {
    tuning_.slots = tuning.slots < 1 ? 1 : tuning.slots > max_slots ? max_slots : tuning.slots;
    tuning_.slot_bytes = tuning.slot_bytes < 65536 ? 65536 : tuning.slot_bytes / 65536 * 65536;
    tuning_.target_chunks = tuning.target_chunks < 1 ? 1 : tuning.target_chunks;
    tuning_.min_chunk = tuning.min_chunk < 65536 ? 65536 : tuning.min_chunk;
    tuning_.mid_chunks = tuning.mid_chunks < 1 ? 1 : tuning.mid_chunks;
    for (std::size_t i = 0; i < tuning_.slots; ++i) {
        Slot& slot = slots_[i];
        cl_int code = CL_SUCCESS;
        slot.mem =
            Handle<cl_mem>::adopt(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                                 tuning_.slot_bytes, nullptr, &code));
        if (!check(code, "clCreateBuffer", on_error, [] { return "pinned staging buffer"; })) {
            slot.mem.reset();
            return;
        }
        slot.queue = Handle<cl_command_queue>::retain(queue);
        void* host = clEnqueueMapBuffer(queue, slot.mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                        0, tuning_.slot_bytes, 0, nullptr, nullptr, &code);
        if (!check(code, "clEnqueueMapBuffer", on_error, [] { return "pinned staging buffer"; })) {
            return;
        }
        slot.host = host;
    }
    ready_ = true;
}

OPENCLAW_INLINE bool StagingPool::read(cl_command_queue queue, cl_mem src, std::size_t offset,
                                       std::byte* dst, std::size_t bytes, OnError on_error) {
    const std::size_t chunk = chunk_for(bytes);
    const Pieces pieces = pieces_for(chunk);
    const std::size_t slots = pieces.count;
    CopyWorkers& workers = mid_sized(bytes) ? mid_workers_ : workers_;
    InFlight in_flight(slots, tuning_.poll_us, on_error);
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    const auto size_of = [&](std::size_t i) {
        return bytes - i * chunk < chunk ? bytes - i * chunk : chunk;
    };
    const auto issue = [&](std::size_t i) {
        const std::size_t n = size_of(i);
        return check(
            enqueued(clEnqueueReadBuffer(queue, src, CL_FALSE, offset + i * chunk, n,
                                         piece_host(pieces, i % slots), 0, nullptr,
                                         in_flight.slot(i % slots)),
                     in_flight.slot(i % slots)),
            "clEnqueueReadBuffer", on_error,
            [&] { return concat("staged chunk of ", n, " bytes at byte ", offset + i * chunk); });
    };
    for (std::size_t i = 0; i < chunks && i < slots; ++i) {
        if (!issue(i)) {
            return false;
        }
    }
    if (!check(clFlush(queue), "clFlush", on_error)) {
        return false;
    }
    for (std::size_t i = 0; i < chunks; ++i) {
        in_flight.wait(i % slots);
        if (!in_flight.ok()) {
            return false;
        }
        workers.copy(dst + i * chunk, piece_host(pieces, i % slots), size_of(i),
                     tuning_.stream_reads);
        if (i + slots < chunks &&
            (!issue(i + slots) || !check(clFlush(queue), "clFlush", on_error))) {
            return false;
        }
    }
    return true;
}

OPENCLAW_INLINE bool StagingPool::write(cl_command_queue queue, cl_mem dst, std::size_t offset,
                                        const std::byte* src, std::size_t bytes, OnError on_error) {
    const std::size_t chunk = chunk_for(bytes);
    const Pieces pieces = pieces_for(chunk);
    const std::size_t slots = pieces.count;
    CopyWorkers& workers = mid_sized(bytes) ? mid_workers_ : workers_;
    InFlight in_flight(slots, tuning_.poll_us, on_error);
    for (std::size_t done = 0, i = 0; done < bytes; done += chunk, ++i) {
        const std::size_t n = bytes - done < chunk ? bytes - done : chunk;
        void* const host = piece_host(pieces, i % slots);
        in_flight.wait(i % slots);  // the piece's previous chunk has left it
        if (!in_flight.ok()) {
            return false;
        }
        workers.copy(host, src + done, n, tuning_.stream_writes);
        if (!check(
                enqueued(clEnqueueWriteBuffer(queue, dst, CL_FALSE, offset + done, n, host, 0,
                                              nullptr, in_flight.slot(i % slots)),
                         in_flight.slot(i % slots)),
                "clEnqueueWriteBuffer", on_error,
                [&] { return concat("staged chunk of ", n, " bytes at byte ", offset + done); }) ||
            !check(clFlush(queue), "clFlush", on_error)) {
            return false;
        }
    }
    in_flight.wait_all();
    return in_flight.ok();
}

OPENCLAW_INLINE CopyWorkers::CopyWorkers(unsigned participants, unsigned spin_us)
    : spin_us_(spin_us) {
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

}  // namespace detail
OPENCLAW_END_NAMESPACE
