// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/memory/memory.hpp>: compiled once into the
// openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/memory/memory.hpp>
#include <openclaw/detail/memory/staging.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

// The core's entry points are [[gnu::noinline]]: header-only, the optimizer would otherwise copy
// their bodies into the typed wrappers that call them, once per element type and access.
[[gnu::noinline]] OPENCLAW_INLINE MemObject::~MemObject() {}  // the members release

namespace memory {

inline std::string describe(const MemObject& buffer, std::size_t offset, std::size_t count,
                            Element element) {
    return concat(count, " elements at offset ", offset, " of a buffer of ",
                  buffer.bytes / element.size, " (", element.size, "-byte elements)");
}

// The largest base-address alignment of the context's devices, in bytes, and its device.
inline std::pair<std::size_t, Device> strictest_alignment(cl_context context, OnError on_error) {
    std::pair<std::size_t, Device> strictest{1, Device{}};
    Relay step(on_error);
    for (cl_device_id id : get_info<cl_context, CL_CONTEXT_DEVICES>(step, context)) {
        Device device = Device::retain(id, step);
        const std::size_t bytes = device.mem_base_addr_align(step);
        if (bytes > strictest.first) {
            strictest = {bytes, std::move(device)};
        }
    }
    if (step.failed()) {
        return {0, Device{}};
    }
    return strictest;
}

inline std::size_t gcd(std::size_t a, std::size_t b) noexcept {
    while (b != 0) {
        a = std::exchange(b, a % b);
    }
    return a;
}

}  // namespace memory

OPENCLAW_INLINE bool check_range(const char* call, const char* what, std::size_t offset,
                                 std::size_t count, std::size_t size, OnError on_error) {
    if (!range_fits(offset, count, size)) [[unlikely]] {
        fail(on_error, CL_INVALID_VALUE, call,
             concat(what, " [", offset, ", ", offset, " + ", count,
                    ") is out of range: the buffer holds ", size, " elements"));
        return false;
    }
    return true;
}

OPENCLAW_INLINE bool check_queue(const MemObject& buffer, const Queue& queue, const char* call,
                                 const char* what, OnError on_error) {
    if (queue.context_handle() != buffer.context) [[unlikely]] {
        if (!queue) {
            refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        } else if (buffer.context == nullptr) {
            refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, what);
        } else {
            fail(on_error, CL_INVALID_CONTEXT, call,
                 concat("the queue and the ", what, " belong to different contexts"));
        }
        return false;
    }
    return true;
}

OPENCLAW_INLINE void nothing_to_do(const Queue& queue, const WaitList& wait, cl_event* event,
                                   OnError on_error) {
    if (event != nullptr) {
        (void)check(
            enqueued(clEnqueueMarkerWithWaitList(queue.get(), wait.size(), wait.data(), event),
                     event),
            "clEnqueueMarkerWithWaitList", on_error);
    }
}

namespace memory {
// For a buffer the driver found too large: the largest allocation the context's devices allow.
[[gnu::cold]] inline std::string largest_allocation(cl_context context) {
    return describe_safely([&](OnError quiet) {
        std::size_t size = 0;
        cl_device_id devices[16] = {};
        if (clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devices, devices, &size) !=
            CL_SUCCESS) {
            return std::string();
        }
        std::string text;
        for (std::size_t i = 0; i < size / sizeof(cl_device_id); ++i) {
            const cl_ulong most =
                get_info<cl_device_id, CL_DEVICE_MAX_MEM_ALLOC_SIZE>(quiet, devices[i]);
            text += concat(text.empty() ? "; the largest allocation " : ", ", "device ", i,
                           " allows is ", most, " bytes");
        }
        return text.empty() ? text : text + " (CL_DEVICE_MAX_MEM_ALLOC_SIZE)";
    });
}

// clCreateBuffer of `count` elements with `flags` over `host` (copied or used, as the flags
// say), the count, its byte size and the context checked first; `over` words the messages
// of a buffer over host memory. Empty (after reporting why) when refused or failed.
inline MemObject create(cl_context context, std::size_t count, Element element, cl_mem_flags flags,
                        void* host, bool over, OnError on_error) {
    std::size_t bytes = 0;
    if (count == 0 || !checked_mul(count, element.size, bytes)) {
        fail(on_error, CL_INVALID_BUFFER_SIZE, "clCreateBuffer",
             concat("count ", count, " elements of ", element.size,
                    count != 0 ? " bytes overflows size_t"
                    : over     ? " bytes: a buffer over host memory needs at least one element"
                               : " bytes: a buffer needs at least one element"));
        return {};
    }
    if (context == nullptr) {
        refuse_empty(on_error, CL_INVALID_CONTEXT, "clCreateBuffer", "context");
        return {};
    }
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateBuffer(context, flags, bytes, host, &code);
    raw = created_or_null(raw, code);
    if (!check(code, "clCreateBuffer", on_error, [&] {
            return concat(count, " elements (", bytes, " bytes), ",
                          over ? "over host memory (CL_MEM_USE_HOST_PTR), " : "", element.access,
                          code == CL_INVALID_BUFFER_SIZE ? largest_allocation(context) : "");
        })) {
        return {};
    }
    MemObject buffer;
    buffer.handle = Handle<cl_mem>::adopt(raw);
    buffer.context = context;
    buffer.bytes = bytes;
    buffer.flags = flags;
    return buffer;
}

