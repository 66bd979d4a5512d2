// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Buffer<T, Access>: device memory of `size()` elements of T (typed memory layer). Access says
// what KERNELS may do with it (it becomes CL_MEM_READ_ONLY, ...) and is checked by
// Kernel::set_args at compile time; the host may write a read-only buffer and read a write-only
// one. Sizes and offsets are in elements throughout. Also here: BufferSlice (a region of a
// buffer), HostTransfer, and the definitions of the queue's buffer commands (queue.read(buffer,
// dst), write, copy, fill, map_*). Everything forwards to the non-template memory core
// (detail/memory/memory.hpp) with the element's size, so an element type costs almost nothing to
// compile.

#include <openclaw/detail/memory/memory.hpp>
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

namespace detail {
struct BufferAccess;
}  // namespace detail

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
    static_assert(!std::is_pointer_v<T> && !std::is_member_pointer_v<T>,
                  "Buffer<T>: T must not be a pointer: a host address means nothing on the "
                  "device; pass buffers to the kernel as arguments, or use SVM (SvmAllocator) "
                  "for data that holds pointers");
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

    /// Device memory initialized with `data`, in the fastest way for `queue`'s device: on a
    /// discrete GPU an empty buffer and a (staged) write through `queue`, which returns once the
    /// data is on the device; on a CPU device or unified memory the driver's copy. Prefer it to
    /// the Context form, whose CL_MEM_COPY_HOST_PTR costs ~0.8 s per GiB on an H200, plus ~0.2 s
    /// at the first kernel that uses the buffer (bench/RESULTS.md, "end to end").
    Buffer(const Queue& queue, std::span<const T> data, BufferOptions options = {},
           OnError on_error = {})
        : mem_(detail::create_buffer_from(queue, data.size(), element,
                                          Access::flags | options.flags(), data.data(), on_error)) {
    }
    /// As Buffer(queue, span) with `options` defaulted.
    Buffer(const Queue& queue, std::span<const T> data, OnError on_error)
        : Buffer(queue, data, BufferOptions{}, on_error) {}

    /// Device memory initialized with `data`, which the buffer may keep: where the device
    /// shares host memory (CPU devices, unified memory) the buffer is made over the vector's
    /// own memory (CL_MEM_USE_HOST_PTR: no copy at all; the vector is freed with the buffer);
    /// elsewhere as Buffer(queue, span), and the vector is freed on return.
    Buffer(const Queue& queue, std::vector<T>&& data, BufferOptions options = {},
           OnError on_error = {})
        : mem_(take(queue, std::move(data), Access::flags | options.flags(), on_error)) {}
    /// As Buffer(queue, vector&&) with `options` defaulted.
    Buffer(const Queue& queue, std::vector<T>&& data, OnError on_error)
        : Buffer(queue, std::move(data), BufferOptions{}, on_error) {}

    /// A buffer over `host`'s own memory (CL_MEM_USE_HOST_PTR): no copy is made where the device
    /// can use host memory (CPU devices; elsewhere the driver caches it on the device). The
    /// buffer takes the vector, so the memory cannot be freed under it: it is released after the
    /// driver has destroyed the memory object. Read and write it through map_read / map_write
    /// (coherent at unmap), or transfers. `options.host_memory` is refused (CL_INVALID_VALUE):
    /// the driver cannot allocate memory the caller already provides.
    [[nodiscard]] static Buffer over(const Context& context, std::vector<T>&& host,
                                     BufferOptions options = {}, OnError on_error = {}) {
        const std::size_t count = host.size();
        return Buffer(detail::create_buffer_over(context, count, element,
                                                 Access::flags | options.flags(),
                                                 store_of(std::move(host)), on_error));
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

    /// `count` elements from element `offset`, as a region for the queue's commands
    /// (`queue.read(buffer.slice(8, 4), dst)`): a view, checked by the command that uses it.
    [[nodiscard]] BufferSlice<T, Access> slice(std::size_t offset,
                                               std::size_t count) const& noexcept {
        return BufferSlice<T, Access>(*this, offset, count);
    }
    /// The elements from element `offset` to the end (none if offset is past it).
    [[nodiscard]] BufferSlice<T, Access> slice(std::size_t offset) const& noexcept {
        return BufferSlice<T, Access>(*this, offset, offset < size() ? size() - offset : 0);
    }
    /// Refused at compile time: a slice of a temporary buffer would point into it after the
    /// statement that made it.
    template <class... Range>
    BufferSlice<T, Access> slice(Range...) const&& {
        static_assert(detail::dependent_false<Range...>,
                      "buffer.slice(): the buffer is a temporary, released when the statement "
                      "ends, and a slice is a view of it: keep the buffer in a variable");
        return static_cast<const Buffer&>(*this).slice(0, 0);
    }

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
    static detail::HostStore store_of(std::vector<T>&& host) {
        auto* owner = new std::vector<T>(std::move(host));
        return {owner->data(), owner, [](void* p) { delete static_cast<std::vector<T>*>(p); }};
    }
    static detail::MemObject take(const Queue& queue, std::vector<T>&& host, cl_mem_flags flags,
                                  OnError on_error) {
        const std::size_t count = host.size();
        return detail::create_buffer_taking(queue, count, element, flags, store_of(std::move(host)),
                                            on_error);
    }

    template <class U, class A>
    friend class Buffer;
    friend class BufferSlice<T, Access>;
    friend struct detail::BufferAccess;

    explicit Buffer(detail::MemObject mem) noexcept : mem_(std::move(mem)) {}

    detail::MemObject mem_;
};

