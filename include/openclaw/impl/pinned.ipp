// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/pinned.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/pinned.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE PinnedMemory::PinnedMemory(const Queue& queue, std::size_t count,
                                           std::size_t element_size, OnError on_error) {
    std::size_t bytes = 0;
    if (count == 0 || !checked_mul(count, element_size, bytes)) {
        fail(on_error, CL_INVALID_BUFFER_SIZE, "clCreateBuffer",
             concat("pinned memory of ", count, " elements of ", element_size, " bytes",
                    count == 0 ? ": it needs at least one element" : ": overflows size_t"));
        return;
    }
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, "clCreateBuffer", "queue");
        return;
    }
    cl_int code = CL_SUCCESS;
    mem_ = Handle<cl_mem>::adopt(clCreateBuffer(
        queue.context_handle(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &code));
    if (!check(code, "clCreateBuffer", on_error, [&] {
            return concat("pinned memory of ", count, " elements (", bytes, " bytes)");
        })) {
        mem_.reset();
        return;
    }
    queue_ = Handle<cl_command_queue>::retain(queue.get(), on_error);
    if (!queue_) {
        mem_.reset();
        return;
    }
    void* host = clEnqueueMapBuffer(queue.get(), mem_.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                    bytes, 0, nullptr, nullptr, &code);
    if (!check(code, "clEnqueueMapBuffer", on_error, [] { return "pinned memory"; })) {
        mem_.reset();
        queue_.reset();
        return;
    }
    host_ = host;
    bytes_ = bytes;
}

OPENCLAW_INLINE void PinnedMemory::wait(OnError on_error) {
    Relay step(on_error);
    for (const Event& event : pending_) {
        event.wait(step);
        if (step.failed()) {
            break;
        }
    }
    pending_.clear();
}

OPENCLAW_INLINE void PinnedMemory::track(Event event) {
    std::erase_if(pending_, [](const Event& e) {
        Status unreadable;  // a failed or unreadable event is complete as far as we wait for it
        const cl_int status = e.status(unreadable);
        return unreadable.failed() || status == CL_COMPLETE || status < 0;
    });
    pending_.push_back(std::move(event));
}

OPENCLAW_INLINE void PinnedMemory::release() noexcept {
    for (const Event& event : pending_) {
        const cl_event raw = event.get();
        if (const cl_int code = clWaitForEvents(1, &raw); code != CL_SUCCESS) {
            report_cleanup_failure("clWaitForEvents", code);
        }
    }
    pending_.clear();
    if (host_ != nullptr) {
        const cl_int code =
            clEnqueueUnmapMemObject(queue_.get(), mem_.get(), host_, 0, nullptr, nullptr);
        if (code != CL_SUCCESS) {
            report_cleanup_failure("clEnqueueUnmapMemObject", code);
        }
    }
    host_ = nullptr;
    bytes_ = 0;
    mem_.reset();
    queue_.reset();
}

}  // namespace detail

OPENCLAW_END_NAMESPACE