inline void CL_CALLBACK release_host_store(cl_mem, void* user_data) {
    auto* store = static_cast<HostStore*>(user_data);
    store->release(store->owner);
    delete store;
}
}  // namespace memory

[[gnu::noinline]] OPENCLAW_INLINE MemObject create_buffer(const Context& context, std::size_t count,
                                                          Element element, cl_mem_flags flags,
                                                          const void* init, OnError on_error) {
    const ReportScope reports_about(context.get());
    // CL_MEM_COPY_HOST_PTR only reads host_ptr; the C API merely lacks the const.
    return memory::create(context.get(), count, element,
                          init != nullptr ? flags | CL_MEM_COPY_HOST_PTR : flags,
                          const_cast<void*>(init), false, on_error);
}

namespace memory {
inline MemObject create_over(cl_context context, std::size_t count, Element element,
                             cl_mem_flags flags, HostStore store, OnError on_error);
}  // namespace memory

[[gnu::noinline]] OPENCLAW_INLINE MemObject create_buffer_over(const Context& context,
                                                               std::size_t count, Element element,
                                                               cl_mem_flags flags, HostStore store,
                                                               OnError on_error) {
    const ReportScope reports_about(context.get());
    return memory::create_over(context.get(), count, element, flags, store, on_error);
}

namespace memory {
// True when pageable transfers through `queue` are staged (a discrete GPU): initial contents
// are then written, not copied in by the driver.
inline bool stages(const Queue& queue) noexcept {
    const QueueState* state = QueueAccess::state(queue);
    return state != nullptr && state->stage_pageable;
}
}  // namespace memory

[[gnu::noinline]] OPENCLAW_INLINE MemObject create_buffer_from(const Queue& queue,
                                                               std::size_t count, Element element,
                                                               cl_mem_flags flags, const void* data,
                                                               OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, "clCreateBuffer", "queue");
        return {};
    }
    // A host-inaccessible buffer can only get its contents from the driver's copy.
    const bool writable = (flags & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY)) == 0;
    if (!memory::stages(queue) || !writable || data == nullptr) {
        return memory::create(queue.context_handle(), count, element,
                              data != nullptr ? flags | CL_MEM_COPY_HOST_PTR : flags,
                              const_cast<void*>(data), false, on_error);
    }
    MemObject buffer =
        memory::create(queue.context_handle(), count, element, flags, nullptr, false, on_error);
    if (!buffer.get()) {
        return buffer;
    }
    Relay step(on_error);
    transfer(buffer, Direction::write, queue, 0, count, element, const_cast<void*>(data), true,
             WaitList{}, step, nullptr);
    if (step.failed()) {
        return {};
    }
    return buffer;
}

[[gnu::noinline]] OPENCLAW_INLINE MemObject create_buffer_taking(const Queue& queue,
                                                                 std::size_t count, Element element,
                                                                 cl_mem_flags flags,
                                                                 HostStore store,
                                                                 OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    if (queue && !memory::stages(queue) && (flags & CL_MEM_ALLOC_HOST_PTR) == 0) {
        return memory::create_over(queue.context_handle(), count, element, flags, store, on_error);
    }
    // Written (or refused, which may throw): the memory is not needed afterwards either way.
    struct Release {
        HostStore& store;
        ~Release() { store.release(store.owner); }
    } release{store};
    return create_buffer_from(queue, count, element, flags, store.data, on_error);
}

inline MemObject memory::create_over(cl_context context, std::size_t count, Element element,
                                     cl_mem_flags flags, HostStore store, OnError on_error) {
    // Owned from here on: every path below either hands it to the memory object or frees it.
    struct Guard {
        HostStore* store;
        ~Guard() {
            if (store != nullptr) {
                store->release(store->owner);
                delete store;
            }
        }
    } guard{new HostStore(store)};
    if ((flags & CL_MEM_ALLOC_HOST_PTR) != 0) {
        fail(on_error, CL_INVALID_VALUE, "Buffer::over",
             "options.host_memory (CL_MEM_ALLOC_HOST_PTR) asks for memory the driver allocates; "
             "a buffer over the caller's memory (CL_MEM_USE_HOST_PTR) excludes it");
        return {};
    }
    MemObject buffer = memory::create(context, count, element, flags | CL_MEM_USE_HOST_PTR,
                                      store.data, true, on_error);
    if (!buffer.get()) {
        return buffer;
    }
    const cl_int code =
        clSetMemObjectDestructorCallback(buffer.get(), memory::release_host_store, guard.store);
    if (!check(code, "clSetMemObjectDestructorCallback", on_error,
               [] { return "the callback that frees the host memory of a buffer over it"; })) {
        // No command has used the memory object: it goes before its host memory does.
        return {};
    }
    guard.store = nullptr;  // the memory object's destructor callback frees it now
    return buffer;
}

