// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The memory core: everything a buffer does, written once for bytes (no templates). Creation,
// adoption, sub-buffers and their alignment, blocking and asynchronous transfers (large pageable
// ones staged through pinned memory), copies, fills, mappings, the range and context checks and
// their messages. Buffer<T, Access> and the image types are thin typed wrappers that pass their
// element size and access name, so an extra element type costs almost nothing to compile.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/checked.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/detail/base/map_registry.hpp>
#include <openclaw/detail/objects/commands.hpp>
#include <openclaw/event.hpp>
#include <openclaw/queue.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

OPENCLAW_BEGIN_NAMESPACE

/// One side of a rectangular transfer or copy: where the box starts in an array laid out in rows
/// and slices, in elements. `origin` is {element in the row, row, slice}; rows are `row_pitch`
/// elements apart and slices `slice_pitch` elements apart (0: packed, i.e. the box's row length
/// and rows times the row pitch).
struct RectSide {
    /// {element in the row, row, slice} of the box's first element.
    std::array<std::size_t, 3> origin{0, 0, 0};
    /// Elements from one row to the next (0: the box's row length).
    std::size_t row_pitch = 0;
    /// Elements from one slice to the next (0: row_pitch times the box's rows).
    std::size_t slice_pitch = 0;
};

/// A rectangular region moved between two arrays of rows and slices
/// (clEnqueue{Read,Write,Copy}BufferRect, in elements): `extent` is {elements per row, rows,
/// slices}; `source` and `destination` place it in each array. For a read the source is the
/// buffer and the destination host memory; for a write the other way round; for a copy both are
/// buffers. Every pitch and footprint is checked, overflow included, before the driver.
struct Rect {
    /// Where the box is in the array read from.
    RectSide source{};
    /// Where the box goes in the array written to.
    RectSide destination{};
    /// {elements per row, rows, slices}; each at least 1 (a 2-D box has 1 slice).
    std::array<std::size_t, 3> extent{1, 1, 1};
};

namespace detail {

/// What messages say about a typed memory object: its element size and kernel access.
struct Element {
    std::size_t size = 1;
    const char* access = "";
};

/// A memory object: its handle, the root buffer a sub-buffer keeps alive, its context (not
/// retained: the object keeps it alive) and its size in bytes. Moved-from objects are empty in
/// every respect, so openclaw's checks refuse them before a driver sees a null handle.
struct MemObject {
    Handle<cl_mem> handle;
    Handle<cl_mem> root;  // a sub-buffer's root buffer, kept alive
    ResetOnMove<cl_context> context;
    ResetOnMove<std::size_t> bytes;
    ResetOnMove<cl_mem_flags> flags;  // CL_MEM_FLAGS: what the host-access checks read
    ResetOnMove<bool> external;       // made by import_buffer (external.hpp): acquired, released
    // A pooled buffer's claim on its memory (pool.hpp): the pool takes the memory back when the
    // last copy of the buffer goes. Empty for every other buffer.
    std::shared_ptr<void> lease;

    MemObject() = default;
    MemObject(const MemObject&) = default;
    MemObject(MemObject&&) noexcept = default;
    MemObject& operator=(const MemObject&) = default;
    MemObject& operator=(MemObject&&) noexcept = default;
    // Out of line: the typed wrappers of every element type share this one release path.
    ~MemObject();

