// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Command descriptions (objects layer): one device command's operands after every check, as the
// driver takes them. Queue enqueues a description; CommandGraph keeps the same description and
// either records it into a command buffer or enqueues it at each replay. A new command is one
// struct here (docs/design.md, "Where a new command goes"), with:
//
//   static constexpr const char* enqueue_call, record_call;   // the entry points, for messages
//   cl_int enqueue(cl_command_queue, cl_uint waits, const cl_event* events, cl_event* done) const;
//   template <class Api>                                      // cl_khr_command_buffer's table
//   cl_int record(const Api&, typename Api::Buffer, cl_uint waits,
//                 const typename Api::SyncPoint* after, typename Api::SyncPoint* point) const;
//   std::array<cl_mem, N> memory() const;   // the memory objects it names (a graph retains them)
//   bool unmapped(const char* call, OnError) const;  // no conflicting host mapping of them
//
// A description holds raw handles and never owns them: whoever runs it keeps them alive.

#include <openclaw/detail/base/map_registry.hpp>
#include <openclaw/error.hpp>

#include <array>
#include <cstddef>
#include <cstring>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// clEnqueueNDRangeKernel of a kernel whose arguments are set; the sizes are the caller's (a
/// queue's NDRanges, or a graph's copies of them). Null `offset` and `local` are the driver's
/// defaults.
struct LaunchCommand {
    static constexpr const char* enqueue_call = "clEnqueueNDRangeKernel";
    static constexpr const char* record_call = "clCommandNDRangeKernelKHR";

    cl_kernel kernel = nullptr;
    cl_uint dimensions = 0;
    const std::size_t* offset = nullptr;
    const std::size_t* global = nullptr;
    const std::size_t* local = nullptr;

    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const noexcept {
        return clEnqueueNDRangeKernel(queue, kernel, dimensions, offset, global, local, waits,
                                      events, done);
    }
    template <class Api>
    cl_int record(const Api& api, typename Api::Buffer buffer, cl_uint waits,
                  const typename Api::SyncPoint* after,
                  typename Api::SyncPoint* point) const noexcept {
        return api.ndrange(buffer, nullptr, nullptr, kernel, dimensions, offset, global, local,
                           waits, after, point, nullptr);
    }
    // A launch's memory is its kernel's arguments: the kernel checks them (check_unmapped).
    std::array<cl_mem, 0> memory() const noexcept { return {}; }
};

/// clEnqueueCopyBuffer of `bytes` bytes between two buffers (offsets in bytes).
struct CopyBufferCommand {
    static constexpr const char* enqueue_call = "clEnqueueCopyBuffer";
    static constexpr const char* record_call = "clCommandCopyBufferKHR";

    cl_mem source = nullptr;
    cl_mem destination = nullptr;
    std::size_t source_offset = 0;
    std::size_t destination_offset = 0;
    std::size_t bytes = 0;

    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const noexcept {
        return clEnqueueCopyBuffer(queue, source, destination, source_offset, destination_offset,
                                   bytes, waits, events, done);
    }
    template <class Api>
    cl_int record(const Api& api, typename Api::Buffer buffer, cl_uint waits,
                  const typename Api::SyncPoint* after,
                  typename Api::SyncPoint* point) const noexcept {
        return api.copy(buffer, nullptr, source, destination, source_offset, destination_offset,
                        bytes, waits, after, point, nullptr);
    }
    std::array<cl_mem, 2> memory() const noexcept { return {source, destination}; }
    bool unmapped(const char* call, OnError on_error) const {
        return map_registry.check(source, Use::read, call, on_error) &&
               map_registry.check(destination, Use::write, call, on_error);
    }
};

/// clEnqueueFillBuffer of `bytes` bytes from `offset` with a pattern of 1, 2, 4, ..., 128 bytes,
/// held here (the driver copies it at once; a graph keeps it for every replay).
struct FillBufferCommand {
    static constexpr const char* enqueue_call = "clEnqueueFillBuffer";
    static constexpr const char* record_call = "clCommandFillBufferKHR";
    static constexpr std::size_t max_pattern = 128;

    /// The command, with `size` bytes of pattern from `pattern` (size at most max_pattern).
    FillBufferCommand(cl_mem buffer, const void* pattern_bytes, std::size_t size, std::size_t from,
                      std::size_t length) noexcept
        : destination(buffer), pattern_size(size), offset(from), bytes(length) {
        std::memcpy(pattern.data(), pattern_bytes, size);
    }

    cl_mem destination = nullptr;
    std::size_t pattern_size = 0;
    std::size_t offset = 0;
    std::size_t bytes = 0;
    std::array<unsigned char, max_pattern> pattern{};

    /// True for the pattern sizes the driver takes.
    static constexpr bool takes(std::size_t size) noexcept {
        return size != 0 && (size & (size - 1)) == 0 && size <= max_pattern;
    }

    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const noexcept {
        return clEnqueueFillBuffer(queue, destination, pattern.data(), pattern_size, offset, bytes,
                                   waits, events, done);
    }
    template <class Api>
    cl_int record(const Api& api, typename Api::Buffer buffer, cl_uint waits,
                  const typename Api::SyncPoint* after,
                  typename Api::SyncPoint* point) const noexcept {
        return api.fill(buffer, nullptr, destination, pattern.data(), pattern_size, offset, bytes,
                        waits, after, point, nullptr);
    }
    std::array<cl_mem, 1> memory() const noexcept { return {destination}; }
    bool unmapped(const char* call, OnError on_error) const {
        return map_registry.check(destination, Use::write, call, on_error);
    }
};

/// clEnqueueBarrierWithWaitList: later commands start after earlier ones have completed.
struct BarrierCommand {
    static constexpr const char* enqueue_call = "clEnqueueBarrierWithWaitList";
    static constexpr const char* record_call = "clCommandBarrierWithWaitListKHR";

    cl_int enqueue(cl_command_queue queue, cl_uint waits, const cl_event* events,
                   cl_event* done) const noexcept {
        return clEnqueueBarrierWithWaitList(queue, waits, events, done);
    }
    template <class Api>
    cl_int record(const Api& api, typename Api::Buffer buffer, cl_uint waits,
                  const typename Api::SyncPoint* after,
                  typename Api::SyncPoint* point) const noexcept {
        return api.barrier(buffer, nullptr, waits, after, point, nullptr);
    }
    std::array<cl_mem, 0> memory() const noexcept { return {}; }
    bool unmapped(const char*, OnError) const noexcept { return true; }
};

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