[[gnu::noinline]] OPENCLAW_INLINE MemObject reinterpret(const MemObject& buffer, Element from,
                                                        Element to, OnError on_error) {
    if (!buffer.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, "Buffer::as", "buffer");
        return {};
    }
    const std::size_t bytes = buffer.bytes;
    if (bytes % to.size != 0) {
        fail(on_error, CL_INVALID_BUFFER_SIZE, "Buffer::as",
             concat("a buffer of ", bytes / from.size, " ", from.size, "-byte elements (", bytes,
                    " bytes) is not a whole number of ", to.size, "-byte elements"));
        return {};
    }
    return buffer;  // shares (retains) the memory object
}

OPENCLAW_INLINE bool check_host_access(const MemObject& buffer, bool reads, const char* call,
                                       OnError on_error) {
    const cl_mem_flags forbidding =
        buffer.flags & (reads ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                              : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    if (forbidding != 0) [[unlikely]] {
        fail(on_error, CL_INVALID_OPERATION, call,
             concat("the buffer was made with ",
                    (forbidding & CL_MEM_HOST_NO_ACCESS) != 0 ? "CL_MEM_HOST_NO_ACCESS"
                    : reads                                   ? "CL_MEM_HOST_WRITE_ONLY"
                                                              : "CL_MEM_HOST_READ_ONLY",
                    " (HostAccess::",
                    (forbidding & CL_MEM_HOST_NO_ACCESS) != 0 ? "none"
                    : reads                                   ? "write_only"
                                                              : "read_only",
                    "): the host may not ", reads ? "read" : "write", " it"));
        return false;
    }
    return true;
}

[[gnu::noinline]] OPENCLAW_INLINE MemObject describe_buffer(Handle<cl_mem> handle, Element element,
                                                            OnError on_error) {
    MemObject buffer;
    if (!handle) {
        return buffer;
    }
    Relay step(on_error);
    const cl_mem raw = handle.get();
    const cl_mem parent = get_info<cl_mem, CL_MEM_ASSOCIATED_MEMOBJECT>(step, raw);
    buffer.context = get_info<cl_mem, CL_MEM_CONTEXT>(step, raw);
    const std::size_t bytes = get_info<cl_mem, CL_MEM_SIZE>(step, raw);
    buffer.flags = get_info<cl_mem, CL_MEM_FLAGS>(step, raw);
    if (parent != nullptr) {
        buffer.root = Handle<cl_mem>::retain(parent, step);
    }
    if (step.failed()) {
        return {};
    }
    if (bytes % element.size != 0) {
        fail(on_error, CL_INVALID_MEM_OBJECT, "Buffer::adopt",
             concat("memory object of ", bytes, " bytes is not a whole number of ", element.size,
                    "-byte elements"));
        return {};
    }
    buffer.handle = std::move(handle);
    buffer.bytes = bytes;
    return buffer;
}

OPENCLAW_INLINE std::size_t sub_alignment(const MemObject& buffer, std::size_t element_size,
                                          OnError on_error) {
    const std::size_t bytes = memory::strictest_alignment(buffer.context, on_error).first;
    if (bytes == 0) {
        return 0;
    }
    // The least common multiple of the alignment and the element size, in elements.
    return bytes / memory::gcd(bytes, element_size);
}

[[gnu::noinline]] OPENCLAW_INLINE MemObject sub_buffer(const MemObject& parent, std::size_t offset,
                                                       std::size_t count, Element element,
                                                       cl_mem_flags flags, OnError on_error) {
    const std::size_t size = parent.bytes / element.size;
    if (!parent.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, "clCreateSubBuffer", "buffer");
        return {};
    }
    if (!check_range("clCreateSubBuffer", "sub-buffer", offset, count, size, on_error)) {
        return {};
    }
    if (count == 0) {
        fail(on_error, CL_INVALID_BUFFER_SIZE, "clCreateSubBuffer",
             concat("sub-buffer of 0 elements at offset ", offset));
        return {};
    }
    Relay step(on_error);
    const cl_mem root = parent.root ? parent.root.get() : parent.get();
    // Bytes, in the root: both fit, as they lie inside the parent, which lies inside the root.
    const std::size_t base = parent.root ? get_info<cl_mem, CL_MEM_OFFSET>(step, parent.get()) : 0;
    const cl_buffer_region region{base + offset * element.size, count * element.size};
    if (step.failed()) {
        return {};
    }
    // Not a structured binding: clang 14 cannot capture one in the message's lambda.
    const std::pair<std::size_t, Device> strictest =
        memory::strictest_alignment(parent.context, step);
    const std::size_t alignment = strictest.first;
    const Device& device = strictest.second;
    if (step.failed()) {
        return {};
    }
    if (region.origin % alignment != 0) {
        fail(on_error, CL_MISALIGNED_SUB_BUFFER_OFFSET, "clCreateSubBuffer",
             describe_safely([&](OnError quiet) {
                 return concat("offset ", offset, " elements (", offset * element.size,
                               " bytes; byte ", region.origin,
                               " of the root buffer) is not a multiple of the ", alignment,
                               "-byte base address alignment of device \"", device.name(quiet),
                               "\" (CL_DEVICE_MEM_BASE_ADDR_ALIGN = ", alignment * 8,
                               " bits): use offsets that are multiples of sub_alignment() = ",
                               alignment / memory::gcd(alignment, element.size), " elements");
             }));
        return {};
    }
    cl_int code = CL_SUCCESS;
    cl_mem raw = clCreateSubBuffer(root, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &code);
    raw = created_or_null(raw, code);
    if (!check(code, "clCreateSubBuffer", on_error, [&] {
            return concat(count, " elements at offset ", offset, " (", region.size,
                          " bytes at byte ", region.origin, " of the root buffer)");
        })) {
        return {};
    }
    MemObject sub;
    sub.handle = Handle<cl_mem>::adopt(raw);
    sub.root = Handle<cl_mem>::retain(root, on_error);
    sub.context = parent.context;
    sub.bytes = region.size;
    sub.flags = flags | (parent.flags & host_access_flags);
    return sub;
}

