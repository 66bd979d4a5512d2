// SPDX-License-Identifier: Apache-2.0
#pragma once
// Buffer<T, Access>: device memory of `size()` elements of T (typed memory layer). Access says
// what KERNELS may do with it (it becomes CL_MEM_READ_ONLY, ...) and is checked by
// Kernel::set_args at compile time; the host may write a read-only buffer and read a write-only
// one. Sizes and offsets are in elements throughout. Every member forwards to the non-template
// memory core (detail/memory.hpp) with the element's size, so an element type costs almost
// nothing to compile.

#include <openclaw/detail/memory.hpp>
#include <openclaw/event.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/mapping.hpp>
#include <openclaw/queue.hpp>

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

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

/// One of the three access tags.
template <class A>
concept AccessTag =
    std::is_same_v<A, ReadOnly> || std::is_same_v<A, WriteOnly> || std::is_same_v<A, ReadWrite>;

/// A sub-buffer may keep its parent's access or narrow a ReadWrite parent to either side.
template <class Sub, class Parent>
concept NarrowerAccess = std::is_same_v<Sub, Parent> || std::is_same_v<Parent, ReadWrite>;

/// What the host may do with a buffer's memory, beyond the kernels' Access (CL_MEM_HOST_*). Every
/// transfer and map is checked against it before the driver sees the command.
enum class HostAccess : unsigned char {
    read_write,  ///< the host may read and write (the default: no CL_MEM_HOST_* flag)
    read_only,   ///< CL_MEM_HOST_READ_ONLY: reads and read maps only
    write_only,  ///< CL_MEM_HOST_WRITE_ONLY: writes and write maps only
    none,        ///< CL_MEM_HOST_NO_ACCESS: device-side commands only (copies, fills, kernels)
};

/// How a buffer is made beyond its size and kernel access; designated initializers read well:
/// `ReadOnlyBuffer<float>{context, n, {.host = HostAccess::write_only, .host_memory = true}}`.
struct BufferOptions {
    /// What the host may do (see HostAccess).
    HostAccess host = HostAccess::read_write;
    /// CL_MEM_ALLOC_HOST_PTR: memory the host can reach without a copy (pinned on GPU drivers):
    /// maps are then cheap, and transfers from it run at the link's rate.
    bool host_memory = false;

    /// The clCreateBuffer flags these options add to the access flag.
    constexpr cl_mem_flags flags() const noexcept {
        const cl_mem_flags host_flag = host == HostAccess::read_only    ? CL_MEM_HOST_READ_ONLY
                                       : host == HostAccess::write_only ? CL_MEM_HOST_WRITE_ONLY
                                       : host == HostAccess::none       ? CL_MEM_HOST_NO_ACCESS
                                                                        : 0;
        return host_flag | (host_memory ? CL_MEM_ALLOC_HOST_PTR : 0);
    }
    friend constexpr bool operator==(const BufferOptions&, const BufferOptions&) = default;
};

