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
/// A profiled command's timestamps (defined in <openclaw/profile.hpp>). A template's explicit
/// specialization there, so that a unit naming Profile without that header gets, as its first
/// error, the header to include (an incomplete struct would only be "incomplete").
template <int Version = 0>
struct BasicProfile {
    static_assert(Version != Version,
                  "openclaw::Profile (event.profile()) is declared in <openclaw/profile.hpp>: "
                  "include it (or <openclaw/all.hpp>)");
};
/// When a profiled command was queued, submitted, started and ended (event.profile();
/// <openclaw/profile.hpp> defines it).
using Profile = BasicProfile<>;
class WaitList;
class NDRange;
class GlobalOffset;
class BuildOptions;
class Program;
class KernelBase;
template <class... Params>
class Kernel;
class DynamicKernel;
class BinaryCache;
class Semaphore;
class Sampler;
template <class T>
class SvmMapping;
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
class PinnedBuffer;
template <class T>
struct SvmPointer;
template <class T>
struct LocalMem;
/// The shape of an image, which is part of its type and of the kernel parameters it fits.
enum class ImageShape { image2d, image3d, image2d_array };
template <ImageShape Shape, class Pixel, class Access>
class Image;
struct ImageRegion;
struct Rect;
struct MigrateOptions;
class MemoryPool;
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

namespace detail {
/// Tags of side headers, for side_header_included.
struct algorithm_header;
/// True where the side header `Header` is included: the header specializes it for its tag. Kept
/// dependent on the call's argument types (`A...`), so that it is read at the call, after
/// whatever the unit included.
template <class Header, class... A>
inline constexpr bool side_header_included = false;
}  // namespace detail

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
/// @endcond

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
