// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Conversions between openclaw objects and OpenCL-CLHPP's cl:: objects, both ways, so a CLHPP
// code base can move to openclaw one function at a time. Each conversion shares the OpenCL object:
// the result holds a reference of its own and the source keeps its own (nothing stolen or leaked).
// Only this header includes <CL/opencl.hpp>; the rest of openclaw never does.

#include <openclaw/openclaw.hpp>

// CLHPP's own defaults would print a #pragma message (an error under clang -Werror) and assume
// OpenCL 2.0 as the minimum; follow openclaw's target instead, unless the user chose already.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION CL_TARGET_OPENCL_VERSION
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
// 110: CLHPP 2.0.x does not compile its queue constructors with a minimum of 120.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#include <CL/opencl.hpp>

#include <concepts>
#include <cstddef>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

/// A CLHPP wrapper holding a reference of its own to `raw` (empty for a null handle). The retain
/// is openclaw's, so a failure throws openclaw::Error whether or not CLHPP was configured with
/// exceptions; CLHPP's constructor (retainObject = false) then takes over that reference.
template <class ClhppType, class Raw>
ClhppType share_with_clhpp(Raw raw) {
    if (raw == nullptr) {
        return ClhppType();
    }
    Handle<Raw> reference = Handle<Raw>::retain(raw);
    ClhppType result(reference.get(), false);
    (void)reference.detach();  // now owned by `result`
    return result;
}

/// The openclaw object sharing a CLHPP object's handle (empty for an empty one).
template <class Target, class Raw>
Target share_from_clhpp(Raw raw) {
    return raw == nullptr ? Target() : Target::retain(raw);
}

template <class K>
concept KernelType = std::derived_from<K, KernelBase> && requires(cl_kernel raw) {
    { K::retain(raw) } -> std::same_as<K>;
};

}  // namespace detail

// ---- openclaw -> CLHPP ------------------------------------------------------------------------

/// The cl::Platform of `platform` (platforms have no reference count).
inline cl::Platform to_clhpp(const Platform& platform) {
    return cl::Platform(platform.get());
}
/// A cl::Device sharing `device` (a sub-device gains a reference, released by the cl::Device).
inline cl::Device to_clhpp(const Device& device) {
    return detail::share_with_clhpp<cl::Device>(device.get());
}
/// A cl::Context sharing `context`: both stay valid, each releases its own reference.
inline cl::Context to_clhpp(const Context& context) {
    return detail::share_with_clhpp<cl::Context>(context.get());
}
/// A cl::CommandQueue sharing `queue`.
inline cl::CommandQueue to_clhpp(const Queue& queue) {
    return detail::share_with_clhpp<cl::CommandQueue>(queue.get());
}
/// A cl::Program sharing `program`.
inline cl::Program to_clhpp(const Program& program) {
    return detail::share_with_clhpp<cl::Program>(program.get());
}
/// A cl::Kernel sharing `kernel` (typed or dynamic). The argument values are the kernel's, so
/// setting one through either object changes it for both.
inline cl::Kernel to_clhpp(const KernelBase& kernel) {
    return detail::share_with_clhpp<cl::Kernel>(kernel.get());
}
/// A cl::Event sharing `event` (also a UserEvent).
inline cl::Event to_clhpp(const Event& event) {
    return detail::share_with_clhpp<cl::Event>(event.get());
}
/// A cl::Buffer sharing `buffer`'s memory object (also a sub-buffer's).
template <class T, class Access>
cl::Buffer to_clhpp(const Buffer<T, Access>& buffer) {
    return detail::share_with_clhpp<cl::Buffer>(buffer.get());
}

// ---- CLHPP -> openclaw ------------------------------------------------------------------------

