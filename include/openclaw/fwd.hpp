// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Forward declarations of every public type, and the traits that recognise the memory objects a
// kernel argument can be. A header that only names a type (in a declaration, a pointer, a
// reference) includes this instead of the type's own header.

#include <openclaw/config.hpp>

#include <cstddef>
#include <type_traits>

OPENCLAW_BEGIN_NAMESPACE

class Error;
class BuildError;
class Status;
class OnError;
class Platform;
class Device;
class Context;
class Queue;
class Event;
class UserEvent;
class WaitList;
class NDRange;
class GlobalOffset;
class BuildOptions;
class Program;
class KernelBase;
template <class... Params>
class Kernel;
class DynamicKernel;
struct ReadOnly;
struct WriteOnly;
struct ReadWrite;
template <class T, class Access>
class Buffer;
template <class T, class Access>
class BufferSlice;
template <class T>
class HostTransfer;
template <class T>
class MappedSpan;
template <class T>
struct LocalMem;
/// The shape of an image, which is part of its type and of the kernel parameters it fits.
enum class ImageShape { image2d, image3d, image2d_array };
template <ImageShape Shape, class Pixel, class Access>
class Image;
template <class T>
class PinnedBuffer;
template <class T>
struct SvmPointer;
template <class T>
class SvmMapping;
struct Rect;
struct MigrateOptions;
template <std::size_t N>
struct FixedString;

namespace detail {

/// False for any types: a static_assert in a template that only a mistake instantiates.
template <class...>
inline constexpr bool dependent_false = false;

template <class B>
inline constexpr bool is_buffer = false;
template <class T, class A>
inline constexpr bool is_buffer<Buffer<T, A>> = true;

/// A Buffer or a BufferSlice: what the queue's buffer commands take as a region.
template <class B>
inline constexpr bool is_buffer_region = is_buffer<B>;
template <class T, class A>
inline constexpr bool is_buffer_region<BufferSlice<T, A>> = true;

template <class P>
inline constexpr bool is_pinned = false;
template <class T>
inline constexpr bool is_pinned<PinnedBuffer<T>> = true;

/// What clEnqueueFillImage takes as a colour: four floats, ints or unsigned ints.
template <class C>
inline constexpr bool is_fill_color =
    std::is_same_v<C, cl_float4> || std::is_same_v<C, cl_int4> || std::is_same_v<C, cl_uint4>;

template <class I>
inline constexpr bool is_image = false;
template <ImageShape S, class P, class A>
inline constexpr bool is_image<Image<S, P, A>> = true;

}  // namespace detail

// ---- The names of the side headers ----------------------------------------------------------
// A side header's feature used without its #include fails with one error, the first, naming the
// header (docs/design.md, "Side headers name themselves"). Each public class of a side header is
// declared here as a template whose own definition is a static_assert naming the header: a plain
// class as BasicX<0> (`using X = BasicX<>`), which the header explicitly specializes; a class
// template by a partial specialization the header constrains on side_header_included. Its enums
// are defined here (clang reads a constructor's arguments before the class), and its free
// functions have stubs that the header's own side_header_included specialization switches off.

namespace detail {
/// Tags of side headers, for side_header_included.
struct algorithm_header;
struct async_header;
struct external_header;
struct image_header;
struct pinned_header;
struct split_header;
struct svm_header;
/// True where the side header `Header` is included: the header specializes it for its tag. Kept
/// dependent on a template's arguments (`A...`), so that it is read where the template is used,
/// after whatever the unit included.
template <class Header, class... A>
inline constexpr bool side_header_included = false;
}  // namespace detail

/// @cond
#define OPENCLAW_SIDE_MESSAGE(name, header) \
    "openclaw::" name " is declared in <openclaw/" header ">: include it (or <openclaw/all.hpp>)"
