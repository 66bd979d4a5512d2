// SPDX-License-Identifier: Apache-2.0
#pragma once
// Buffer<T, Access>: device memory of `size()` elements of T. Access says what KERNELS may do
// with it (it becomes CL_MEM_READ_ONLY, ...) and is checked by Kernel::set_args at compile time;
// the host may write a read-only buffer and read a write-only one. Sizes and offsets are in
// elements throughout.

#include <openclaw/context.hpp>
#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/event.hpp>
#include <openclaw/queue.hpp>

#include <bit>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

/// Kernels may only read the buffer (`const __global T*`).
struct ReadOnly {
    static constexpr cl_mem_flags flags = CL_MEM_READ_ONLY;
    static constexpr bool kernel_reads = true;
    static constexpr bool kernel_writes = false;
    static constexpr const char* name = "ReadOnly";
};
/// Kernels may only write the buffer.
struct WriteOnly {
    static constexpr cl_mem_flags flags = CL_MEM_WRITE_ONLY;
    static constexpr bool kernel_reads = false;
    static constexpr bool kernel_writes = true;
    static constexpr const char* name = "WriteOnly";
};
/// Kernels may read and write the buffer.
struct ReadWrite {
    static constexpr cl_mem_flags flags = CL_MEM_READ_WRITE;
    static constexpr bool kernel_reads = true;
    static constexpr bool kernel_writes = true;
    static constexpr const char* name = "ReadWrite";
};

template <class A>
concept AccessTag =
    std::is_same_v<A, ReadOnly> || std::is_same_v<A, WriteOnly> || std::is_same_v<A, ReadWrite>;

template <class T, class Access>
class Buffer;

template <class T>
using ReadOnlyBuffer = Buffer<T, ReadOnly>;
template <class T>
using WriteOnlyBuffer = Buffer<T, WriteOnly>;
template <class T>
using ReadWriteBuffer = Buffer<T, ReadWrite>;

namespace detail {

template <class B>
inline constexpr bool is_buffer = false;
template <class T, class A>
inline constexpr bool is_buffer<Buffer<T, A>> = true;

/// Refuses (offset, count) that do not fit in `size` elements, naming the call and the numbers.
inline void check_range(const char* call, const char* what, std::size_t offset, std::size_t count,
                        std::size_t size) {
    if (offset > size || count > size - offset) [[unlikely]] {
        throw_error(CL_INVALID_VALUE, call,
                    concat(what, " [", offset, ", ", offset, " + ", count,
                           ") is out of range: the buffer holds ", size, " elements"));
    }
}

}  // namespace detail