[[gnu::noinline]] OPENCLAW_INLINE bool check_transfer(const MemObject& buffer, Direction direction,
                                                      const Queue& queue, std::size_t offset,
                                                      std::size_t count, std::size_t host_elements,
                                                      Element element, const WaitList& wait,
                                                      OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    const bool reads = direction == Direction::read;
    const char* call = reads ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
    if (!buffer.get()) [[unlikely]] {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "buffer");
        return false;
    }
    if (!check_range(call, reads ? "read" : "write", offset, count, buffer.bytes / element.size,
                     on_error)) [[unlikely]] {
        return false;
    }
    if (host_elements != count) [[unlikely]] {
        fail(on_error, CL_INVALID_VALUE, call,
             concat(reads ? "the destination holds " : "the source holds ", host_elements,
                    " elements, the region ", count,
                    ": they must match (name the part: buffer.slice(offset, count) for part of the "
                    "buffer, std::span(host).first(count) for part of the host memory)"));
        return false;
    }
    return check_queue(buffer, queue, call, "buffer", on_error) &&
           check_host_access(buffer, reads, call, on_error) &&
           wait.check(call, queue.context_handle(), on_error) &&
           map_registry.check(buffer.get(), reads ? Use::read : Use::write, call, on_error);
}

[[gnu::noinline]] OPENCLAW_INLINE void transfer(const MemObject& buffer, Direction direction,
                                                const Queue& queue, std::size_t offset,
                                                std::size_t count, Element element, void* host,
                                                bool pageable, const WaitList& wait,
                                                OnError on_error, cl_event* event) {
    const ReportScope reports_about(queue.context_handle());
    const bool reads = direction == Direction::read;
    const char* call = reads ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
    if (count == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    const std::size_t begin = offset * element.size;  // inside the buffer: no overflow
    const std::size_t bytes = count * element.size;
    // The staging pool of a large pageable transfer that goes the driver's own way, to be told
    // how long it took (held under the pool's lock meanwhile).
    StagingPool* timed = nullptr;
    std::unique_lock<std::mutex> timed_lock;
    if (pageable && event == nullptr && bytes >= staging_tuning().threshold) {
        auto [pool, lock] = staging_of(queue);
        // Staging::always stages every time; automatic staging takes the faster path.
        if (pool != nullptr && QueueAccess::state(queue)->mode == Staging::automatic &&
            !pool->paths().stage(reads, bytes)) {
            timed = wait.empty() ? pool : nullptr;  // a wait list's time is not the transfer's
            timed_lock = std::move(lock);
        } else if (pool != nullptr) {
            if (!wait.empty()) {
                if (!BlockingWait::before(wait, call, on_error)) {
                    return;
                }
                const cl_int waited = clWaitForEvents(wait.size(), wait.data());
                if (BlockingWait::list_failed(waited, wait, call, on_error) ||
                    !check(waited, "clWaitForEvents", on_error,
                           [] { return "the wait list of a staged transfer"; })) {
                    return;
                }
            }
            const auto start = std::chrono::steady_clock::now();
            const bool done =
                reads ? pool->read(queue.get(), buffer.get(), begin, static_cast<std::byte*>(host),
                                   bytes, on_error)
                      : pool->write(queue.get(), buffer.get(), begin,
                                    static_cast<const std::byte*>(host), bytes, on_error);
            if (done) {
                pool->paths().record(
                    reads, bytes,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    true);
            }
            return;
        }
    }
    if (!BlockingWait::before(wait, call, on_error)) [[unlikely]] {
        return;
    }
    const BlockingWait guard(wait, event);
    const auto start = timed != nullptr ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point{};
    const cl_int code =
        enqueued(reads ? clEnqueueReadBuffer(queue.get(), buffer.get(), CL_TRUE, begin, bytes, host,
                                             wait.size(), wait.data(), guard.event())
                       : clEnqueueWriteBuffer(queue.get(), buffer.get(), CL_TRUE, begin, bytes,
                                              host, wait.size(), wait.data(), guard.event()),
                 guard.event());
    if (guard.wait_failed(code, wait, call, on_error)) [[unlikely]] {
        return;
    }
    if (timed != nullptr && code == CL_SUCCESS) {
        timed->paths().record(
            reads, bytes,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), false);
    }
    if (check(code, call, on_error,
              [&] { return memory::describe(buffer, offset, count, element); })) {
        (void)guard.after(call, on_error);
    }
}