namespace detail {
struct SliceAccess;

/// What side headers need of a Buffer beyond its public face: a typed buffer over a memory object
/// they made (a memory pool's buffers).
struct BufferAccess {
    template <class T, class A>
    static Buffer<T, A> make(MemObject mem) noexcept {
        return Buffer<T, A>(std::move(mem));
    }
    template <class T, class A>
    static const MemObject& mem(const Buffer<T, A>& buffer) noexcept {
        return buffer.mem_;
    }
};
}  // namespace detail

/// A region of a buffer: `size()` elements from element `offset()` (buffer.slice(offset, count)).
/// A view, as std::span is: it does not keep the buffer alive, so use it within the buffer's
/// lifetime (typically in the call it is made for); a slice of a temporary buffer does not
/// compile. The queue's buffer commands take a Buffer
/// or a BufferSlice; the range is checked by the command, which names itself in the error.
template <class T, class Access>
class BufferSlice {
  public:
    /// The element type.
    using value_type = T;
    /// The access tag of the buffer.
    using access_type = Access;

    /// The whole buffer.
    BufferSlice(const Buffer<T, Access>& buffer) noexcept  // NOLINT: a buffer is its own region
        : mem_(&buffer.mem_), offset_(0), count_(buffer.size()) {}
    /// `count` elements of `buffer` from element `offset`.
    BufferSlice(const Buffer<T, Access>& buffer, std::size_t offset, std::size_t count) noexcept
        : mem_(&buffer.mem_), offset_(offset), count_(count) {}

    /// The first element's index in the buffer.
    std::size_t offset() const noexcept { return offset_; }
    /// The number of elements.
    std::size_t size() const noexcept { return count_; }

  private:
    friend struct detail::SliceAccess;

    const detail::MemObject* mem_;
    std::size_t offset_;
    std::size_t count_;
};