    cl_mem get() const noexcept { return handle.get(); }
};

/// Direction of a host transfer.
enum class Direction : unsigned char { read, write };

/// The CL_MEM_HOST_* flags, which a sub-buffer inherits from its parent.
inline constexpr cl_mem_flags host_access_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/// Refuses a host read (`reads`) or write of a buffer whose CL_MEM_HOST_* flags forbid it, before
/// the driver (or the staging pipeline, whose device-side copies the flags do not govern).
bool check_host_access(const MemObject& buffer, bool reads, const char* call, OnError on_error);

/// Host memory a buffer made with CL_MEM_USE_HOST_PTR owns: `release(owner)` frees it once the
/// driver has destroyed the memory object (clSetMemObjectDestructorCallback).
struct HostStore {
    void* data = nullptr;
    void* owner = nullptr;
    void (*release)(void* owner) = nullptr;
};

/// clCreateBuffer of `count` elements with `flags` (and, when `init` is given, a copy of it).
MemObject create_buffer(const Context& context, std::size_t count, Element element,
                        cl_mem_flags flags, const void* init, OnError on_error);
/// clCreateBuffer with CL_MEM_USE_HOST_PTR over `store` (count elements), which the memory object
/// then owns; `store` is released here if the buffer cannot be made.
MemObject create_buffer_over(const Context& context, std::size_t count, Element element,
                             cl_mem_flags flags, HostStore store, OnError on_error);
/// `count` elements initialized with `data` in the fastest way for `queue`'s device: where
/// the queue stages pageable transfers (a discrete GPU), an empty buffer and a staged write
/// through `queue` (never CL_MEM_COPY_HOST_PTR, which costs ~0.8 s per GiB there and more at
/// first use); elsewhere (CPU devices, unified memory) the driver's copy.
MemObject create_buffer_from(const Queue& queue, std::size_t count, Element element,
                             cl_mem_flags flags, const void* data, OnError on_error);
/// As create_buffer_from() for memory the buffer may keep (`store`): where the device shares
/// host memory, a buffer over it (CL_MEM_USE_HOST_PTR, no copy); elsewhere a staged write, after
/// which `store` is released.
MemObject create_buffer_taking(const Queue& queue, std::size_t count, Element element,
                               cl_mem_flags flags, HostStore store, OnError on_error);
/// The same memory object seen as elements of `to.size` bytes (its size must divide).
MemObject reinterpret(const MemObject& buffer, Element from, Element to, OnError on_error);
/// A buffer of a raw handle (adopted or retained by the caller): its root, context and size,
/// which must be a whole number of elements.
MemObject describe_buffer(Handle<cl_mem> handle, Element element, OnError on_error);
/// `count` elements from element `offset` of `parent`, cut from its root.
MemObject sub_buffer(const MemObject& parent, std::size_t offset, std::size_t count,
                     Element element, cl_mem_flags flags, OnError on_error);
/// The step, in elements, that sub-buffer offsets of `buffer` must be a multiple of.
std::size_t sub_alignment(const MemObject& buffer, std::size_t element_size, OnError on_error);

/// Every check of a transfer of `count` elements at element `offset` of `buffer` from or to
/// host memory of `host_elements` elements, made before anything is allocated or enqueued: the
/// buffer not empty, the region inside it, the host memory exactly the region's size (a part is
/// named: a slice, or a part of the host span), the queue's context, the buffer's host access,
/// the wait list, no conflicting mapping. The one check of every buffer transfer.
bool check_transfer(const MemObject& buffer, Direction direction, const Queue& queue,
                    std::size_t offset, std::size_t count, std::size_t host_elements,
                    Element element, const WaitList& wait, OnError on_error);
/// Blocking transfer of `count` elements at element `offset` to or from `host` (checked by
/// check_transfer first); `pageable` host memory may go through the queue's staging buffers,
/// unless `event` asks for the command's event (the transfer is then one command, whose event
/// it is).
void transfer(const MemObject& buffer, Direction direction, const Queue& queue, std::size_t offset,
              std::size_t count, Element element, void* host, bool pageable, const WaitList& wait,
              OnError on_error, cl_event* event = nullptr);
/// Non-blocking transfer (checked by check_transfer first) from or to host memory that outlives
/// it (pinned, or held by a HostTransfer); the command's event (null after a failure, or a
/// marker's when there is nothing to move).
cl_event transfer_async(const MemObject& buffer, Direction direction, const Queue& queue,
                        std::size_t offset, std::size_t count, Element element, void* host,
                        const WaitList& wait, OnError on_error);
/// Blocking rectangular read or write between `buffer` and `host` (`host_elements` long).
void transfer_rect(const MemObject& buffer, Direction direction, const Queue& queue,
                   const Rect& rect, Element element, void* host, std::size_t host_elements,
                   const WaitList& wait, cl_event* event, OnError on_error);
/// clEnqueueCopyBufferRect of `rect` from `source` to `destination`.
void copy_rect(const MemObject& source, const MemObject& destination, const Queue& queue,
               const Rect& rect, Element element, const WaitList& wait, cl_event* event,
               OnError on_error);
/// clEnqueueMigrateMemObjects of one memory object of `context`.
void migrate(cl_mem memory, cl_context context, const Queue& queue, MigrateOptions options,
             const WaitList& wait, cl_event* event, OnError on_error);

/// The checks of copy() before the driver, under the name `call` (a command graph records with
/// them): both ranges, the queue, the buffers' contexts.
bool check_copy(const MemObject& source, const MemObject& destination, const Queue& queue,
                std::size_t source_offset, std::size_t destination_offset, std::size_t count,
                Element element, const char* call, OnError on_error);
/// The checks of fill() before the driver, under the name `call`: the range and the queue.
bool check_fill(const MemObject& buffer, const Queue& queue, std::size_t offset, std::size_t count,
                Element element, const char* call, OnError on_error);

/// clEnqueueCopyBuffer of `count` elements.
void copy(const MemObject& source, const MemObject& destination, const Queue& queue,
          std::size_t source_offset, std::size_t destination_offset, std::size_t count,
          Element element, const WaitList& wait, cl_event* event, OnError on_error);
/// Sets `count` elements from element `offset` to the `element.size` bytes at `pattern`.
void fill(const MemObject& buffer, const Queue& queue, const void* pattern, std::size_t offset,
          std::size_t count, Element element, const WaitList& wait, cl_event* event,
          OnError on_error);

/// A live mapping of a memory object: its handles (kept alive), the host pointer, its size and
/// its ticket in map_registry. Unmaps when destroyed (failures to the error hook) or by unmap().
class Mapping {
  public:
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping(Mapping&& other) noexcept
        : mem_(std::move(other.mem_)),
          queue_(std::move(other.queue_)),
          data_(std::exchange(other.data_, nullptr)),
          bytes_(std::exchange(other.bytes_, 0)),
          ticket_(std::exchange(other.ticket_, 0)) {}
    Mapping& operator=(Mapping&& other) noexcept {
        if (this != &other) {
            unmap_noexcept();
            mem_ = std::move(other.mem_);
            queue_ = std::move(other.queue_);
            data_ = std::exchange(other.data_, nullptr);
            bytes_ = std::exchange(other.bytes_, 0);
            ticket_ = std::exchange(other.ticket_, 0);
        }
        return *this;
    }
    ~Mapping() { unmap_noexcept(); }