[[gnu::noinline]] OPENCLAW_INLINE cl_event transfer_async(const MemObject& buffer,
                                                          Direction direction, const Queue& queue,
                                                          std::size_t offset, std::size_t count,
                                                          Element element, void* host,
                                                          const WaitList& wait, OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    const bool reads = direction == Direction::read;
    const char* call = reads ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
    cl_event raw = nullptr;
    if (count == 0) {
        nothing_to_do(queue, wait, &raw, on_error);
        return raw;
    }
    const std::size_t begin = offset * element.size;
    const std::size_t bytes = count * element.size;
    const cl_int code =
        enqueued(reads ? clEnqueueReadBuffer(queue.get(), buffer.get(), CL_FALSE, begin, bytes,
                                             host, wait.size(), wait.data(), &raw)
                       : clEnqueueWriteBuffer(queue.get(), buffer.get(), CL_FALSE, begin, bytes,
                                              host, wait.size(), wait.data(), &raw),
                 &raw);
    if (!check(code, call, on_error,
               [&] { return memory::describe(buffer, offset, count, element); })) {
        return nullptr;
    }
    return raw;
}

[[gnu::noinline]] OPENCLAW_INLINE bool check_copy(const MemObject& source,
                                                  const MemObject& destination, const Queue& queue,
                                                  std::size_t source_offset,
                                                  std::size_t destination_offset, std::size_t count,
                                                  Element element, const char* call,
                                                  OnError on_error) {
    if (!check_range(call, "source", source_offset, count, source.bytes / element.size, on_error) ||
        !check_range(call, "destination", destination_offset, count,
                     destination.bytes / element.size, on_error) ||
        !check_queue(source, queue, call, "buffer", on_error)) {
        return false;
    }
    if (destination.context != source.context) [[unlikely]] {
        if (destination.context == nullptr) {
            refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "destination buffer");
        } else {
            fail(on_error, CL_INVALID_CONTEXT, call,
                 "the source and destination buffers belong to different contexts");
        }
        return false;
    }
    // Overlapping ranges of one root buffer (the buffer itself, or sub-buffers of it): the
    // driver's CL_MEM_COPY_OVERLAP, said with the ranges before it runs (or a graph records it).
    const cl_mem source_root = source.root ? source.root.get() : source.get();
    const cl_mem destination_root = destination.root ? destination.root.get() : destination.get();
    if (count != 0 && source_root == destination_root) [[unlikely]] {
        Relay step(on_error);
        const MemRange from = map_registry.range_of(source.get(), step);
        const MemRange to = map_registry.range_of(destination.get(), step);
        if (step.failed()) {
            return false;
        }
        // Inside their buffers (checked above): no overflow.
        const std::size_t bytes = count * element.size;
        const std::size_t a = from.begin + source_offset * element.size;
        const std::size_t b = to.begin + destination_offset * element.size;
        if (a < b + bytes && b < a + bytes) {
            fail(on_error, CL_MEM_COPY_OVERLAP, call,
                 concat("the source (bytes [", a, ", ", a + bytes,
                        ")) and the destination (bytes [", b, ", ", b + bytes,
                        ")) overlap in one buffer: copy through another buffer"));
            return false;
        }
    }
    return true;
}

[[gnu::noinline]] OPENCLAW_INLINE bool check_fill(const MemObject& buffer, const Queue& queue,
                                                  std::size_t offset, std::size_t count,
                                                  Element element, const char* call,
                                                  OnError on_error) {
    return check_range(call, "fill", offset, count, buffer.bytes / element.size, on_error) &&
           check_queue(buffer, queue, call, "buffer", on_error);
}