// A plain class or struct of a side header: BasicX<0>, explicitly specialized there.
#define OPENCLAW_SIDE_CLASS(key, name, header)                                   \
    template <int Version = 0>                                                   \
    key Basic##name {                                                            \
        static_assert(Version != Version, OPENCLAW_SIDE_MESSAGE(#name, header)); \
    };                                                                           \
    using name = Basic##name<>
// A free function of a side header called where the header is not included. The leading
// parameters (`...`) are the real function's, so the stub joins no overload set that the real
// one would not; the return type is deduced, so the static_assert fires at the call.
#define OPENCLAW_SIDE_FUNCTION(name, header, ...)                                     \
    template <class... A>                                                             \
    requires(!detail::side_header_included<detail::header##_header, A...>) auto name( \
        __VA_ARGS__ A&&...) {                                                         \
        static_assert(detail::dependent_false<A...>,                                  \
                      OPENCLAW_SIDE_MESSAGE(#name "()", #header ".hpp"));             \
        return 0;                                                                     \
    }
/// @endcond

// <openclaw/profile.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(struct, Profile, "profile.hpp");
/// @endcond

// <openclaw/cache.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(class, BinaryCache, "cache.hpp");
/// @endcond

// <openclaw/image.hpp>
/// @cond
template <ImageShape Shape, class Pixel, class Access>
class Image {
    static_assert(detail::dependent_false<Pixel>,
                  OPENCLAW_SIDE_MESSAGE("Image (Image2D, Image3D, Image2DArray)", "image.hpp"));
};
OPENCLAW_SIDE_CLASS(struct, ImageRegion, "image.hpp");
/// @endcond
/// A 2D image (`image2d_t` in a kernel).
template <class Pixel, class Access = ReadWrite>
using Image2D = Image<ImageShape::image2d, Pixel, Access>;
/// A 3D image (`image3d_t`).
template <class Pixel, class Access = ReadWrite>
using Image3D = Image<ImageShape::image3d, Pixel, Access>;
/// An array of 2D images of one size (`image2d_array_t`).
template <class Pixel, class Access = ReadWrite>
using Image2DArray = Image<ImageShape::image2d_array, Pixel, Access>;

// <openclaw/sampler.hpp> (image.hpp includes it)
/// @cond
OPENCLAW_SIDE_CLASS(class, Sampler, "sampler.hpp");
/// @endcond
/// How a sampler treats coordinates outside the image.
enum class AddressMode : cl_addressing_mode {
    none = CL_ADDRESS_NONE,
    clamp_to_edge = CL_ADDRESS_CLAMP_TO_EDGE,
    clamp = CL_ADDRESS_CLAMP,                      // outside: the border colour
    repeat = CL_ADDRESS_REPEAT,                    // needs normalized coordinates
    mirrored_repeat = CL_ADDRESS_MIRRORED_REPEAT,  // needs normalized coordinates
};

/// How a sampler picks the value between pixel centres.
enum class FilterMode : cl_filter_mode {
    nearest = CL_FILTER_NEAREST,
    linear = CL_FILTER_LINEAR,
};

// <openclaw/svm.hpp>
/// @cond
template <class T>
struct SvmPointer {
    static_assert(detail::dependent_false<T>, OPENCLAW_SIDE_MESSAGE("SvmPointer", "svm.hpp"));
};
template <class T>
class SvmSpan {
    static_assert(detail::dependent_false<T>, OPENCLAW_SIDE_MESSAGE("SvmSpan", "svm.hpp"));
};
template <class T>
class SvmAllocator {
    static_assert(detail::dependent_false<T>, OPENCLAW_SIDE_MESSAGE("SvmAllocator", "svm.hpp"));
};
template <class T>
class SvmMapping {
    static_assert(detail::dependent_false<T>, OPENCLAW_SIDE_MESSAGE("SvmMapping", "svm.hpp"));
};
OPENCLAW_SIDE_FUNCTION(svm, svm)
OPENCLAW_SIDE_FUNCTION(svm_level, svm, const Device&, )
/// @endcond
/// The finest kind of shared virtual memory a device supports.
enum class SvmLevel {
    none,               ///< no SVM (OpenCL 1.x, or a 3.0 device without it)
    coarse_grain,       ///< SVM buffers; the host maps them before touching them
    fine_grain_buffer,  ///< SVM buffers the host may touch without mapping
    fine_grain_system,  ///< any host memory (malloc) is shared
};

// <openclaw/pinned.hpp>
/// @cond
template <class T>
class PinnedBuffer {
    static_assert(detail::dependent_false<T>, OPENCLAW_SIDE_MESSAGE("PinnedBuffer", "pinned.hpp"));
};
/// @endcond

// <openclaw/pool.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(class, MemoryPool, "pool.hpp");
OPENCLAW_SIDE_CLASS(struct, PoolOptions, "pool.hpp");
OPENCLAW_SIDE_CLASS(struct, PoolStats, "pool.hpp");
/// @endcond
/// When a MemoryPool hands returned memory out again. Either way, memory that the driver or
/// openclaw still references (a kernel bound to it, a graph, a sub-buffer) waits until that
/// reference goes.
enum class PoolReuse {
    /// Once the commands enqueued on the pool's queue before its return have completed (a marker
    /// event after the returns): the next buffer over that memory may be used anywhere, on other
    /// queues and by the host, as a new buffer can.
    after_completion,
    /// At once, for the commands enqueued after it on the pool's queue, which must be in order:
    /// those run after the commands of the memory's previous lease (CUDA's stream-ordered reuse,
    /// cudaFreeAsync then cudaMallocAsync on one stream). No marker, no wait, and a loop that
    /// runs ahead of the device holds one buffer per size instead of every one in flight. The
    /// contract: the pool's buffers are used by commands of the pool's queue only, or of another
    /// queue only after it has waited for the pool's queue (an event of it) since the buffer was
    /// allocated; otherwise the other queue may run while the previous lease's commands still
    /// use the memory.
    queue_order,
};

// <openclaw/graph.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(class, CommandGraph, "graph.hpp");
OPENCLAW_SIDE_CLASS(struct, GraphOptions, "graph.hpp");
/// @endcond
/// How a CommandGraph replays.
enum class GraphPath : unsigned char {
    portable,        ///< a loop over the recorded, pre-checked enqueues
    command_buffer,  ///< one cl_khr_command_buffer enqueue
};

// <openclaw/external.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(class, Semaphore, "external.hpp");
OPENCLAW_SIDE_CLASS(struct, SemaphoreOptions, "external.hpp");
OPENCLAW_SIDE_CLASS(struct, DeviceUuid, "external.hpp");
OPENCLAW_SIDE_CLASS(struct, ExternalCapabilities, "external.hpp");
OPENCLAW_SIDE_CLASS(struct, ExternalMemory, "external.hpp");
OPENCLAW_SIDE_FUNCTION(external_capabilities, external, const Device&, )
OPENCLAW_SIDE_FUNCTION(device_uuid, external, const Device&, )
template <class T, class Access = ReadWrite, class... A>
requires(!detail::side_header_included<detail::external_header, T, A...>) auto import_buffer(
    const Context&, A&&...) {
    static_assert(detail::dependent_false<T>,
                  OPENCLAW_SIDE_MESSAGE("import_buffer()", "external.hpp"));
    return 0;
}
/// @endcond
/// How another API hands out memory (cl_external_memory_handle_type_khr).
enum class ExternalMemoryType : cl_uint {
    opaque_fd = 0x2060,  ///< a POSIX file descriptor (CUDA's cuMemExportToShareableHandle, Vulkan)
    opaque_win32 = 0x2061,      ///< a Windows NT handle
    opaque_win32_kmt = 0x2062,  ///< a Windows global share handle
    d3d11_texture = 0x2063,
    d3d11_texture_kmt = 0x2064,
    d3d12_heap = 0x2065,
    d3d12_resource = 0x2066,
    dma_buf = 0x2067,  ///< a Linux dma-buf file descriptor
};

/// How another API hands out a semaphore (cl_external_semaphore_handle_type_khr).
enum class SemaphoreHandleType : cl_uint {
    opaque_fd = 0x2055,  ///< a POSIX file descriptor (Vulkan's
                         ///< VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT)
    opaque_win32 = 0x2056,
    opaque_win32_kmt = 0x2057,
    sync_fd = 0x2058,  ///< a Linux sync file
    d3d12_fence = 0x2059,
};

// <openclaw/split.hpp>
/// @cond
OPENCLAW_SIDE_CLASS(struct, Slice, "split.hpp");
OPENCLAW_SIDE_FUNCTION(split, split, std::size_t, )
/// @endcond

// <openclaw/async.hpp>
/// @cond
OPENCLAW_SIDE_FUNCTION(when_all, async)
OPENCLAW_SIDE_FUNCTION(when_complete, async, const Event&, )
template <class E>
requires(std::is_same_v<E, Event> && !detail::side_header_included<detail::async_header, E>) auto
operator co_await(const E&) {
    static_assert(detail::dependent_false<E>,
                  OPENCLAW_SIDE_MESSAGE("operator co_await (co_await event)", "async.hpp"));
    return 0;
}
/// @endcond

/// @cond
// The algorithms (<openclaw/algorithm.hpp>) called where that header is not included: one error,
// the first, naming the header (instead of "'sort' is not a member of 'openclaw'"). Each takes a
// Queue first, as the algorithms do, so no other code's overloads are affected; where the
// header is included the constraint removes them. The return type is deduced, so the
// static_assert fires at the call, before any use of its result.
#define OPENCLAW_ALGORITHM_NEEDS_HEADER(name)                                          \
    template <class... A>                                                              \
    requires(!detail::side_header_included<detail::algorithm_header, A...>) auto name( \
        const Queue&, A&&...) {                                                        \
        static_assert(detail::dependent_false<A...>,                                   \
                      "openclaw::" #name                                               \
                      " is an algorithm of <openclaw/algorithm.hpp>: include "         \
                      "it (or <openclaw/all.hpp>)");                                   \
        return 0;                                                                      \
    }
OPENCLAW_ALGORITHM_NEEDS_HEADER(reduce)
OPENCLAW_ALGORITHM_NEEDS_HEADER(transform_reduce)
OPENCLAW_ALGORITHM_NEEDS_HEADER(count_if)
OPENCLAW_ALGORITHM_NEEDS_HEADER(min_element)
OPENCLAW_ALGORITHM_NEEDS_HEADER(max_element)
OPENCLAW_ALGORITHM_NEEDS_HEADER(reduce_into)
OPENCLAW_ALGORITHM_NEEDS_HEADER(inclusive_scan)
OPENCLAW_ALGORITHM_NEEDS_HEADER(exclusive_scan)
OPENCLAW_ALGORITHM_NEEDS_HEADER(inclusive_scan_by_key)
OPENCLAW_ALGORITHM_NEEDS_HEADER(exclusive_scan_by_key)
OPENCLAW_ALGORITHM_NEEDS_HEADER(copy_if)
OPENCLAW_ALGORITHM_NEEDS_HEADER(partition)
OPENCLAW_ALGORITHM_NEEDS_HEADER(histogram)
OPENCLAW_ALGORITHM_NEEDS_HEADER(transform)
OPENCLAW_ALGORITHM_NEEDS_HEADER(fill)
OPENCLAW_ALGORITHM_NEEDS_HEADER(iota)
OPENCLAW_ALGORITHM_NEEDS_HEADER(sort)
OPENCLAW_ALGORITHM_NEEDS_HEADER(sort_by_key)
#undef OPENCLAW_ALGORITHM_NEEDS_HEADER
#undef OPENCLAW_SIDE_FUNCTION
#undef OPENCLAW_SIDE_CLASS
#undef OPENCLAW_SIDE_MESSAGE
/// @endcond

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