namespace detail {

/// What the queue's commands read of a region.
struct SliceAccess {
    template <class T, class A>
    static const MemObject& mem(const BufferSlice<T, A>& slice) noexcept {
        return *slice.mem_;
    }
};

/// The region of a Buffer or BufferSlice.
template <class T, class A>
BufferSlice<T, A> region_of(const Buffer<T, A>& buffer) noexcept {
    return BufferSlice<T, A>(buffer);
}
template <class T, class A>
const BufferSlice<T, A>& region_of(const BufferSlice<T, A>& slice) noexcept {
    return slice;
}

/// The element description of a region's buffer.
template <class T, class A>
constexpr Element element_of(const BufferSlice<T, A>&) noexcept {
    return {sizeof(T), A::name};
}

/// Refuses a destination region smaller than the `count` elements copied into it, and regions
/// of empty buffers.
bool check_copy_fits(const MemObject& source, const MemObject& destination,
                     std::size_t source_count, std::size_t destination_count, OnError on_error);

/// Waits for `event` when a HostTransfer goes (failures to the error hook).
void wait_noexcept(const Event& event) noexcept;

/// Makes HostTransfers (what the queue's transfers that own a vector return).
struct HostTransferAccess {
    template <class T>
    static HostTransfer<T> make(std::vector<T> data, Event event) noexcept;
};

}  // namespace detail

/// A non-blocking transfer of ordinary host memory that owns that memory: the vector the
/// queue read into or wrote from. It cannot outlive the memory, because it holds it: its
/// destructor (or wait()) waits for the command, and get() waits and hands the vector back.
template <class T>
class [[nodiscard]] HostTransfer {
  public:
    /// No transfer.
    HostTransfer() = default;
    HostTransfer(const HostTransfer&) = delete;
    HostTransfer& operator=(const HostTransfer&) = delete;
    /// Moving keeps the memory where the command put it (a vector's move keeps its elements).
    HostTransfer(HostTransfer&& other) noexcept
        : data_(std::move(other.data_)),
          event_(std::move(other.event_)),
          waited_(std::exchange(other.waited_, false)) {}
    /// Waits for the transfer this one held, then takes `other`'s.
    HostTransfer& operator=(HostTransfer&& other) noexcept {
        if (this != &other) {
            if (!waited_) {
                detail::wait_noexcept(event_);
            }
            data_ = std::move(other.data_);
            event_ = std::move(other.event_);
            waited_ = std::exchange(other.waited_, false);
        }
        return *this;
    }
    /// Waits for the command unless wait() or get() did (a failure goes to the error hook: a
    /// failure wait() reported is not reported again).
    ~HostTransfer() {
        if (!waited_) {
            detail::wait_noexcept(event_);
        }
    }

    /// The command's event, for wait lists (empty if the command was refused).
    const Event& event() const noexcept { return event_; }
    /// Blocks until the command has completed, reporting a failure of the command (once: the
    /// destructor does not report it again).
    void wait(OnError on_error = {}) {
        if (event_ && !waited_) {
            waited_ = true;
            event_.wait(on_error);
        }
    }
    /// Waits, then hands the memory over (the elements read, or those written).
    [[nodiscard]] std::vector<T> get(OnError on_error = {}) && {
        wait(on_error);
        event_ = Event();
        return std::move(data_);
    }

  private:
    friend struct detail::HostTransferAccess;
    HostTransfer(std::vector<T> data, Event event) noexcept
        : data_(std::move(data)), event_(std::move(event)) {}

    std::vector<T> data_;
    Event event_;
    bool waited_ = false;  // wait() has waited (and reported a failure): the destructor need not
};

template <class T>
HostTransfer<T> detail::HostTransferAccess::make(std::vector<T> data, Event event) noexcept {
    return HostTransfer<T>(std::move(data), std::move(event));
}

// ---- the queue's buffer commands -------------------------------------------------------------