[[gnu::noinline]] OPENCLAW_INLINE void copy(const MemObject& source, const MemObject& destination,
                                            const Queue& queue, std::size_t source_offset,
                                            std::size_t destination_offset, std::size_t count,
                                            Element element, const WaitList& wait, cl_event* event,
                                            OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueCopyBuffer";
    if (!check_copy(source, destination, queue, source_offset, destination_offset, count, element,
                    call, on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (count == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    // Checked above: the offsets and the count lie within the buffers, so the bytes fit.
    const CopyBufferCommand command{source.get(), destination.get(), source_offset * element.size,
                                    destination_offset * element.size, count * element.size};
    if (!command.unmapped(call, on_error)) {
        return;
    }
    (void)check(enqueued(command.enqueue(queue.get(), wait.size(), wait.data(), event), event),
                call, on_error, [&] {
                    return concat("copy of ", count, " elements from offset ", source_offset,
                                  " to offset ", destination_offset);
                });
}

[[gnu::noinline]] OPENCLAW_INLINE void fill(const MemObject& buffer, const Queue& queue,
                                            const void* pattern, std::size_t offset,
                                            std::size_t count, Element element,
                                            const WaitList& wait, cl_event* event,
                                            OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueFillBuffer";
    if (!check_fill(buffer, queue, offset, count, element, call, on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (count == 0) {
        return nothing_to_do(queue, wait, event, on_error);
    }
    if (!map_registry.check(buffer.get(), Use::write, call, on_error)) {
        return;
    }
    const std::size_t size = element.size;
    const auto describe = [&] { return memory::describe(buffer, offset, count, element); };
    // clEnqueueFillBuffer takes patterns of 1, 2, 4, ..., 128 bytes; other element sizes (a
    // 12-byte struct, say) are written from a host copy of the pattern.
    if (FillBufferCommand::takes(size)) {
        const FillBufferCommand command(buffer.get(), pattern, size, offset * size, count * size);
        (void)check(enqueued(command.enqueue(queue.get(), wait.size(), wait.data(), event), event),
                    call, on_error, describe);
        return;
    }
    std::string copies(count * size, '\0');
    for (std::size_t i = 0; i < count; ++i) {
        std::memcpy(copies.data() + i * size, pattern, size);
    }
    (void)check(
        enqueued(clEnqueueWriteBuffer(queue.get(), buffer.get(), CL_TRUE, offset * size,
                                      count * size, copies.data(), wait.size(), wait.data(), event),
                 event),
        "clEnqueueWriteBuffer", on_error, describe);
}

namespace memory {

// The byte geometry of one side of a rectangle, after every check: origin {bytes, row, slice},
// pitches in bytes.
struct RectBytes {
    std::size_t origin[3];
    std::size_t row_pitch;
    std::size_t slice_pitch;
};

// Checks `side` of a box of `extent` against an array of `elements` elements (`what` names it)
// and fills `out`; false after reporting why.
inline bool rect_side(const char* call, const char* what, const RectSide& side,
                      const std::array<std::size_t, 3>& extent, std::size_t elements,
                      std::size_t element_size, RectBytes& out, OnError on_error) {
    std::size_t row = side.row_pitch == 0 ? extent[0] : side.row_pitch;
    std::size_t slice = 0;
    bool ok = row >= extent[0];
    if (!ok) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat(what, " row pitch ", row, " is less than the box's row of ", extent[0],
                    " elements"));
        return false;
    }
    if (side.slice_pitch == 0) {
        ok = checked_mul(row, extent[1], slice);
    } else {
        std::size_t rows = 0;
        slice = side.slice_pitch;
        ok = checked_mul(row, extent[1], rows) && slice >= rows;
        if (!ok) {
            fail(on_error, CL_INVALID_VALUE, call,
                 concat(what, " slice pitch ", slice, " is less than ", extent[1], " rows of ", row,
                        " elements"));
            return false;
        }
    }
    // The last element the box touches: origin + (extent - 1) in each dimension, through the
    // pitches, all in checked arithmetic.
    std::size_t last = 0;
    std::size_t term = 0;
    ok = ok && checked_add(side.origin[0], extent[0] - 1, last) &&
         checked_mul(side.origin[1], row, term) && checked_add(last, term, last) &&
         checked_mul(extent[1] - 1, row, term) && checked_add(last, term, last) &&
         checked_mul(side.origin[2], slice, term) && checked_add(last, term, last) &&
         checked_mul(extent[2] - 1, slice, term) && checked_add(last, term, last);
    std::size_t bytes = 0;
    ok = ok && checked_mul(row, element_size, out.row_pitch) &&
         checked_mul(slice, element_size, out.slice_pitch) &&
         checked_mul(side.origin[0], element_size, out.origin[0]) &&
         checked_mul(last, element_size, bytes);
    if (!ok || last >= elements) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat(what, " box of ", extent[0], "x", extent[1], "x", extent[2], " elements at (",
                    side.origin[0], ", ", side.origin[1], ", ", side.origin[2], ") with row pitch ",
                    row, " and slice pitch ", slice,
                    ok ? concat(" ends at element ", last, ": the ", what, " holds ", elements)
                       : std::string(" overflows size_t")));
        return false;
    }
    out.origin[1] = side.origin[1];
    out.origin[2] = side.origin[2];
    return true;
}

inline bool rect_extent(const char* call, const Rect& rect, OnError on_error) {
    if (rect.extent[0] == 0 || rect.extent[1] == 0 || rect.extent[2] == 0) {
        fail(on_error, CL_INVALID_VALUE, call,
             concat("the box is ", rect.extent[0], "x", rect.extent[1], "x", rect.extent[2],
                    " elements: every dimension needs at least 1"));
        return false;
    }
    return true;
}

}  // namespace memory

[[gnu::noinline]] OPENCLAW_INLINE void transfer_rect(const MemObject& buffer, Direction direction,
                                                     const Queue& queue, const Rect& rect,
                                                     Element element, void* host,
                                                     std::size_t host_elements,
                                                     const WaitList& wait, cl_event* event,
                                                     OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    const bool reads = direction == Direction::read;
    const char* call = reads ? "clEnqueueReadBufferRect" : "clEnqueueWriteBufferRect";
    if (!buffer.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "buffer");
        return;
    }
    memory::RectBytes device{};
    memory::RectBytes memory{};
    const RectSide& device_side = reads ? rect.source : rect.destination;
    const RectSide& host_side = reads ? rect.destination : rect.source;
    std::size_t row_bytes = 0;
    if (!memory::rect_extent(call, rect, on_error) ||
        !memory::rect_side(call, "buffer", device_side, rect.extent, buffer.bytes / element.size,
                           element.size, device, on_error) ||
        !memory::rect_side(call, "host memory", host_side, rect.extent, host_elements, element.size,
                           memory, on_error) ||
        !checked_mul(rect.extent[0], element.size, row_bytes) ||
        !check_queue(buffer, queue, call, "buffer", on_error) ||
        !check_host_access(buffer, reads, call, on_error) ||
        !wait.check(call, queue.context_handle(), on_error) ||
        !map_registry.check(buffer.get(), reads ? Use::read : Use::write, call, on_error)) {
        return;
    }
    const std::size_t region[3] = {row_bytes, rect.extent[1], rect.extent[2]};
    if (!BlockingWait::before(wait, call, on_error)) [[unlikely]] {
        return;
    }
    const BlockingWait guard(wait, event);
    const cl_int code = enqueued(
        reads ? clEnqueueReadBufferRect(queue.get(), buffer.get(), CL_TRUE, device.origin,
                                        memory.origin, region, device.row_pitch, device.slice_pitch,
                                        memory.row_pitch, memory.slice_pitch, host, wait.size(),
                                        wait.data(), guard.event())
              : clEnqueueWriteBufferRect(queue.get(), buffer.get(), CL_TRUE, device.origin,
                                         memory.origin, region, device.row_pitch,
                                         device.slice_pitch, memory.row_pitch, memory.slice_pitch,
                                         host, wait.size(), wait.data(), guard.event()),
        guard.event());
    if (guard.wait_failed(code, wait, call, on_error)) [[unlikely]] {
        return;
    }
    if (check(code, call, on_error, [&] {
            return concat("a box of ", rect.extent[0], "x", rect.extent[1], "x", rect.extent[2],
                          " elements");
        })) {
        (void)guard.after(call, on_error);
    }
}