/// The Platform of a cl::Platform.
inline Platform from_clhpp(const cl::Platform& platform) {
    return Platform(platform());
}
/// A Device sharing a cl::Device.
inline Device from_clhpp(const cl::Device& device) {
    return detail::share_from_clhpp<Device>(device());
}
/// A Context sharing a cl::Context.
inline Context from_clhpp(const cl::Context& context) {
    return detail::share_from_clhpp<Context>(context());
}
/// A Queue sharing a cl::CommandQueue (the staging mode is Staging::automatic).
inline Queue from_clhpp(const cl::CommandQueue& queue) {
    return detail::share_from_clhpp<Queue>(queue());
}
/// A Program sharing a cl::Program.
inline Program from_clhpp(const cl::Program& program) {
    return detail::share_from_clhpp<Program>(program());
}
/// An Event sharing a cl::Event (also a cl::UserEvent).
inline Event from_clhpp(const cl::Event& event) {
    return detail::share_from_clhpp<Event>(event());
}

/// A typed or dynamic kernel sharing a cl::Kernel:
/// `from_clhpp<Kernel<In<float>, Out<float>, cl_uint>>(k)` or `from_clhpp<DynamicKernel>(k)`.
/// Throws as Kernel::retain does when the kernel's parameters do not match the signature.
template <detail::KernelType K>
K from_clhpp(const cl::Kernel& kernel) {
    return detail::share_from_clhpp<K>(kernel());
}

/// A typed Buffer sharing a cl::Buffer: `from_clhpp<ReadOnlyBuffer<float>>(b, context)`.
/// Throws Error, taking no reference, if the memory object is not a buffer, belongs to another
/// context than `context`, is not a whole number of T, or was created with an access the
/// Buffer's kernels would violate (CL_MEM_READ_ONLY as a writable Buffer, CL_MEM_WRITE_ONLY as a
/// readable one).
template <class B>
requires detail::is_buffer<B> B from_clhpp(const cl::Buffer& buffer, const Context& context) {
    using T = typename B::value_type;
    using Access = typename B::access_type;
    const cl_mem raw = buffer();
    if (raw == nullptr) {
        return B();
    }
    const char* call = "from_clhpp";
    if (const auto type = detail::get_info<cl_mem, CL_MEM_TYPE>(OnError{}, raw);
        type != CL_MEM_OBJECT_BUFFER) {
        detail::throw_error(CL_INVALID_MEM_OBJECT, call,
                            detail::concat("the memory object is not a buffer but an image or "
                                           "pipe (CL_MEM_TYPE ",
                                           type, ")"));
    }
    if (const cl_context owner = detail::get_info<cl_mem, CL_MEM_CONTEXT>(OnError{}, raw);
        owner != context.get()) {
        detail::throw_error(CL_INVALID_CONTEXT, call,
                            context ? std::string("the buffer belongs to another context than the "
                                                  "one given")
                                    : std::string("the context given is empty (default-constructed "
                                                  "or moved-from)"));
    }
    if (const std::size_t bytes = detail::get_info<cl_mem, CL_MEM_SIZE>(OnError{}, raw);
        bytes % sizeof(T) != 0) {
        detail::throw_error(
            CL_INVALID_MEM_OBJECT, call,
            detail::concat("the buffer's ", bytes, " bytes are not a whole number of ", sizeof(T),
                           "-byte elements"));
    }
    const cl_mem_flags flags = detail::get_info<cl_mem, CL_MEM_FLAGS>(OnError{}, raw);
    if ((Access::kernel_writes && (flags & CL_MEM_READ_ONLY) != 0) ||
        (Access::kernel_reads && (flags & CL_MEM_WRITE_ONLY) != 0)) {
        detail::throw_error(CL_INVALID_MEM_OBJECT, call,
                            detail::concat("the buffer was created ",
                                           (flags & CL_MEM_READ_ONLY) != 0 ? "CL_MEM_READ_ONLY"
                                                                           : "CL_MEM_WRITE_ONLY",
                                           ": it cannot become a ", Access::name, " Buffer"));
    }
    return B::retain(raw);
}

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