namespace detail {
// A region's host-memory transfer: pinned memory goes straight, pageable may be staged.
template <Direction direction, class T, class A, class Host>
void host_transfer(const Queue& queue, const BufferSlice<T, A>& region, Host&& host,
                   const WaitList& wait, cl_event* event, OnError on_error) {
    T* data = nullptr;
    std::size_t elements = 0;
    bool pageable = true;
    if constexpr (is_pinned<std::remove_cvref_t<Host>>) {
        data = const_cast<T*>(host.data());
        elements = host.size();
        pageable = false;
    } else if constexpr (direction == Direction::read) {
        const std::span<T> span(host);
        data = span.data();
        elements = span.size();
    } else {
        const std::span<const T> span(host);
        data = const_cast<T*>(span.data());
        elements = span.size();
    }
    if (check_transfer(SliceAccess::mem(region), direction, queue, region.offset(), region.size(),
                       elements, element_of(region), wait, on_error)) {
        transfer(SliceAccess::mem(region), direction, queue, region.offset(), region.size(),
                 element_of(region), data, pageable, wait, on_error, event);
    }
}

// A nonblocking transfer between a buffer region and a vector moved in, which the returned
// HostTransfer holds until the command is done (and hands back, also when the transfer was
// refused). No copy of the vector, no allocation.
template <Direction direction, class Region, class T>
HostTransfer<T> vector_transfer(const Queue& queue, const Region& region, std::vector<T> data,
                                const WaitList& wait, OnError on_error) {
    Event event;
    if (check_transfer(SliceAccess::mem(region), direction, queue, region.offset(), region.size(),
                       data.size(), element_of(region), wait, on_error)) {
        event = Event::adopt(transfer_async(SliceAccess::mem(region), direction, queue,
                                            region.offset(), region.size(), element_of(region),
                                            data.data(), wait, on_error));
    }
    return HostTransferAccess::make(std::move(data), std::move(event));
}

// A nonblocking transfer between a buffer region and pinned memory, which tracks the command
// so that it outlives it.
template <Direction direction, class Region, class T>
Event pinned_transfer(const Queue& queue, const Region& region, PinnedBuffer<T>& host,
                      const WaitList& wait, OnError on_error) {
    if (!check_transfer(SliceAccess::mem(region), direction, queue, region.offset(), region.size(),
                        host.size(), element_of(region), wait, on_error)) {
        return {};
    }
    Event event = Event::adopt(transfer_async(SliceAccess::mem(region), direction, queue,
                                              region.offset(), region.size(), element_of(region),
                                              host.data(), wait, on_error));
    if (event) {
        host.track(event);
    }
    return event;
}
}  // namespace detail

template <detail::BufferRegion Region, detail::HostMemory Host, detail::CommandOption... Options>
detail::ReadResult<Region, Host, Options...> Queue::read(const Region& src, Host&& dst,
                                                         Options&&... options) const {
    using T = typename Region::value_type;
    static_assert(detail::same_element<Host, T>,
                  "queue.read(region, dst): dst holds another element type than the buffer: "
                  "read into a vector, array, span or PinnedBuffer of the buffer's value_type "
                  "(or view the buffer as another type with buffer.as<U>())");
    constexpr bool moved = detail::moves_vector<Region, Host, Options...>;
    static_assert(!detail::same_element<Host, T> || detail::HostDestination<Host, T> || moved,
                  "queue.read(region, dst): dst is read-only (const) host memory: a read "
                  "writes into it");
    static_assert(
        !detail::asks_nonblocking<Options...> || detail::is_pinned<std::remove_cvref_t<Host>> ||
            moved,
        "queue.read(region, memory, nonblocking): memory the queue does not own "
        "could be freed under the command: pass a PinnedBuffer, or move a vector in "
        "(queue.read(region, std::move(v), nonblocking)) for a HostTransfer that hands it back");
    if constexpr (moved) {
        static_assert(!detail::asks_event<Options...>,
                      "queue.read(region, std::move(v), nonblocking): the HostTransfer holds "
                      "the command's Event (transfer.event()): with_event is not needed");
        const detail::CommandOptions o = detail::command_options(options...);
        return detail::vector_transfer<detail::Direction::read>(
            *this, detail::region_of(src), std::move(dst), *o.wait, o.on_error);
    } else if constexpr (detail::HostDestination<Host, T>) {
        const detail::CommandOptions o = detail::command_options(options...);
        if constexpr (detail::asks_nonblocking<Options...>) {
            if constexpr (detail::is_pinned<std::remove_cvref_t<Host>>) {
                return detail::pinned_transfer<detail::Direction::read>(
                    *this, detail::region_of(src), dst, *o.wait, o.on_error);
            } else {
                return Event{};
            }
        } else if constexpr (detail::asks_event<Options...>) {
            cl_event raw = nullptr;
            detail::host_transfer<detail::Direction::read>(*this, detail::region_of(src), dst,
                                                           *o.wait, &raw, o.on_error);
            return Event::adopt(raw);
        } else {
            detail::host_transfer<detail::Direction::read>(*this, detail::region_of(src), dst,
                                                           *o.wait, nullptr, o.on_error);
        }
    } else if constexpr (!std::is_void_v<detail::ReadResult<Region, Host, Options...>>) {
        return {};
    }
}

