// SPDX-License-Identifier: Apache-2.0
#pragma once
// Buffer<T, Access>: device memory of `size()` elements of T. Access says what KERNELS may do
// with it (it becomes CL_MEM_READ_ONLY, ...) and is checked by Kernel::set_args at compile time;
// the host may write a read-only buffer and read a write-only one. Sizes and offsets are in
// elements throughout. Sub-buffers, mapped views, pinned and pipelined transfers live here too.

#include <openclaw/context.hpp>
#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/detail/staging.hpp>
#include <openclaw/event.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/pinned.hpp>
#include <openclaw/queue.hpp>

#include <bit>
#include <cstddef>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

/// Kernels may only read the buffer (`const __global T*`).
struct ReadOnly {
    /// The clCreateBuffer flag of this access (CL_MEM_READ_ONLY).
    static constexpr cl_mem_flags flags = CL_MEM_READ_ONLY;
    /// Whether kernels may read a buffer of this access (true).
    static constexpr bool kernel_reads = true;
    /// Whether kernels may write a buffer of this access (false).
    static constexpr bool kernel_writes = false;
    /// "ReadOnly", for error messages.
    static constexpr const char* name = "ReadOnly";
};
/// Kernels may only write the buffer.
struct WriteOnly {
    /// The clCreateBuffer flag of this access (CL_MEM_WRITE_ONLY).
    static constexpr cl_mem_flags flags = CL_MEM_WRITE_ONLY;
    /// Whether kernels may read a buffer of this access (false).
    static constexpr bool kernel_reads = false;
    /// Whether kernels may write a buffer of this access (true).
    static constexpr bool kernel_writes = true;
    /// "WriteOnly", for error messages.
    static constexpr const char* name = "WriteOnly";
};
/// Kernels may read and write the buffer.
struct ReadWrite {
    /// The clCreateBuffer flag of this access (CL_MEM_READ_WRITE).
    static constexpr cl_mem_flags flags = CL_MEM_READ_WRITE;
    /// Whether kernels may read a buffer of this access (true).
    static constexpr bool kernel_reads = true;
    /// Whether kernels may write a buffer of this access (true).
    static constexpr bool kernel_writes = true;
    /// "ReadWrite", for error messages.
    static constexpr const char* name = "ReadWrite";
};

template <class A>
concept AccessTag =
    std::is_same_v<A, ReadOnly> || std::is_same_v<A, WriteOnly> || std::is_same_v<A, ReadWrite>;

/// A sub-buffer may keep its parent's access or narrow a ReadWrite parent to either side.
template <class Sub, class Parent>
concept NarrowerAccess = std::is_same_v<Sub, Parent> || std::is_same_v<Parent, ReadWrite>;

template <class T, class Access>
class Buffer;

/// A buffer kernels only read (CL_MEM_READ_ONLY); fits In<T> and Constant<T> parameters.
template <class T>
using ReadOnlyBuffer = Buffer<T, ReadOnly>;
/// A buffer kernels only write (CL_MEM_WRITE_ONLY); fits Out<T> parameters.
template <class T>
using WriteOnlyBuffer = Buffer<T, WriteOnly>;
/// A buffer kernels read and write (CL_MEM_READ_WRITE); fits every buffer parameter.
template <class T>
using ReadWriteBuffer = Buffer<T, ReadWrite>;

namespace detail {

template <class B>
inline constexpr bool is_buffer = false;
template <class T, class A>
inline constexpr bool is_buffer<Buffer<T, A>> = true;

/// Refuses (offset, count) that do not fit in `size` elements, naming the call and the numbers.
inline bool check_range(const char* call, const char* what, std::size_t offset, std::size_t count,
                        std::size_t size) {
    if (offset > size || count > size - offset) [[unlikely]] {
        fail(CL_INVALID_VALUE, call,
             concat(what, " [", offset, ", ", offset, " + ", count,
                    ") is out of range: the buffer holds ", size, " elements"));
        return false;
    }
    return true;
}

}  // namespace detail