/// A buffer kernels only read (CL_MEM_READ_ONLY); fits In<T> and Constant<T> parameters.
template <class T>
using ReadOnlyBuffer = Buffer<T, ReadOnly>;
/// A buffer kernels only write (CL_MEM_WRITE_ONLY); fits Out<T> parameters.
template <class T>
using WriteOnlyBuffer = Buffer<T, WriteOnly>;
/// A buffer kernels read and write (CL_MEM_READ_WRITE); fits every buffer parameter.
template <class T>
using ReadWriteBuffer = Buffer<T, ReadWrite>;

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

    static constexpr detail::Element element{sizeof(T), Access::name};
    using Direction = detail::Direction;

  public:
    /// The element type.
    using value_type = T;
    /// The access tag: ReadOnly, WriteOnly or ReadWrite.
    using access_type = Access;

    /// An empty buffer (no memory object); assign a real one before use.
    Buffer() = default;

    /// Uninitialized device memory for `count` elements (count > 0).
    Buffer(const Context& context, std::size_t count, OnError on_error = {})
        : mem_(detail::create_buffer(context, count, element, Access::flags, nullptr, on_error)) {}

    /// Device memory initialized with a copy of `data` (data.size() > 0).
    Buffer(const Context& context, std::span<const T> data, OnError on_error = {})
        : mem_(detail::create_buffer(context, data.size(), element, Access::flags, data.data(),
                                     on_error)) {}

    /// Uninitialized memory for `count` elements, made with `options` (host access, host
    /// memory).
    Buffer(const Context& context, std::size_t count, BufferOptions options, OnError on_error = {})
        : mem_(detail::create_buffer(context, count, element, Access::flags | options.flags(),
                                     nullptr, on_error)) {}

    /// Memory initialized with a copy of `data`, made with `options`.
    Buffer(const Context& context, std::span<const T> data, BufferOptions options,
           OnError on_error = {})
        : mem_(detail::create_buffer(context, data.size(), element, Access::flags | options.flags(),
                                     data.data(), on_error)) {}

    /// A buffer over `host`'s own memory (CL_MEM_USE_HOST_PTR): no copy is made where the device
    /// can use host memory (CPU devices; elsewhere the driver caches it on the device). The
    /// buffer takes the vector, so the memory cannot be freed under it: it is released after the
    /// driver has destroyed the memory object. Read and write it through map_read / map_write
    /// (coherent at unmap), or transfers; `options.host_memory` must stay false.
    [[nodiscard]] static Buffer over(const Context& context, std::vector<T>&& host,
                                     BufferOptions options = {}, OnError on_error = {}) {
        auto* owner = new std::vector<T>(std::move(host));
        const std::size_t count = owner->size();
        detail::HostStore store{owner->data(), owner,
                                [](void* p) { delete static_cast<std::vector<T>*>(p); }};
        options.host_memory = false;  // CL_MEM_ALLOC_HOST_PTR and CL_MEM_USE_HOST_PTR exclude
        return Buffer(detail::create_buffer_over(context, count, element,
                                                 Access::flags | options.flags(), store, on_error));
    }

    /// Takes ownership of `raw`; its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer adopt(cl_mem raw, OnError on_error = {}) {
        return Buffer(
            detail::describe_buffer(detail::Handle<cl_mem>::adopt(raw), element, on_error));
    }
    /// Shares `raw` (retains it); its size must be a multiple of sizeof(T).
    [[nodiscard]] static Buffer retain(cl_mem raw, OnError on_error = {}) {
        return Buffer(detail::describe_buffer(detail::Handle<cl_mem>::retain(raw, on_error),
                                              element, on_error));
    }

    /// Number of elements.
    std::size_t size() const noexcept { return mem_.bytes / sizeof(T); }
    /// Size in bytes (size() * sizeof(T)).
    std::size_t size_bytes() const noexcept { return mem_.bytes; }
    /// True for an empty (default-constructed or moved-from) buffer.
    bool empty() const noexcept { return mem_.bytes == 0; }

    // ---- sub-buffers ---------------------------------------------------------------------

    /// `count` elements from element `offset`, sharing this buffer's memory, with this buffer's
    /// access or a narrower one (`sub<ReadOnly>(...)` of a ReadWrite buffer). The offset must be
    /// a multiple of sub_alignment(); a sub-buffer of a sub-buffer is cut from the root buffer.
    /// The sub-buffer keeps the root buffer alive.
    template <class SubAccess = Access>
    [[nodiscard]] Buffer<T, SubAccess> sub(std::size_t offset, std::size_t count,
                                           OnError on_error = {}) const {
        static_assert(NarrowerAccess<SubAccess, Access>,
                      "sub<Access>: a sub-buffer's access must be its parent's, or either side "
                      "of a ReadWrite parent");
        return Buffer<T, SubAccess>(
            detail::sub_buffer(mem_, offset, count, element, SubAccess::flags, on_error));
    }

    /// The step, in elements, that sub-buffer offsets must be a multiple of: the largest
    /// CL_DEVICE_MEM_BASE_ADDR_ALIGN of the context's devices, converted from bits to elements.
    std::size_t sub_alignment(OnError on_error = {}) const {
        return detail::sub_alignment(mem_, sizeof(T), on_error);
    }

    /// True for a buffer made by sub().
    bool is_sub_buffer() const noexcept { return static_cast<bool>(mem_.root); }

    /// The same memory seen as elements of U (a float buffer as float4, a cl_uint4 one as
    /// cl_uint), sharing the memory object and its mappings; the buffer's size in bytes must be
    /// a whole number of U (CL_INVALID_BUFFER_SIZE otherwise). The access stays the same.
    template <class U>
    [[nodiscard]] Buffer<U, Access> as(OnError on_error = {}) const {
        static_assert(
            std::is_trivially_copyable_v<U> && !std::is_const_v<U> && !std::is_volatile_v<U>,
            "Buffer::as<U>: U must be a trivially copyable, non-cv element type");
        return Buffer<U, Access>(
            detail::reinterpret(mem_, element, Buffer<U, Access>::element, on_error));
    }

    /// What the host may do with the memory (from CL_MEM_FLAGS).
    HostAccess host_access() const noexcept {
        const cl_mem_flags flags = mem_.flags;
        return (flags & CL_MEM_HOST_NO_ACCESS) != 0    ? HostAccess::none
               : (flags & CL_MEM_HOST_READ_ONLY) != 0  ? HostAccess::read_only
               : (flags & CL_MEM_HOST_WRITE_ONLY) != 0 ? HostAccess::write_only
                                                       : HostAccess::read_write;
    }

    // ---- blocking transfers --------------------------------------------------------------

    /// Blocking read of the whole buffer into `dst`, which must hold at least size() elements.
    /// Large reads into pageable memory of a discrete device are pipelined through pinned
    /// staging buffers (see QueueOptions::staging).
    void read(const Queue& queue, std::span<T> dst, const WaitList& wait = {},
              OnError on_error = {}) const {
        if (detail::check_destination(mem_, dst.size(), element, on_error)) {
            detail::transfer(mem_, Direction::read, queue, 0, size(), element, dst.data(), true,
                             wait, on_error);
        }
    }
    /// Blocking read of dst.size() elements starting at element `offset`.
    void read_at(const Queue& queue, std::size_t offset, std::span<T> dst,
                 const WaitList& wait = {}, OnError on_error = {}) const {
        detail::transfer(mem_, Direction::read, queue, offset, dst.size(), element, dst.data(),
                         true, wait, on_error);
    }
    /// Blocking read into pinned memory: straight at the DMA rate, no staging.
    void read(const Queue& queue, PinnedBuffer<T>& dst, const WaitList& wait = {},
              OnError on_error = {}) const {
        if (detail::check_destination(mem_, dst.size(), element, on_error)) {
            detail::transfer(mem_, Direction::read, queue, 0, size(), element, dst.data(), false,
                             wait, on_error);
        }
    }
    /// Blocking read from element `offset` into pinned memory (dst.size() elements).
    void read_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& dst,
                 const WaitList& wait = {}, OnError on_error = {}) const {
        detail::transfer(mem_, Direction::read, queue, offset, dst.size(), element, dst.data(),
                         false, wait, on_error);
    }

    /// Blocking write of `src` over the start of the buffer; src.size() must not exceed size().
    void write(const Queue& queue, std::span<const T> src, const WaitList& wait = {},
               OnError on_error = {}) const {
        write_at(queue, 0, src, wait, on_error);
    }
    /// Blocking write of `src` starting at element `offset`.
    void write_at(const Queue& queue, std::size_t offset, std::span<const T> src,
                  const WaitList& wait = {}, OnError on_error = {}) const {
        detail::transfer(mem_, Direction::write, queue, offset, src.size(), element,
                         const_cast<T*>(src.data()), true, wait, on_error);
    }
    /// Blocking write from pinned memory: straight at the DMA rate, no staging.
    void write(const Queue& queue, const PinnedBuffer<T>& src, const WaitList& wait = {},
               OnError on_error = {}) const {
        write_at(queue, 0, src, wait, on_error);
    }
    /// Blocking write of pinned memory starting at element `offset`.
    void write_at(const Queue& queue, std::size_t offset, const PinnedBuffer<T>& src,
                  const WaitList& wait = {}, OnError on_error = {}) const {
        detail::transfer(mem_, Direction::write, queue, offset, src.size(), element,
                         const_cast<T*>(src.data()), false, wait, on_error);
    }

    // ---- asynchronous transfers (pinned memory only) -------------------------------------

    /// Starts reading the start of the buffer into `dst` and returns at once. `dst` records the
    /// transfer: its destructor (or dst.wait()) waits for it, so the memory cannot be freed
    /// under the copy. Pageable memory is not accepted here: its lifetime is the caller's.
    [[nodiscard]] Event read_async(const Queue& queue, PinnedBuffer<T>& dst,
                                   const WaitList& wait = {}, OnError on_error = {}) const {
        return read_async_at(queue, 0, dst, wait, on_error);
    }
    /// As read_async, from element `offset` (dst.size() elements).
    [[nodiscard]] Event read_async_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& dst,
                                      const WaitList& wait = {}, OnError on_error = {}) const {
        return transfer_async(Direction::read, queue, offset, dst, wait, on_error);
    }
    /// Starts writing `src` over the start of the buffer and returns at once (see read_async).
    [[nodiscard]] Event write_async(const Queue& queue, PinnedBuffer<T>& src,
                                    const WaitList& wait = {}, OnError on_error = {}) const {
        return write_async_at(queue, 0, src, wait, on_error);
    }
    /// As write_async, starting at element `offset`.
    [[nodiscard]] Event write_async_at(const Queue& queue, std::size_t offset, PinnedBuffer<T>& src,
                                       const WaitList& wait = {}, OnError on_error = {}) const {
        return transfer_async(Direction::write, queue, offset, src, wait, on_error);
    }

    // ---- device-side copy and fill -------------------------------------------------------

    /// Enqueues a device-side copy of the whole buffer to the start of `dst` (ordered on the
    /// queue; no host memory is involved, so it need not block). dst must be at least as large.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst, const WaitList& wait = {},
                 OnError on_error = {}) const {
        copy_to(queue, dst, 0, 0, size(), wait, on_error);
    }
    /// Copies `count` elements from element `src_offset` to element `dst_offset` of `dst`.
    template <class DstAccess>
    void copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst, std::size_t src_offset,
                 std::size_t dst_offset, std::size_t count, const WaitList& wait = {},
                 OnError on_error = {}) const {
        detail::copy(mem_, dst.mem_, queue, src_offset, dst_offset, count, element, wait, nullptr,
                     on_error);
    }
    /// As the copy above (clEnqueueCopyBuffer), returning the command's Event.
    template <class DstAccess>
    [[nodiscard]] Event copy_to(const Queue& queue, const Buffer<T, DstAccess>& dst,
                                std::size_t src_offset, std::size_t dst_offset, std::size_t count,
                                WithEvent, const WaitList& wait = {}, OnError on_error = {}) const {
        cl_event raw = nullptr;
        detail::copy(mem_, dst.mem_, queue, src_offset, dst_offset, count, element, wait, &raw,
                     on_error);
        return Event::adopt(raw);
    }

    /// Enqueues setting every element to `value` (ordered on the queue; the pattern is copied at
    /// once, so it need not block).
    void fill(const Queue& queue, const T& value, const WaitList& wait = {},
              OnError on_error = {}) const {
        detail::fill(mem_, queue, &value, 0, size(), element, wait, nullptr, on_error);
    }
    /// Sets `count` elements from element `offset` to `value`.
    void fill(const Queue& queue, const T& value, std::size_t offset, std::size_t count,
              const WaitList& wait = {}, OnError on_error = {}) const {
        detail::fill(mem_, queue, &value, offset, count, element, wait, nullptr, on_error);
    }
    /// As the fill above (clEnqueueFillBuffer), returning the command's Event.
    [[nodiscard]] Event fill(const Queue& queue, const T& value, std::size_t offset,
                             std::size_t count, WithEvent, const WaitList& wait = {},
                             OnError on_error = {}) const {
        cl_event raw = nullptr;
        detail::fill(mem_, queue, &value, offset, count, element, wait, &raw, on_error);
        return Event::adopt(raw);
    }

    // ---- mapped views --------------------------------------------------------------------

    /// Maps the buffer for reading (blocking) and returns a view over const T that unmaps itself.
    [[nodiscard]] MappedSpan<const T> map_read(const Queue& queue, const WaitList& wait = {},
                                               OnError on_error = {}) const {
        return map_read(queue, 0, size(), wait, on_error);
    }
    /// Maps `count` elements from element `offset` for reading (clEnqueueMapBuffer, CL_MAP_READ;
    /// range checked).
    [[nodiscard]] MappedSpan<const T> map_read(const Queue& queue, std::size_t offset,
                                               std::size_t count, const WaitList& wait = {},
                                               OnError on_error = {}) const {
        return MappedSpan<const T>(
            detail::Mapping::map(mem_, queue, CL_MAP_READ, offset, count, element, wait, on_error));
    }
    /// Maps the buffer for writing (CL_MAP_WRITE): what the host does not overwrite keeps the
    /// buffer's contents. To overwrite every element, map_discard() saves the copy to the host.
    [[nodiscard]] MappedSpan<T> map_write(const Queue& queue, const WaitList& wait = {},
                                          OnError on_error = {}) const {
        return map_write(queue, 0, size(), wait, on_error);
    }
    /// Maps `count` elements from element `offset` for writing (CL_MAP_WRITE).
    [[nodiscard]] MappedSpan<T> map_write(const Queue& queue, std::size_t offset, std::size_t count,
                                          const WaitList& wait = {}, OnError on_error = {}) const {
        return MappedSpan<T>(detail::Mapping::map(mem_, queue, CL_MAP_WRITE, offset, count, element,
                                                  wait, on_error));
    }
    /// Maps the buffer for overwriting (CL_MAP_WRITE_INVALIDATE_REGION): the previous contents
    /// are not brought to the host, so the view starts undefined; write every element.
    [[nodiscard]] MappedSpan<T> map_discard(const Queue& queue, const WaitList& wait = {},
                                            OnError on_error = {}) const {
        return map_discard(queue, 0, size(), wait, on_error);
    }
    /// Maps `count` elements from element `offset` for overwriting.
    [[nodiscard]] MappedSpan<T> map_discard(const Queue& queue, std::size_t offset,
                                            std::size_t count, const WaitList& wait = {},
                                            OnError on_error = {}) const {
        return MappedSpan<T>(detail::Mapping::map(mem_, queue, CL_MAP_WRITE_INVALIDATE_REGION,
                                                  offset, count, element, wait, on_error));
    }
    /// Maps the buffer for reading and writing.
    [[nodiscard]] MappedSpan<T> map_read_write(const Queue& queue, const WaitList& wait = {},
                                               OnError on_error = {}) const {
        return map_read_write(queue, 0, size(), wait, on_error);
    }
    /// Maps `count` elements from element `offset` for reading and writing.
    [[nodiscard]] MappedSpan<T> map_read_write(const Queue& queue, std::size_t offset,
                                               std::size_t count, const WaitList& wait = {},
                                               OnError on_error = {}) const {
        return MappedSpan<T>(detail::Mapping::map(mem_, queue, CL_MAP_READ | CL_MAP_WRITE, offset,
                                                  count, element, wait, on_error));
    }

    /// Any clGetMemObjectInfo parameter, with its C++ type from openclaw's info table.
    template <cl_mem_info Param>
    detail::info_t<cl_mem, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_mem, Param>(on_error, get());
    }

    /// The raw cl_mem (not retained; null when empty).
    cl_mem get() const noexcept { return mem_.get(); }
    /// The raw context the buffer belongs to (not retained: the buffer keeps it alive).
    cl_context context_handle() const noexcept { return mem_.context; }
    /// True when the buffer holds a memory object.
    explicit operator bool() const noexcept { return static_cast<bool>(mem_.handle); }

  private:
    template <class U, class A>
    friend class Buffer;

    explicit Buffer(detail::MemObject mem) noexcept : mem_(std::move(mem)) {}

    template <class Pinned>
    Event transfer_async(Direction direction, const Queue& queue, std::size_t offset, Pinned& host,
                         const WaitList& wait, OnError on_error) const {
        Event event = Event::adopt(detail::transfer_async(
            mem_, direction, queue, offset, host.size(), element, host.data(), wait, on_error));
        if (event) {
            host.track(event);
        }
        return event;
    }

    detail::MemObject mem_;
};

OPENCLAW_END_NAMESPACE