template <detail::BufferRegion Region, detail::CommandOption... Options>
HostTransfer<typename Region::value_type> Queue::read(const Region& src, Nonblocking,
                                                      Options&&... options) const {
    static_assert(!detail::asks_event<Options...>,
                  "queue.read(region, nonblocking): the HostTransfer holds the command's Event "
                  "(transfer.event()): with_event is not needed");
    using T = typename Region::value_type;
    const detail::CommandOptions o = detail::command_options(options...);
    const auto& region = detail::region_of(src);
    // Checked before the vector is allocated: a region past the buffer's end allocates nothing.
    if (!detail::check_transfer(detail::SliceAccess::mem(region), detail::Direction::read, *this,
                                region.offset(), region.size(), region.size(),
                                detail::element_of(region), *o.wait, o.on_error)) {
        return {};
    }
    std::vector<T> data(region.size());
    Event event = Event::adopt(detail::transfer_async(
        detail::SliceAccess::mem(region), detail::Direction::read, *this, region.offset(),
        region.size(), detail::element_of(region), data.data(), *o.wait, o.on_error));
    return detail::HostTransferAccess::make(std::move(data), std::move(event));
}

template <detail::BufferRegion Region, detail::HostMemory Host, detail::CommandOption... Options>
detail::WriteResult<Region, Host, Options...> Queue::write(const Region& dst, Host&& src,
                                                           Options&&... options) const {
    using T = typename Region::value_type;
    using Result = detail::WriteResult<Region, Host, Options...>;
    static_assert(detail::HostSource<Host, T>,
                  "queue.write(region, src): src holds another element type than the buffer: "
                  "write from a vector, array, span or PinnedBuffer of the buffer's "
                  "value_type (or view the buffer as another type with buffer.as<U>())");
    static_assert(!detail::asks_nonblocking<Options...> ||
                      detail::is_pinned<std::remove_cvref_t<Host>> ||
                      std::is_same_v<Host, std::vector<T>>,
                  "queue.write(region, memory, nonblocking): memory the queue does not own "
                  "could be freed under the command: pass a PinnedBuffer, or move a vector in "
                  "(queue.write(region, std::move(v), nonblocking)) for a HostTransfer");
    if constexpr (detail::HostSource<Host, T>) {
        const detail::CommandOptions o = detail::command_options(options...);
        const auto& region = detail::region_of(dst);
        if constexpr (detail::moves_vector<Region, Host, Options...>) {
            static_assert(!detail::asks_event<Options...>,
                          "queue.write(region, std::move(v), nonblocking): the HostTransfer "
                          "holds the command's Event (transfer.event()): with_event is not "
                          "needed");
            return detail::vector_transfer<detail::Direction::write>(*this, region, std::move(src),
                                                                     *o.wait, o.on_error);
        } else if constexpr (detail::asks_nonblocking<Options...>) {
            if constexpr (detail::is_pinned<std::remove_cvref_t<Host>>) {
                return detail::pinned_transfer<detail::Direction::write>(*this, region, src,
                                                                         *o.wait, o.on_error);
            } else {
                return Event{};
            }
        } else if constexpr (detail::asks_event<Options...>) {
            cl_event raw = nullptr;
            detail::host_transfer<detail::Direction::write>(*this, region, src, *o.wait, &raw,
                                                            o.on_error);
            return Event::adopt(raw);
        } else {
            detail::host_transfer<detail::Direction::write>(*this, region, src, *o.wait, nullptr,
                                                            o.on_error);
        }
    } else if constexpr (!std::is_void_v<Result>) {
        return Result{};
    }
}