template <class T, class Access>
class Buffer {
    static_assert(std::is_trivially_copyable_v<T>,
                  "Buffer<T>: T must be trivially copyable (its bytes are copied to the device)");
    static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>,
                  "Buffer<T>: T must not be cv-qualified; use ReadOnly access instead of const");
    static_assert(AccessTag<Access>,
                  "Buffer<T, Access>: Access must be ReadOnly, WriteOnly or ReadWrite");

  public:
    using value_type = T;
    using access_type = Access;

    /// An empty buffer (no memory object); assign a real one before use.
    Buffer() = default;

    /// Uninitialized device memory for `count` elements (count > 0).
    Buffer(const Context& context, std::size_t count) : Buffer(context, count, nullptr) {}

    /// Device memory initialized with a copy of `data` (data.size() > 0).
    Buffer(const Context& context, std::span<const T> data)
        : Buffer(context, data.size(), data.data()) {}

    /// Takes ownership of `raw`; its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer adopt(cl_mem raw) {
        return Buffer(detail::Handle<cl_mem>::adopt(raw));
    }
    /// Shares `raw` (retains it); its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer retain(cl_mem raw) {
        return Buffer(detail::Handle<cl_mem>::retain(raw));
    }

    /// Number of elements.
    std::size_t size() const noexcept { return size_; }
    std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    bool empty() const noexcept { return size_ == 0; }

    /// Blocking read of the whole buffer into `dst`, which must hold at least size() elements.
    void read(const Queue& queue, std::span<T> dst) const {
        if (dst.size() < size_) [[unlikely]] {
            detail::throw_error(
                CL_INVALID_VALUE, "clEnqueueReadBuffer",
                detail::concat("destination holds ", dst.size(), " elements, the buffer ", size(),
                               "; read_at() reads part of a buffer"));
        }
        read_at(queue, 0, dst.first(size_));
    }
    /// Blocking read of dst.size() elements starting at element `offset`.
    void read_at(const Queue& queue, std::size_t offset, std::span<T> dst) const {
        detail::check_range("clEnqueueReadBuffer", "read", offset, dst.size(), size_);
        if (dst.empty()) {
            return;
        }
        check_queue(queue, "clEnqueueReadBuffer");
        detail::check(clEnqueueReadBuffer(queue.get(), get(), CL_TRUE, offset * sizeof(T),
                                          dst.size() * sizeof(T), dst.data(), 0, nullptr, nullptr),
                      "clEnqueueReadBuffer", [&] { return describe(offset, dst.size()); });
    }

    /// Blocking write of `src` over the start of the buffer; src.size() must not exceed size().
    void write(const Queue& queue, std::span<const T> src) const { write_at(queue, 0, src); }
    /// Blocking write of `src` starting at element `offset`.
    void write_at(const Queue& queue, std::size_t offset, std::span<const T> src) const {
        detail::check_range("clEnqueueWriteBuffer", "write", offset, src.size(), size_);
        if (src.empty()) {
            return;
        }
        check_queue(queue, "clEnqueueWriteBuffer");
        detail::check(clEnqueueWriteBuffer(queue.get(), get(), CL_TRUE, offset * sizeof(T),
                                           src.size() * sizeof(T), src.data(), 0, nullptr, nullptr),
                      "clEnqueueWriteBuffer", [&] { return describe(offset, src.size()); });
    }

    /// Enqueues a device-side copy of the whole buffer to the start of `dst` (ordered on the
    /// queue; no host memory is involved, so it need not block). dst must be at least as large.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst) const {
        copy_to(queue, dst, 0, 0, size_);
    }
    /// Copies `count` elements from element `src_offset` to element `dst_offset` of `dst`.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst, std::size_t src_offset,
                 std::size_t dst_offset, std::size_t count) const {
        copy(queue, dst, src_offset, dst_offset, count, nullptr);
    }
    template <class DstAccess>
    [[nodiscard]] Event copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst,
                                std::size_t src_offset, std::size_t dst_offset, std::size_t count,
                                WithEvent) const {
        cl_event raw = nullptr;
        copy(queue, dst, src_offset, dst_offset, count, &raw);
        return Event::adopt(raw);
    }

    /// Enqueues setting every element to `value` (ordered on the queue; the pattern is copied at
    /// once, so it need not block).
    void fill(const Queue& queue, const T& value) const { fill(queue, value, 0, size_); }
    /// Sets `count` elements from element `offset` to `value`.
    void fill(const Queue& queue, const T& value, std::size_t offset, std::size_t count) const {
        fill_range(queue, value, offset, count, nullptr);
    }
    [[nodiscard]] Event fill(const Queue& queue, const T& value, std::size_t offset,
                             std::size_t count, WithEvent) const {
        cl_event raw = nullptr;
        fill_range(queue, value, offset, count, &raw);
        return Event::adopt(raw);
    }

    template <cl_mem_info Param>
    detail::info_t<cl_mem, Param> info() const {
        return detail::get_info<cl_mem, Param>(get());
    }

    cl_mem get() const noexcept { return handle_.get(); }
    /// The raw context the buffer belongs to (not retained: the buffer keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  private:
    Buffer(const Context& context, std::size_t count, const T* init)
        : handle_(create(context, count, init)), context_(context.get()), size_(count) {}

    explicit Buffer(detail::Handle<cl_mem> handle)
        : handle_(std::move(handle)),
          context_(handle_ ? detail::get_info<cl_mem, CL_MEM_CONTEXT>(handle_.get()) : nullptr),
          size_(size_of(handle_.get())) {}

    // A queue of another context (or platform) can crash the driver that receives the buffer.
    void check_queue(const Queue& queue, const char* call) const {
        if (queue.context_handle() != context_) [[unlikely]] {
            if (!queue) {
                detail::throw_error(CL_INVALID_COMMAND_QUEUE, call,
                                    "the queue is empty (default-constructed or moved-from)");
            }
            detail::throw_error(CL_INVALID_CONTEXT, call,
                                context_ == nullptr
                                    ? "the buffer is empty (default-constructed or moved-from)"
                                    : "the queue and the buffer belong to different contexts");
        }
    }

    static detail::Handle<cl_mem> create(const Context& context, std::size_t count, const T* init) {
        if (count == 0 || count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            detail::throw_error(
                CL_INVALID_BUFFER_SIZE, "clCreateBuffer",
                detail::concat("count ", count, " elements of ", sizeof(T),
                               count == 0 ? " bytes: a buffer needs at least one element"
                                          : " bytes overflows size_t"));
        }
        cl_mem_flags flags = Access::flags;
        if (init != nullptr) {
            flags |= CL_MEM_COPY_HOST_PTR;
        }
        cl_int code = CL_SUCCESS;
        // CL_MEM_COPY_HOST_PTR only reads host_ptr; the C API merely lacks the const.
        cl_mem raw =
            clCreateBuffer(context.get(), flags, count * sizeof(T), const_cast<T*>(init), &code);
        detail::check(code, "clCreateBuffer", [&] {
            return detail::concat(count, " elements (", count * sizeof(T), " bytes), ",
                                  Access::name);
        });
        return detail::Handle<cl_mem>::adopt(raw);
    }

    static std::size_t size_of(cl_mem raw) {
        if (raw == nullptr) {
            return 0;
        }
        const std::size_t bytes = detail::get_info<cl_mem, CL_MEM_SIZE>(raw);
        if (bytes % sizeof(T) != 0) {
            detail::throw_error(
                CL_INVALID_MEM_OBJECT, "Buffer::adopt",
                detail::concat("memory object of ", bytes, " bytes is not a whole number of ",
                               sizeof(T), "-byte elements"));
        }
        return bytes / sizeof(T);
    }

    template <class DstAccess>
    void copy(const Queue& queue, const Buffer<T, DstAccess>& dst, std::size_t src_offset,
              std::size_t dst_offset, std::size_t count, cl_event* event) const {
        detail::check_range("clEnqueueCopyBuffer", "source", src_offset, count, size_);
        detail::check_range("clEnqueueCopyBuffer", "destination", dst_offset, count, dst.size());
        if (count == 0) {
            return nothing_to_do(queue, event);
        }
        check_queue(queue, "clEnqueueCopyBuffer");
        if (dst.context_handle() != context_) [[unlikely]] {
            detail::throw_error(CL_INVALID_CONTEXT, "clEnqueueCopyBuffer",
                                "the source and destination buffers belong to different contexts");
        }
        detail::check(
            clEnqueueCopyBuffer(queue.get(), get(), dst.get(), src_offset * sizeof(T),
                                dst_offset * sizeof(T), count * sizeof(T), 0, nullptr, event),
            "clEnqueueCopyBuffer", [&] {
                return detail::concat("copy of ", count, " elements from offset ", src_offset,
                                      " to offset ", dst_offset);
            });
    }

    void fill_range(const Queue& queue, const T& value, std::size_t offset, std::size_t count,
                    cl_event* event) const {
        detail::check_range("clEnqueueFillBuffer", "fill", offset, count, size_);
        if (count == 0) {
            return nothing_to_do(queue, event);
        }
        check_queue(queue, "clEnqueueFillBuffer");
        // clEnqueueFillBuffer takes patterns of 1, 2, 4, ..., 128 bytes; other element sizes
        // (a 12-byte struct, say) are written from a host copy of the pattern.
        if constexpr (std::has_single_bit(sizeof(T)) && sizeof(T) <= 128) {
            detail::check(
                clEnqueueFillBuffer(queue.get(), get(), &value, sizeof(T), offset * sizeof(T),
                                    count * sizeof(T), 0, nullptr, event),
                "clEnqueueFillBuffer", [&] { return describe(offset, count); });
        } else {
            const std::vector<T> pattern(count, value);
            detail::check(
                clEnqueueWriteBuffer(queue.get(), get(), CL_TRUE, offset * sizeof(T),
                                     count * sizeof(T), pattern.data(), 0, nullptr, event),
                "clEnqueueWriteBuffer", [&] { return describe(offset, count); });
        }
    }

    // Drivers refuse zero-sized commands; an empty range is a no-op, with a marker when the
    // caller wants an event to wait on.
    static void nothing_to_do(const Queue& queue, cl_event* event) {
        if (event != nullptr) {
            detail::check(clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, event),
                          "clEnqueueMarkerWithWaitList");
        }
    }

    std::string describe(std::size_t offset, std::size_t count) const {
        return detail::concat(count, " elements at offset ", offset, " of a buffer of ", size(),
                              " (", sizeof(T), "-byte elements)");
    }

    detail::Handle<cl_mem> handle_;
    detail::ResetOnMove<cl_context> context_;
    detail::ResetOnMove<std::size_t> size_;
};

}  // namespace openclaw