[[gnu::noinline]] OPENCLAW_INLINE void copy_rect(const MemObject& source,
                                                 const MemObject& destination, const Queue& queue,
                                                 const Rect& rect, Element element,
                                                 const WaitList& wait, cl_event* event,
                                                 OnError on_error) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueCopyBufferRect";
    if (!source.get() || !destination.get()) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call,
                     source.get() ? "destination buffer" : "source buffer");
        return;
    }
    memory::RectBytes from{};
    memory::RectBytes to{};
    std::size_t row_bytes = 0;
    if (!memory::rect_extent(call, rect, on_error) ||
        !memory::rect_side(call, "source", rect.source, rect.extent, source.bytes / element.size,
                           element.size, from, on_error) ||
        !memory::rect_side(call, "destination", rect.destination, rect.extent,
                           destination.bytes / element.size, element.size, to, on_error) ||
        !checked_mul(rect.extent[0], element.size, row_bytes) ||
        !check_queue(source, queue, call, "buffer", on_error) ||
        !wait.check(call, queue.context_handle(), on_error)) {
        return;
    }
    if (destination.context != source.context) {
        fail(on_error, CL_INVALID_CONTEXT, call,
             "the source and destination buffers belong to different contexts");
        return;
    }
    if (!map_registry.check(source.get(), Use::read, call, on_error) ||
        !map_registry.check(destination.get(), Use::write, call, on_error)) {
        return;
    }
    const std::size_t region[3] = {row_bytes, rect.extent[1], rect.extent[2]};
    (void)check(enqueued(clEnqueueCopyBufferRect(queue.get(), source.get(), destination.get(),
                                                 from.origin, to.origin, region, from.row_pitch,
                                                 from.slice_pitch, to.row_pitch, to.slice_pitch,
                                                 wait.size(), wait.data(), event),
                         event),
                call, on_error, [&] {
                    return concat("a box of ", rect.extent[0], "x", rect.extent[1], "x",
                                  rect.extent[2], " elements");
                });
}