namespace detail {
template <class T, class A, class U, class B>
void copy_regions(const Queue& queue, const BufferSlice<T, A>& source,
                  const BufferSlice<U, B>& destination, const WaitList& wait, cl_event* event,
                  OnError on_error) {
    static_assert(std::is_same_v<T, U>,
                  "queue.copy: the source and destination regions must have the same element "
                  "type (view one as the other's type with buffer.as<U>())");
    if (check_copy_fits(SliceAccess::mem(source), SliceAccess::mem(destination), source.size(),
                        destination.size(), on_error)) {
        copy(SliceAccess::mem(source), SliceAccess::mem(destination), queue, source.offset(),
             destination.offset(), source.size(), element_of(source), wait, event, on_error);
    }
}
}  // namespace detail

template <detail::BufferRegion Source, detail::BufferRegion Destination,
          detail::CommandOption... Options>
detail::EventIfAsked<Options...> Queue::copy(const Source& src, const Destination& dst,
                                             Options&&... options) const {
    static_assert(!detail::asks_nonblocking<Options...>,
                  "queue.copy: a copy between buffers never blocks (nonblocking is for "
                  "transfers of host memory)");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::copy_regions(*this, detail::region_of(src), detail::region_of(dst), wait,
                                     event, on_error);
            },
            options...);
    }
}

template <detail::BufferRegion Region, detail::CommandOption... Options>
detail::EventIfAsked<Options...> Queue::fill(const Region& dst,
                                             const typename Region::value_type& value,
                                             Options&&... options) const {
    static_assert(!detail::asks_nonblocking<Options...>,
                  "queue.fill: a fill never blocks (nonblocking is for transfers of host memory)");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        const auto& region = detail::region_of(dst);
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::fill(detail::SliceAccess::mem(region), *this, &value, region.offset(),
                             region.size(), detail::element_of(region), wait, event, on_error);
            },
            options...);
    }
}

namespace detail {
template <class T, class A>
Mapping map_region(const Queue& queue, const BufferSlice<T, A>& region, cl_map_flags flags,
                   const WaitList& wait, OnError on_error, cl_event* event = nullptr) {
    return Mapping::map(SliceAccess::mem(region), queue, flags, region.offset(), region.size(),
                        element_of(region), wait, on_error, event);
}
}  // namespace detail

namespace detail {
// A map of a region with its options: the view, and its Event when asked for.
template <class View, class Region, class... Options>
MapResult<View, Options...> map_with(const Queue& queue, const Region& region, cl_map_flags flags,
                                     Options&... options) {
    static_assert(!asks_nonblocking<Options...>,
                  "queue.map_*: a map blocks until the view is ready (take its Event with "
                  "with_event)");
    const CommandOptions o = command_options(options...);
    if constexpr (asks_event<Options...>) {
        cl_event raw = nullptr;
        MappedSpan<View> view(
            map_region(queue, region_of(region), flags, *o.wait, o.on_error, &raw));
        return {std::move(view), Event::adopt(raw)};
    } else {
        return MappedSpan<View>(map_region(queue, region_of(region), flags, *o.wait, o.on_error));
    }
}
}  // namespace detail

template <detail::BufferRegion Region, detail::CommandOption... Options>
detail::MapResult<const typename Region::value_type, Options...> Queue::map_read(
    const Region& region, Options&&... options) const {
    return detail::map_with<const typename Region::value_type>(*this, region, CL_MAP_READ,
                                                               options...);
}