/// Device memory for `size()` elements of T (a cl_mem from clCreateBuffer), with the kernels'
/// access (ReadOnly, WriteOnly or ReadWrite) as part of the type, so set_args can check it.
/// Sizes and offsets are in elements; every transfer is checked against the size. Copying
/// shares the memory object (clRetainMemObject), destruction releases it.
template <class T, class Access>
class Buffer {
    static_assert(std::is_trivially_copyable_v<T>,
                  "Buffer<T>: T must be trivially copyable (its bytes are copied to the device)");
    static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>,
                  "Buffer<T>: T must not be cv-qualified; use ReadOnly access instead of const");
    static_assert(AccessTag<Access>,
                  "Buffer<T, Access>: Access must be ReadOnly, WriteOnly or ReadWrite");

  public:
    /// The element type.
    using value_type = T;
    /// The access tag: ReadOnly, WriteOnly or ReadWrite.
    using access_type = Access;

    /// An empty buffer (no memory object); assign a real one before use.
    Buffer() = default;

    /// Uninitialized device memory for `count` elements (count > 0).
    Buffer(const Context& context, std::size_t count, OnError = {})
        : Buffer(context, count, nullptr) {}

    /// Device memory initialized with a copy of `data` (data.size() > 0).
    Buffer(const Context& context, std::span<const T> data, OnError = {})
        : Buffer(context, data.size(), data.data()) {}

    /// Takes ownership of `raw`; its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer adopt(cl_mem raw, OnError = {}) {
        return Buffer(detail::Handle<cl_mem>::adopt(raw));
    }
    /// Shares `raw` (retains it); its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer retain(cl_mem raw, OnError = {}) {
        return Buffer(detail::Handle<cl_mem>::retain(raw));
    }

    /// Number of elements.
    std::size_t size() const noexcept { return size_; }
    /// Size in bytes (size() * sizeof(T)).
    std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
    /// True for an empty (default-constructed or moved-from) buffer.
    bool empty() const noexcept { return size_ == 0; }

    // ---- sub-buffers ---------------------------------------------------------------------

    /// `count` elements from element `offset`, sharing this buffer's memory, with this buffer's
    /// access or a narrower one (`sub<ReadOnly>(...)` of a ReadWrite buffer). The offset must be
    /// a multiple of sub_alignment(); a sub-buffer of a sub-buffer is cut from the root buffer.
    /// The sub-buffer keeps the root buffer alive.
    template <class SubAccess = Access>
    [[nodiscard]] Buffer<T, SubAccess> sub(std::size_t offset, std::size_t count,
                                           OnError = {}) const {
        static_assert(NarrowerAccess<SubAccess, Access>,
                      "sub<Access>: a sub-buffer's access must be its parent's, or either side "
                      "of a ReadWrite parent");
        if (!detail::check_range("clCreateSubBuffer", "sub-buffer", offset, count, size_)) {
            return {};
        }
        if (count == 0) {
            detail::fail(CL_INVALID_BUFFER_SIZE, "clCreateSubBuffer",
                         detail::concat("sub-buffer of 0 elements at offset ", offset));
            return {};
        }
        const detail::FailureWatch watch;
        const cl_mem root = root_ ? root_.get() : get();
        const std::size_t base = root_ ? info<CL_MEM_OFFSET>() : 0;  // bytes, in the root
        const cl_buffer_region region{base + offset * sizeof(T), count * sizeof(T)};
        if (watch.failed() || !check_alignment(offset, region.origin)) {
            return {};
        }
        cl_int code = CL_SUCCESS;
        cl_mem raw =
            clCreateSubBuffer(root, SubAccess::flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &code);
        if (!detail::check(code, "clCreateSubBuffer", [&] {
                return detail::concat(count, " elements at offset ", offset, " (", region.size,
                                      " bytes at byte ", region.origin, " of the root buffer)");
            })) {
            return {};
        }
        Buffer<T, SubAccess> result;
        result.handle_ = detail::Handle<cl_mem>::adopt(raw);
        result.root_ = detail::Handle<cl_mem>::retain(root);
        result.context_ = context_;
        result.size_ = count;
        return result;
    }

    /// The step, in elements, that sub-buffer offsets must be a multiple of: the largest
    /// CL_DEVICE_MEM_BASE_ADDR_ALIGN of the context's devices, converted from bits to elements.
    std::size_t sub_alignment(OnError = {}) const {
        const std::size_t bytes = std::lcm(alignment_bytes().first, sizeof(T));
        return bytes / sizeof(T);
    }

    /// True for a buffer made by sub().
    bool is_sub_buffer() const noexcept { return static_cast<bool>(root_); }

    // ---- blocking transfers --------------------------------------------------------------

    /// Blocking read of the whole buffer into `dst`, which must hold at least size() elements.
    /// Large reads into pageable memory of a discrete device are pipelined through pinned
    /// staging buffers (see QueueOptions::staging).
    void read(const Queue& queue, std::span<T> dst, const WaitList& wait = {}, OnError = {}) const {
        if (check_destination(dst.size())) {
            read_at(queue, 0, dst.first(size_), wait);
        }
    }
    /// Blocking read of dst.size() elements starting at element `offset`.
    void read_at(const Queue& queue, std::size_t offset, std::span<T> dst,
                 const WaitList& wait = {}, OnError = {}) const {
        transfer<Direction::read>(queue, offset, dst.data(), dst.size(), true, wait);
    }
    /// Blocking read into pinned memory: straight at the DMA rate, no staging.
    void read(const Queue& queue, PinnedBuffer<T>& dst, const WaitList& wait = {},
              OnError = {}) const {
        if (check_destination(dst.size())) {
            transfer<Direction::read>(queue, 0, dst.data(), size_, false, wait);
        }
    }
    /// Blocking read from element `offset` into pinned memory (dst.size() elements).
    void read_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& dst,
                 const WaitList& wait = {}, OnError = {}) const {
        transfer<Direction::read>(queue, offset, dst.data(), dst.size(), false, wait);
    }

    /// Blocking write of `src` over the start of the buffer; src.size() must not exceed size().
    void write(const Queue& queue, std::span<const T> src, const WaitList& wait = {},
               OnError = {}) const {
        write_at(queue, 0, src, wait);
    }
    /// Blocking write of `src` starting at element `offset`.
    void write_at(const Queue& queue, std::size_t offset, std::span<const T> src,
                  const WaitList& wait = {}, OnError = {}) const {
        transfer<Direction::write>(queue, offset, const_cast<T*>(src.data()), src.size(), true,
                                   wait);
    }
    /// Blocking write from pinned memory: straight at the DMA rate, no staging.
    void write(const Queue& queue, const PinnedBuffer<T>& src, const WaitList& wait = {},
               OnError = {}) const {
        write_at(queue, 0, src, wait);
    }
    /// Blocking write of pinned memory starting at element `offset`.
    void write_at(const Queue& queue, std::size_t offset, const PinnedBuffer<T>& src,
                  const WaitList& wait = {}, OnError = {}) const {
        transfer<Direction::write>(queue, offset, const_cast<T*>(src.data()), src.size(), false,
                                   wait);
    }

    // ---- asynchronous transfers (pinned memory only) -------------------------------------

    /// Starts reading the start of the buffer into `dst` and returns at once. `dst` records the
    /// transfer: its destructor (or dst.wait()) waits for it, so the memory cannot be freed
    /// under the copy. Pageable memory is not accepted here: its lifetime is the caller's.
    [[nodiscard]] Event read_async(const Queue& queue, PinnedBuffer<T>& dst,
                                   const WaitList& wait = {}, OnError = {}) const {
        return read_async_at(queue, 0, dst, wait);
    }
    /// As read_async, from element `offset` (dst.size() elements).
    [[nodiscard]] Event read_async_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& dst,
                                      const WaitList& wait = {}, OnError = {}) const {
        return transfer_async<Direction::read>(queue, offset, dst, wait);
    }
    /// Starts writing `src` over the start of the buffer and returns at once (see read_async).
    [[nodiscard]] Event write_async(const Queue& queue, PinnedBuffer<T>& src,
                                    const WaitList& wait = {}, OnError = {}) const {
        return write_async_at(queue, 0, src, wait);
    }
    /// As write_async, starting at element `offset`.
    [[nodiscard]] Event write_async_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& src,
                                       const WaitList& wait = {}, OnError = {}) const {
        return transfer_async<Direction::write>(queue, offset, src, wait);
    }

    // ---- device-side copy and fill -------------------------------------------------------

    /// Enqueues a device-side copy of the whole buffer to the start of `dst` (ordered on the
    /// queue; no host memory is involved, so it need not block). dst must be at least as large.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst, const WaitList& wait = {},
                 OnError = {}) const {
        copy_to(queue, dst, 0, 0, size_, wait);
    }
    /// Copies `count` elements from element `src_offset` to element `dst_offset` of `dst`.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst, std::size_t src_offset,
                 std::size_t dst_offset, std::size_t count, const WaitList& wait = {},
                 OnError = {}) const {
        copy(queue, dst, src_offset, dst_offset, count, wait, nullptr);
    }
    /// As the copy above (clEnqueueCopyBuffer), returning the command's Event.
    template <class DstAccess>
    [[nodiscard]] Event copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst,
                                std::size_t src_offset, std::size_t dst_offset, std::size_t count,
                                WithEvent, const WaitList& wait = {}, OnError = {}) const {
        cl_event raw = nullptr;
        copy(queue, dst, src_offset, dst_offset, count, wait, &raw);
        return Event::adopt(raw);
    }

    /// Enqueues setting every element to `value` (ordered on the queue; the pattern is copied at
    /// once, so it need not block).
    void fill(const Queue& queue, const T& value, const WaitList& wait = {}, OnError = {}) const {
        fill(queue, value, 0, size_, wait);
    }
    /// Sets `count` elements from element `offset` to `value`.
    void fill(const Queue& queue, const T& value, std::size_t offset, std::size_t count,
              const WaitList& wait = {}, OnError = {}) const {
        fill_range(queue, value, offset, count, wait, nullptr);
    }
    /// As the fill above (clEnqueueFillBuffer), returning the command's Event.
    [[nodiscard]] Event fill(const Queue& queue, const T& value, std::size_t offset,
                             std::size_t count, WithEvent, const WaitList& wait = {},
                             OnError = {}) const {
        cl_event raw = nullptr;
        fill_range(queue, value, offset, count, wait, &raw);
        return Event::adopt(raw);
    }

    // ---- mapped views --------------------------------------------------------------------

    /// Maps the buffer for reading (blocking) and returns a view over const T that unmaps itself.
    [[nodiscard]] MappedSpan<const T> map_read(const Queue& queue, const WaitList& wait = {},
                                               OnError = {}) const {
        return map_read(queue, 0, size_, wait);
    }
    /// Maps `count` elements from element `offset` for reading (clEnqueueMapBuffer, CL_MAP_READ;
    /// range checked).
    [[nodiscard]] MappedSpan<const T> map_read(const Queue& queue, std::size_t offset,
                                               std::size_t count, const WaitList& wait = {},
                                               OnError = {}) const {
        return map<const T>(queue, CL_MAP_READ, offset, count, wait);
    }
    /// Maps the buffer for writing only (CL_MAP_WRITE_INVALIDATE_REGION: the previous contents
    /// are not copied to the host, so the view starts undefined).
    [[nodiscard]] MappedSpan<T> map_write(const Queue& queue, const WaitList& wait = {},
                                          OnError = {}) const {
        return map_write(queue, 0, size_, wait);
    }
    /// Maps `count` elements from element `offset` for writing only.
    [[nodiscard]] MappedSpan<T> map_write(const Queue& queue, std::size_t offset, std::size_t count,
                                          const WaitList& wait = {}, OnError = {}) const {
        return map<T>(queue, CL_MAP_WRITE_INVALIDATE_REGION, offset, count, wait);
    }
    /// Maps the buffer for reading and writing.
    [[nodiscard]] MappedSpan<T> map_read_write(const Queue& queue, const WaitList& wait = {},
                                               OnError = {}) const {
        return map_read_write(queue, 0, size_, wait);
    }
    /// Maps `count` elements from element `offset` for reading and writing.
    [[nodiscard]] MappedSpan<T> map_read_write(const Queue& queue, std::size_t offset,
                                               std::size_t count, const WaitList& wait = {},
                                               OnError = {}) const {
        return map<T>(queue, CL_MAP_READ | CL_MAP_WRITE, offset, count, wait);
    }

    /// Any clGetMemObjectInfo parameter, with its C++ type from openclaw's info table.
    template <cl_mem_info Param>
    detail::info_t<cl_mem, Param> info(OnError = {}) const {
        return detail::get_info<cl_mem, Param>(get());
    }

    /// The raw cl_mem (not retained; null when empty).
    cl_mem get() const noexcept { return handle_.get(); }
    /// The raw context the buffer belongs to (not retained: the buffer keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the buffer holds a memory object.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  private:
    template <class U, class A>
    friend class Buffer;

    enum class Direction { read, write };

    Buffer(const Context& context, std::size_t count, const T* init)
        : handle_(create(context, count, init)) {
        if (handle_) {
            context_ = context.get();
            size_ = count;
        }
    }

    explicit Buffer(detail::Handle<cl_mem> handle) : handle_(std::move(handle)) {
        if (handle_) {
            const detail::FailureWatch watch;
            root_ = root_of(handle_.get());
            context_ = detail::get_info<cl_mem, CL_MEM_CONTEXT>(handle_.get());
            size_ = size_of(handle_.get());
            if (watch.failed()) {
                *this = Buffer();
            }
        }
    }

    static detail::Handle<cl_mem> create(const Context& context, std::size_t count, const T* init) {
        if (count == 0 || count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            detail::fail(CL_INVALID_BUFFER_SIZE, "clCreateBuffer",
                         detail::concat("count ", count, " elements of ", sizeof(T),
                                        count == 0 ? " bytes: a buffer needs at least one element"
                                                   : " bytes overflows size_t"));
            return {};
        }
        cl_mem_flags flags = Access::flags;
        if (init != nullptr) {
            flags |= CL_MEM_COPY_HOST_PTR;
        }
        cl_int code = CL_SUCCESS;
        // CL_MEM_COPY_HOST_PTR only reads host_ptr; the C API merely lacks the const.
        cl_mem raw =
            clCreateBuffer(context.get(), flags, count * sizeof(T), const_cast<T*>(init), &code);
        if (!detail::check(code, "clCreateBuffer", [&] {
                return detail::concat(count, " elements (", count * sizeof(T), " bytes), ",
                                      Access::name);
            })) {
            return {};
        }
        return detail::Handle<cl_mem>::adopt(raw);
    }

    static std::size_t size_of(cl_mem raw) {
        if (raw == nullptr) {
            return 0;
        }
        const std::size_t bytes = detail::get_info<cl_mem, CL_MEM_SIZE>(raw);
        if (bytes % sizeof(T) != 0) {
            detail::fail(
                CL_INVALID_MEM_OBJECT, "Buffer::adopt",
                detail::concat("memory object of ", bytes, " bytes is not a whole number of ",
                               sizeof(T), "-byte elements"));
            return 0;
        }
        return bytes / sizeof(T);
    }

    static detail::Handle<cl_mem> root_of(cl_mem raw) {
        if (raw == nullptr) {
            return {};
        }
        const cl_mem parent = detail::get_info<cl_mem, CL_MEM_ASSOCIATED_MEMOBJECT>(raw);
        return parent == nullptr ? detail::Handle<cl_mem>{}
                                 : detail::Handle<cl_mem>::retain(parent);
    }

    /// The largest base-address alignment of the context's devices, in bytes, and its device.
    std::pair<std::size_t, Device> alignment_bytes() const {
        std::pair<std::size_t, Device> strictest{1, Device{}};
        for (cl_device_id id : detail::get_info<cl_context, CL_CONTEXT_DEVICES>(context_)) {
            Device device = Device::retain(id);
            const std::size_t bytes = device.mem_base_addr_align();
            if (bytes > strictest.first) {
                strictest = {bytes, std::move(device)};
            }
        }
        return strictest;
    }

    bool check_alignment(std::size_t offset, std::size_t root_offset_bytes) const {
        const auto [bytes, device] = alignment_bytes();
        if (root_offset_bytes % bytes != 0) {
            detail::fail(CL_MISALIGNED_SUB_BUFFER_OFFSET, "clCreateSubBuffer",
                         detail::concat(
                             "offset ", offset, " elements (", offset * sizeof(T), " bytes; byte ",
                             root_offset_bytes, " of the root buffer) is not a multiple of the ",
                             bytes, "-byte base address alignment of device \"", device.name(),
                             "\" (CL_DEVICE_MEM_BASE_ADDR_ALIGN = ", bytes * 8,
                             " bits): use offsets that are multiples of sub_alignment() = ",
                             sub_alignment(), " elements"));
            return false;
        }
        return true;
    }

    // A queue of another context (or platform) can crash the driver that receives the buffer.
    bool check_queue(const Queue& queue, const char* call) const {
        if (queue.context_handle() != context_) [[unlikely]] {
            if (!queue) {
                detail::fail(CL_INVALID_COMMAND_QUEUE, call,
                             "the queue is empty (default-constructed or moved-from)");
                return false;
            }
            detail::fail(CL_INVALID_CONTEXT, call,
                         context_ == nullptr
                             ? "the buffer is empty (default-constructed or moved-from)"
                             : "the queue and the buffer belong to different contexts");
            return false;
        }
        return true;
    }

    bool check_destination(std::size_t elements) const {
        if (elements < size_) [[unlikely]] {
            detail::fail(CL_INVALID_VALUE, "clEnqueueReadBuffer",
                         detail::concat("destination holds ", elements, " elements, the buffer ",
                                        size(), "; read_at() reads part of a buffer"));
            return false;
        }
        return true;
    }

    /// Blocking transfer of `count` elements at element `offset` to or from `host`;
    /// `pageable` host memory may go through the queue's staging buffers.
    template <Direction D>
    void transfer(const Queue& queue, std::size_t offset, T* host, std::size_t count, bool pageable,
                  const WaitList& wait) const {
        constexpr const char* call =
            D == Direction::read ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
        if (!detail::check_range(call, D == Direction::read ? "read" : "write", offset, count,
                                 size_) ||
            count == 0 || !check_queue(queue, call) ||
            !detail::map_registry.check(
                get(), D == Direction::read ? detail::Use::read : detail::Use::write, call)) {
            return;
        }
        const std::size_t begin = offset * sizeof(T);
        const std::size_t bytes = count * sizeof(T);
        if (pageable && bytes >= detail::StagingPool::threshold_bytes) {
            if (auto [pool, lock] = detail::staging_of(queue); pool != nullptr) {
                if (!wait.empty() &&
                    !detail::check(clWaitForEvents(wait.size(), wait.data()), "clWaitForEvents",
                                   [] { return "the wait list of a staged transfer"; })) {
                    return;
                }
                if constexpr (D == Direction::read) {
                    pool->read(queue.get(), get(), begin, reinterpret_cast<std::byte*>(host),
                               bytes);
                } else {
                    pool->write(queue.get(), get(), begin, reinterpret_cast<const std::byte*>(host),
                                bytes);
                }
                return;
            }
        }
        cl_int code = CL_SUCCESS;
        if constexpr (D == Direction::read) {
            code = clEnqueueReadBuffer(queue.get(), get(), CL_TRUE, begin, bytes, host, wait.size(),
                                       wait.data(), nullptr);
        } else {
            code = clEnqueueWriteBuffer(queue.get(), get(), CL_TRUE, begin, bytes, host,
                                        wait.size(), wait.data(), nullptr);
        }
        (void)detail::check(code, call, [&] { return describe(offset, count); });
    }

    template <Direction D>
    Event transfer_async(const Queue& queue, std::size_t offset, PinnedBuffer<T>& host,
                         const WaitList& wait) const {
        constexpr const char* call =
            D == Direction::read ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
        if (!detail::check_range(call, D == Direction::read ? "read" : "write", offset, host.size(),
                                 size_) ||
            !check_queue(queue, call) ||
            !detail::map_registry.check(
                get(), D == Direction::read ? detail::Use::read : detail::Use::write, call)) {
            return {};
        }
        cl_event raw = nullptr;
        if (host.empty()) {
            nothing_to_do(queue, wait, &raw);
            return Event::adopt(raw);
        }
        const std::size_t begin = offset * sizeof(T);
        cl_int code = CL_SUCCESS;
        if constexpr (D == Direction::read) {
            code = clEnqueueReadBuffer(queue.get(), get(), CL_FALSE, begin, host.size_bytes(),
                                       host.data(), wait.size(), wait.data(), &raw);
        } else {
            code = clEnqueueWriteBuffer(queue.get(), get(), CL_FALSE, begin, host.size_bytes(),
                                        host.data(), wait.size(), wait.data(), &raw);
        }
        if (!detail::check(code, call, [&] { return describe(offset, host.size()); })) {
            return {};
        }
        Event event = Event::adopt(raw);
        host.track(event);
        return event;
    }

    template <class DstAccess>
    void copy(const Queue& queue, const Buffer<T, DstAccess>& dst, std::size_t src_offset,
              std::size_t dst_offset, std::size_t count, const WaitList& wait,
              cl_event* event) const {
        if (!detail::check_range("clEnqueueCopyBuffer", "source", src_offset, count, size_) ||
            !detail::check_range("clEnqueueCopyBuffer", "destination", dst_offset, count,
                                 dst.size())) {
            return;
        }
        if (count == 0) {
            return nothing_to_do(queue, wait, event);
        }
        if (!check_queue(queue, "clEnqueueCopyBuffer")) {
            return;
        }
        if (dst.context_handle() != context_) [[unlikely]] {
            detail::fail(CL_INVALID_CONTEXT, "clEnqueueCopyBuffer",
                         "the source and destination buffers belong to different contexts");
            return;
        }
        if (!detail::map_registry.check(get(), detail::Use::read, "clEnqueueCopyBuffer") ||
            !detail::map_registry.check(dst.get(), detail::Use::write, "clEnqueueCopyBuffer")) {
            return;
        }
        (void)detail::check(clEnqueueCopyBuffer(queue.get(), get(), dst.get(),
                                                src_offset * sizeof(T), dst_offset * sizeof(T),
                                                count * sizeof(T), wait.size(), wait.data(), event),
                            "clEnqueueCopyBuffer", [&] {
                                return detail::concat("copy of ", count, " elements from offset ",
                                                      src_offset, " to offset ", dst_offset);
                            });
    }

    void fill_range(const Queue& queue, const T& value, std::size_t offset, std::size_t count,
                    const WaitList& wait, cl_event* event) const {
        if (!detail::check_range("clEnqueueFillBuffer", "fill", offset, count, size_)) {
            return;
        }
        if (count == 0) {
            return nothing_to_do(queue, wait, event);
        }
        if (!check_queue(queue, "clEnqueueFillBuffer") ||
            !detail::map_registry.check(get(), detail::Use::write, "clEnqueueFillBuffer")) {
            return;
        }
        // clEnqueueFillBuffer takes patterns of 1, 2, 4, ..., 128 bytes; other element sizes
        // (a 12-byte struct, say) are written from a host copy of the pattern.
        if constexpr (std::has_single_bit(sizeof(T)) && sizeof(T) <= 128) {
            (void)detail::check(
                clEnqueueFillBuffer(queue.get(), get(), &value, sizeof(T), offset * sizeof(T),
                                    count * sizeof(T), wait.size(), wait.data(), event),
                "clEnqueueFillBuffer", [&] { return describe(offset, count); });
        } else {
            const std::vector<T> pattern(count, value);
            (void)detail::check(
                clEnqueueWriteBuffer(queue.get(), get(), CL_TRUE, offset * sizeof(T),
                                     count * sizeof(T), pattern.data(), wait.size(), wait.data(),
                                     event),
                "clEnqueueWriteBuffer", [&] { return describe(offset, count); });
        }
    }

    template <class View>
    MappedSpan<View> map(const Queue& queue, cl_map_flags flags, std::size_t offset,
                         std::size_t count, const WaitList& wait) const {
        if (!detail::check_range("clEnqueueMapBuffer", "map", offset, count, size_) ||
            !check_queue(queue, "clEnqueueMapBuffer")) {
            return {};
        }
        return MappedSpan<View>::map(queue.get(), get(), flags, offset, count, wait);
    }

    // Drivers refuse zero-sized commands; an empty range is a no-op, with a marker when the
    // caller wants an event to wait on.
    static void nothing_to_do(const Queue& queue, const WaitList& wait, cl_event* event) {
        if (event != nullptr) {
            (void)detail::check(
                clEnqueueMarkerWithWaitList(queue.get(), wait.size(), wait.data(), event),
                "clEnqueueMarkerWithWaitList");
        }
    }

    std::string describe(std::size_t offset, std::size_t count) const {
        return detail::concat(count, " elements at offset ", offset, " of a buffer of ", size(),
                              " (", sizeof(T), "-byte elements)");
    }

    detail::Handle<cl_mem> handle_;
    detail::Handle<cl_mem> root_;  // a sub-buffer's root buffer, kept alive
    detail::ResetOnMove<cl_context> context_;
    detail::ResetOnMove<std::size_t> size_;
};

}  // namespace openclaw