[[gnu::noinline]] OPENCLAW_INLINE void migrate(cl_mem memory, cl_context context,
                                               const Queue& queue, MigrateOptions options,
                                               const WaitList& wait, cl_event* event,
                                               OnError on_error) {
    constexpr const char* call = "clEnqueueMigrateMemObjects";
    if (memory == nullptr) {
        refuse_empty(on_error, CL_INVALID_MEM_OBJECT, call, "memory object");
        return;
    }
    if (!queue) {
        refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
        return;
    }
    if (queue.context_handle() != context) {
        fail(on_error, CL_INVALID_CONTEXT, call,
             "the queue and the memory object belong to different contexts");
        return;
    }
    if (!wait.check(call, queue.context_handle(), on_error) ||
        (options.content_undefined && !map_registry.check(memory, Use::write, call, on_error))) {
        return;
    }
    cl_mem_migration_flags flags = 0;
    if (options.to_host) {
        flags |= CL_MIGRATE_MEM_OBJECT_HOST;
    }
    if (options.content_undefined) {
        flags |= CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    }
    (void)check(enqueued(clEnqueueMigrateMemObjects(queue.get(), 1, &memory, flags, wait.size(),
                                                    wait.data(), event),
                         event),
                call, on_error);
}

[[gnu::noinline]] OPENCLAW_INLINE Mapping Mapping::map(const MemObject& buffer, const Queue& queue,
                                                       cl_map_flags flags, std::size_t offset,
                                                       std::size_t count, Element element,
                                                       const WaitList& wait, OnError on_error,
                                                       cl_event* event) {
    const ReportScope reports_about(queue.context_handle());
    constexpr const char* call = "clEnqueueMapBuffer";
    Mapping view;
    const bool writable = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
    if (!check_range(call, "map", offset, count, buffer.bytes / element.size, on_error) ||
        !check_queue(buffer, queue, call, "buffer", on_error) ||
        ((flags & CL_MAP_READ) != 0 && !check_host_access(buffer, true, call, on_error)) ||
        (writable && !check_host_access(buffer, false, call, on_error)) ||
        !wait.check(call, queue.context_handle(), on_error) || count == 0) {
        return view;
    }
    const std::size_t begin = offset * element.size;
    const std::size_t bytes = count * element.size;
    if (!BlockingWait::before(wait, call, on_error)) [[unlikely]] {
        return view;
    }
    const std::uint64_t ticket =
        map_registry.add(buffer.get(), begin, begin + bytes, writable, call, on_error);
    if (ticket == 0) {
        return view;
    }
    view.mem_ = Handle<cl_mem>::retain(buffer.get(), on_error);
    view.queue_ = Handle<cl_command_queue>::retain(queue.get(), on_error);
    cl_int code = CL_SUCCESS;
    const BlockingWait guard(wait, event);
    void* host = clEnqueueMapBuffer(queue.get(), buffer.get(), CL_TRUE, flags, begin, bytes,
                                    wait.size(), wait.data(), guard.event(), &code);
    if (enqueued(code, guard.event()) != CL_SUCCESS) {
        map_registry.remove(ticket);
        if (!guard.wait_failed(code, wait, call, on_error)) {
            fail(on_error, code, call,
                 concat(count, " elements at offset ", offset, " (", bytes, " bytes at ", begin,
                        ")"));
        }
        return {};
    }
    if (!guard.ran()) [[unlikely]] {  // mapped, but the map never ran: nothing to read
        (void)clEnqueueUnmapMemObject(queue.get(), buffer.get(), host, 0, nullptr, nullptr);
        map_registry.remove(ticket);
        guard.report(call, on_error);
        return {};
    }
    view.data_ = host;
    view.bytes_ = bytes;
    view.ticket_ = ticket;
    return view;
}

[[gnu::noinline]] OPENCLAW_INLINE Mapping Mapping::adopt(cl_command_queue queue, cl_mem mem,
                                                         void* data, std::size_t bytes,
                                                         std::uint64_t ticket) {
    Mapping view;
    view.mem_ = Handle<cl_mem>::retain(mem);
    view.queue_ = Handle<cl_command_queue>::retain(queue);
    view.data_ = data;
    view.bytes_ = bytes;
    view.ticket_ = ticket;
    return view;
}

[[gnu::noinline]] OPENCLAW_INLINE void Mapping::unmap(OnError on_error, cl_event* event) {
    if (data_ != nullptr) {
        (void)check(release(event), "clEnqueueUnmapMemObject", on_error);
    }
}

OPENCLAW_INLINE cl_int Mapping::release(cl_event* event) noexcept {
    const cl_int code = enqueued(
        clEnqueueUnmapMemObject(queue_.get(), mem_.get(), data_, 0, nullptr, event), event);
    map_registry.remove(ticket_);
    data_ = nullptr;
    bytes_ = 0;
    ticket_ = 0;
    mem_.reset();
    queue_.reset();
    return code;
}

[[gnu::noinline]] OPENCLAW_INLINE void Mapping::unmap_noexcept() noexcept {
    if (data_ != nullptr) {
        if (const cl_int code = release(); code != CL_SUCCESS) {
            report_cleanup_failure("clEnqueueUnmapMemObject", code);
        }
    }
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