template <detail::BufferRegion Region, detail::CommandOption... Options>
detail::MapResult<typename Region::value_type, Options...> Queue::map_write(
    const Region& region, Options&&... options) const {
    return detail::map_with<typename Region::value_type>(*this, region, CL_MAP_WRITE, options...);
}

template <detail::BufferRegion Region, detail::CommandOption... Options>
detail::MapResult<typename Region::value_type, Options...> Queue::map_discard(
    const Region& region, Options&&... options) const {
    return detail::map_with<typename Region::value_type>(
        *this, region, CL_MAP_WRITE_INVALIDATE_REGION, options...);
}

template <detail::BufferRegion Region, detail::CommandOption... Options>
detail::MapResult<typename Region::value_type, Options...> Queue::map_read_write(
    const Region& region, Options&&... options) const {
    return detail::map_with<typename Region::value_type>(*this, region, CL_MAP_READ | CL_MAP_WRITE,
                                                         options...);
}

namespace detail {
template <Direction direction, class T, class A, class Host>
void host_transfer_rect(const Queue& queue, const Buffer<T, A>& buffer, const Rect& rect,
                        Host&& host, const WaitList& wait, cl_event* event, OnError on_error) {
    T* data = nullptr;
    std::size_t elements = 0;
    if constexpr (direction == Direction::read) {
        const std::span<T> span(host);
        data = span.data();
        elements = span.size();
    } else {
        const std::span<const T> span(host);
        data = const_cast<T*>(span.data());
        elements = span.size();
    }
    const BufferSlice<T, A> whole(buffer);
    transfer_rect(SliceAccess::mem(whole), direction, queue, rect, element_of(whole), data,
                  elements, wait, event, on_error);
}
}  // namespace detail

template <class T, class A, class Host, detail::CommandOption... Options>
requires detail::HostDestination<Host, T> detail::EventIfAsked<Options...> Queue::read(
    const Buffer<T, A>& src, const Rect& rect, Host&& dst, Options&&... options)
const {
    static_assert(!detail::asks_nonblocking<Options...>,
                  "queue.read(buffer, rect, dst): a rectangular read blocks");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::host_transfer_rect<detail::Direction::read>(*this, src, rect, dst, wait,
                                                                    event, on_error);
            },
            options...);
    }
}

template <class T, class A, class Host, detail::CommandOption... Options>
requires detail::HostSource<Host, T> detail::EventIfAsked<Options...> Queue::write(
    const Buffer<T, A>& dst, const Rect& rect, Host&& src, Options&&... options)
const {
    static_assert(!detail::asks_nonblocking<Options...>,
                  "queue.write(buffer, rect, src): a rectangular write blocks");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::host_transfer_rect<detail::Direction::write>(*this, dst, rect, src, wait,
                                                                     event, on_error);
            },
            options...);
    }
}

template <class T, class A, class B, std::same_as<Rect> R, detail::CommandOption... Options>
detail::EventIfAsked<Options...> Queue::copy(const Buffer<T, A>& src, const Buffer<T, B>& dst,
                                             const R& rect, Options&&... options) const {
    static_assert(!detail::asks_nonblocking<Options...>,
                  "queue.copy: a copy between buffers never blocks");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        const BufferSlice<T, A> from(src);
        const BufferSlice<T, B> to(dst);
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::copy_rect(detail::SliceAccess::mem(from), detail::SliceAccess::mem(to),
                                  *this, rect, detail::element_of(from), wait, event, on_error);
            },
            options...);
    }
}

template <detail::MemoryObject Memory, detail::CommandOption... Options>
detail::EventIfAsked<Options...> Queue::migrate(const Memory& memory, const MigrateOptions& how,
                                                Options&&... options) const {
    static_assert(!detail::asks_nonblocking<Options...>, "queue.migrate: a migration never blocks");
    if constexpr (!detail::asks_nonblocking<Options...>) {
        return detail::run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                detail::migrate(memory.get(), memory.context_handle(), *this, how, wait, event,
                                on_error);
            },
            options...);
    }
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/buffer.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