    /// Maps `count` elements at element `offset` of `buffer` (blocking) and registers it;
    /// `event`, if given, receives the map command's event.
    static Mapping map(const MemObject& buffer, const Queue& queue, cl_map_flags flags,
                       std::size_t offset, std::size_t count, Element element, const WaitList& wait,
                       OnError on_error, cl_event* event = nullptr);
    /// Takes charge of a mapping made elsewhere (clEnqueueMapImage): `bytes` at `data` of `mem`,
    /// registered as `ticket`.
    static Mapping adopt(cl_command_queue queue, cl_mem mem, void* data, std::size_t bytes,
                         std::uint64_t ticket);

    /// Unmaps now, reporting a failure to `on_error`; empty afterwards. With `event`, the unmap
    /// command's event goes there (null when nothing was mapped or the unmap failed).
    void unmap(OnError on_error, cl_event* event = nullptr);

    void* data() const noexcept { return data_; }
    std::size_t bytes() const noexcept { return bytes_; }

  private:
    cl_int release(cl_event* event = nullptr) noexcept;
    void unmap_noexcept() noexcept;

    Handle<cl_mem> mem_;
    Handle<cl_command_queue> queue_;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
    std::uint64_t ticket_ = 0;
};

/// Refuses an empty queue, an empty buffer, or a queue of another context than the buffer's (a
/// queue of another context, or platform, can crash the driver that receives the buffer).
bool check_queue(const MemObject& buffer, const Queue& queue, const char* call, const char* what,
                 OnError on_error);
/// Refuses (offset, count) outside a buffer of `size` elements, naming the call and the numbers.
bool check_range(const char* call, const char* what, std::size_t offset, std::size_t count,
                 std::size_t size, OnError on_error);
/// Drivers refuse zero-sized commands; an empty range is a no-op, with a marker when the caller
/// wants an event to wait on.
void nothing_to_do(const Queue& queue, const WaitList& wait, cl_event* event, OnError on_error);

}  // namespace detail
OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/memory/memory.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
