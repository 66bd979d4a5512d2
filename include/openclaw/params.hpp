// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Kernel parameter descriptors (In<T>, Out<T>, InOut<T>, Constant<T>, Local<T>, scalars) and the
// compile-time rules deciding which C++ argument fits which parameter (kernels layer). A mismatch
// is a static_assert whose message names the argument's index and the reason. Image and sampler
// parameters (image.hpp) plug into the same rules by specialising ParamTraits; each argument kind
// brings its rule as a specialisation of ArgumentTraits beside its type (images, samplers and SVM
// pointers in their own headers).

#include <openclaw/detail/base/map_registry.hpp>
#include <openclaw/fwd.hpp>

#include <cstddef>
#include <type_traits>

OPENCLAW_BEGIN_NAMESPACE

/// A `__global T*` the kernel only reads (`const` or not: saying In<T> is saying the kernel does
/// not write through it). Accepts ReadOnly and ReadWrite buffers of T.
template <class T>
struct In {};
/// A `__global T*` the kernel only writes. Accepts WriteOnly and ReadWrite buffers of T.
template <class T>
struct Out {};
/// A `__global T*` that the kernel reads and writes. Accepts ReadWrite buffers of T.
template <class T>
struct InOut {};
/// A non-const `__global T*` whose use is not known: what a kernel typed from its source gets
/// when its body does not show that it only reads or only writes the parameter (the pointer is
/// passed to a function, offset, or both read and written). The kernel may read and write it:
/// accepts ReadWrite buffers of T. Declare the kernel by hand with In<T> or Out<T> to say more.
template <class T>
struct Global {};
/// `__constant T*`. Accepts ReadOnly and ReadWrite buffers of T.
template <class T>
struct Constant {};
/// `__local T*`: per-work-group scratch memory, sized at launch with LocalMem<T>{count}.
template <class T>
struct Local {};

/// The argument for a Local<T> parameter: `count` elements of T per work-group.
template <class T>
struct LocalMem {
    /// The element type.
    using value_type = T;
    /// Elements per work-group (set_args passes count * sizeof(T) bytes to clSetKernelArg).
    std::size_t count = 0;
};

namespace detail {

enum class ParamKind {
    scalar,
    in,
    out,
    in_out,
    global,  // Global<T>: may read and write (an unknown use)
    constant,
    local,
    image_read,
    image_write,
    sampler
};

template <class P>
struct ParamTraits {
    static constexpr ParamKind kind = ParamKind::scalar;
    using element_type = P;
};
template <class T>
struct ParamTraits<In<T>> {
    static constexpr ParamKind kind = ParamKind::in;
    using element_type = T;
};
template <class T>
struct ParamTraits<Out<T>> {
    static constexpr ParamKind kind = ParamKind::out;
    using element_type = T;
};
template <class T>
struct ParamTraits<InOut<T>> {
    static constexpr ParamKind kind = ParamKind::in_out;
    using element_type = T;
};
template <class T>
struct ParamTraits<Global<T>> {
    static constexpr ParamKind kind = ParamKind::global;
    using element_type = T;
};
template <class T>
struct ParamTraits<Constant<T>> {
    static constexpr ParamKind kind = ParamKind::constant;
    using element_type = T;
};
template <class T>
struct ParamTraits<Local<T>> {
    static constexpr ParamKind kind = ParamKind::local;
    using element_type = T;
};

/// True for image and sampler parameters (opaque objects, not pointers or values).
template <class P>
inline constexpr bool is_object_param =
    ParamTraits<P>::kind == ParamKind::image_read ||
    ParamTraits<P>::kind == ParamKind::image_write || ParamTraits<P>::kind == ParamKind::sampler;

/// How a kernel uses a parameter's buffer (reads only, or may write).
template <class P>
consteval Use use_of() {
    constexpr ParamKind kind = ParamTraits<P>::kind;
    return kind == ParamKind::out || kind == ParamKind::in_out || kind == ParamKind::global ||
                   kind == ParamKind::image_write
               ? Use::write
               : Use::read;
}

/// Why a parameter is not a valid kernel parameter type (ok if it is).
enum class ParamProblem { ok, not_trivially_copyable, pointer, boolean, cv_or_reference };

template <class P>
consteval ParamProblem param_problem() {
    using E = typename ParamTraits<P>::element_type;
    if constexpr (is_object_param<P>) {
        return ParamProblem::ok;
    } else if constexpr (std::is_reference_v<E> || std::is_const_v<E> || std::is_volatile_v<E>) {
        return ParamProblem::cv_or_reference;
    } else if constexpr (std::is_pointer_v<E>) {
        return ParamProblem::pointer;
    } else if constexpr (ParamTraits<P>::kind == ParamKind::scalar && std::is_same_v<E, bool>) {
        return ParamProblem::boolean;
    } else if constexpr (!std::is_trivially_copyable_v<E>) {
        return ParamProblem::not_trivially_copyable;
    } else {
        return ParamProblem::ok;
    }
}

/// How argument type A fits parameter P.
enum class Verdict {
    ok,
    needs_buffer,
    element_mismatch,
    needs_readable,
    needs_writable,
    needs_read_write,
    needs_read_write_unknown,
    needs_mutable_pointer,
    needs_local_mem,
    scalar_got_buffer,
    scalar_got_local_mem,
    narrowing,
    scalar_mismatch,
    needs_image,
    image_shape,
    image_pixel,
    image_needs_readable,
    image_needs_writable,
    needs_sampler,
    scalar_got_object,
};

template <class To, class From>
concept NonNarrowing = requires(From&& from) {
    To{static_cast<From&&>(from)};
};

/// True for the pointer parameters a Buffer or an SVM pointer is passed for.
template <class P>
inline constexpr bool is_pointer_param =
    ParamTraits<P>::kind == ParamKind::in || ParamTraits<P>::kind == ParamKind::out ||
    ParamTraits<P>::kind == ParamKind::in_out || ParamTraits<P>::kind == ParamKind::global ||
    ParamTraits<P>::kind == ParamKind::constant;

/// What parameter P asks for, said to an argument of a kind P does not take.
template <class P>
consteval Verdict wanted_by() {
    constexpr ParamKind kind = ParamTraits<P>::kind;
    return kind == ParamKind::image_read || kind == ParamKind::image_write ? Verdict::needs_image
           : kind == ParamKind::sampler                                    ? Verdict::needs_sampler
           : kind == ParamKind::local  ? Verdict::needs_local_mem
           : kind == ParamKind::scalar ? Verdict::scalar_mismatch
                                       : Verdict::needs_buffer;
}

/// How an argument reaches the kernel: the OpenCL call that sets it, and what is kept of it.
enum class ArgForm {
    value,   ///< its bytes (clSetKernelArg), converted to a typed kernel's parameter type first
    memory,  ///< a cl_mem (clSetKernelArg), checked against mappings and held until replaced
    object,  ///< another handle (a cl_sampler), set as its bytes after the same checks
    svm,     ///< a shared pointer (clSetKernelArgSVMPointer)
    local,   ///< a __local size (clSetKernelArg with no value)
};

/// The kernel-argument rule of a C++ type: the extension point of argument kinds. Each kind
/// specialises it beside its own type (a Buffer and LocalMem below, an Image and a Sampler in
/// image.hpp, an SVM pointer in svm.hpp); Kernel and DynamicKernel ask only this trait. A
/// specialisation has:
///  - `form` (ArgForm), and by form: `handle(a)` and `context(a)` (memory, object), `pointer(a)`
///    (svm), `count(a)` (local); `name`, what an error calls it;
///  - `verdict<P>()`: whether it fits typed parameter P, or the Verdict saying why not
///    (wanted_by<P>() for parameter kinds it is never passed for);
///  - `dynamic`: whether DynamicKernel takes it (checked against the driver's arg info through
///    `element_type`, `kernel_reads`, `kernel_writes` and `access_name`).
/// The primary template is the rule of values: trivially copyable types set as their bytes.
template <class A>
struct ArgumentTraits {
    static constexpr ArgForm form = ArgForm::value;
    static constexpr const char* name = "value";
    using element_type = A;
    static constexpr bool kernel_reads = false;
    static constexpr bool kernel_writes = false;
    static constexpr const char* access_name = "";
    static constexpr bool dynamic = std::is_trivially_copyable_v<A> && !std::is_pointer_v<A> &&
                                    !std::is_same_v<A, bool> && !std::is_array_v<A>;

    template <class P>
    static consteval Verdict verdict() {
        if constexpr (ParamTraits<P>::kind != ParamKind::scalar) {
            return wanted_by<P>();
        } else if constexpr (std::is_same_v<A, P>) {
            return Verdict::ok;
        } else if constexpr (std::is_arithmetic_v<P> &&
                             (std::is_arithmetic_v<A> || std::is_enum_v<A>)) {
            return NonNarrowing<P, const A&> ? Verdict::ok : Verdict::narrowing;
        } else {
            return Verdict::scalar_mismatch;
        }
    }
};

/// LocalMem<T>{count}: `count` elements of T of __local memory per work-group.
template <class T>
struct ArgumentTraits<LocalMem<T>> {
    static constexpr ArgForm form = ArgForm::local;
    static constexpr const char* name = "LocalMem";
    using element_type = T;
    static constexpr bool kernel_reads = false;
    static constexpr bool kernel_writes = false;
    static constexpr const char* access_name = "";
    static constexpr bool dynamic = true;
    static std::size_t count(const LocalMem<T>& local) noexcept { return local.count; }

    template <class P>
    static consteval Verdict verdict() {
        if constexpr (ParamTraits<P>::kind == ParamKind::scalar) {
            return Verdict::scalar_got_local_mem;
        } else if constexpr (ParamTraits<P>::kind != ParamKind::local) {
            return wanted_by<P>();
        } else if constexpr (!std::is_same_v<typename ParamTraits<P>::element_type, T>) {
            return Verdict::element_mismatch;
        } else {
            return Verdict::ok;
        }
    }
};

/// The rules every argument that passes a pointer to T (a buffer, an SVM pointer) starts with:
/// not for a scalar parameter nor one that is not a pointer, and only for a pointer to T;
/// Verdict::ok when they hold (the kind's own rules follow).
template <class P, class T>
consteval Verdict pointer_verdict() {
    if constexpr (ParamTraits<P>::kind == ParamKind::scalar) {
        return Verdict::scalar_got_buffer;
    } else if constexpr (!is_pointer_param<P>) {
        return wanted_by<P>();
    } else if constexpr (!std::is_same_v<typename ParamTraits<P>::element_type, T>) {
        return Verdict::element_mismatch;
    } else {
        return Verdict::ok;
    }
}

/// A Buffer<T, Access>: its cl_mem, for a __global or __constant pointer to T whose use the
/// access allows.
template <class T, class Access>
struct ArgumentTraits<Buffer<T, Access>> {
    static constexpr ArgForm form = ArgForm::memory;
    static constexpr const char* name = "buffer";
    using element_type = T;
    static constexpr bool kernel_reads = Access::kernel_reads;
    static constexpr bool kernel_writes = Access::kernel_writes;
    static constexpr const char* access_name = Access::name;
    static constexpr bool dynamic = true;
    static cl_mem handle(const Buffer<T, Access>& buffer) noexcept { return buffer.get(); }
    static cl_context context(const Buffer<T, Access>& buffer) noexcept {
        return buffer.context_handle();
    }

    template <class P>
    static consteval Verdict verdict() {
        constexpr ParamKind kind = ParamTraits<P>::kind;
        if constexpr (pointer_verdict<P, T>() != Verdict::ok) {
            return pointer_verdict<P, T>();
        } else if constexpr (kind == ParamKind::in_out) {
            return std::is_same_v<Access, ReadWrite> ? Verdict::ok : Verdict::needs_read_write;
        } else if constexpr (kind == ParamKind::global) {
            return std::is_same_v<Access, ReadWrite> ? Verdict::ok
                                                     : Verdict::needs_read_write_unknown;
        } else if constexpr (kind == ParamKind::out) {
            return Access::kernel_writes ? Verdict::ok : Verdict::needs_writable;
        } else {
            return Access::kernel_reads ? Verdict::ok : Verdict::needs_readable;
        }
    }
};

/// How argument type A fits parameter P: its kind's rule.
template <class P, class A>
consteval Verdict verdict() {
    return ArgumentTraits<A>::template verdict<P>();
}

// One static_assert per reason and argument index: a static_assert message must be a literal,
// so the index is stamped into each message by the preprocessor (indices 0 to 31, then one
// shared message). Only the branch of a failing argument is ever instantiated.
#define OPENCLAW_ARG_REPORT(COND, LABEL)                                                    \
    if constexpr (COND) {                                                                   \
        static_assert(V != Verdict::needs_buffer,                                           \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is a __global/__constant "                           \
                      "pointer (In/Out/InOut/Constant<T>): pass a Buffer of T or svm(p)");  \
        static_assert(V != Verdict::element_mismatch,                                       \
                      "set_args: argument " LABEL                                           \
                      ": element type differs from the parameter's "                        \
                      "T (a Buffer<U> or LocalMem<U> cannot be passed for T)");             \
        static_assert(V != Verdict::needs_readable,                                         \
                      "set_args: argument " LABEL                                           \
                      ": the kernel reads this parameter (In<T> or "                        \
                      "Constant<T>): a WriteOnly buffer cannot be passed, use ReadOnly or " \
                      "ReadWrite");                                                         \
        static_assert(V != Verdict::needs_writable,                                         \
                      "set_args: argument " LABEL                                           \
                      ": the kernel writes this parameter (Out<T>): "                       \
                      "a ReadOnly buffer cannot be passed, use WriteOnly or ReadWrite");    \
        static_assert(V != Verdict::needs_read_write,                                       \
                      "set_args: argument " LABEL                                           \
                      ": the kernel reads and writes this parameter "                       \
                      "(InOut<T>): pass a ReadWrite buffer");                               \
        static_assert(V != Verdict::needs_read_write_unknown,                               \
                      "set_args: argument " LABEL                                           \
                      ": the kernel's pointer is not const and its body does not show "     \
                      "that it only reads or only writes it (Global<T>), so the kernel "    \
                      "may do both: pass a ReadWrite buffer, make the parameter const, or " \
                      "declare the kernel by hand with In<T> or Out<T>");                   \
        static_assert(V != Verdict::needs_mutable_pointer,                                  \
                      "set_args: argument " LABEL                                           \
                      ": the kernel writes this parameter (Out<T> or "                      \
                      "InOut<T>): an SVM pointer to const cannot be passed");               \
        static_assert(V != Verdict::needs_local_mem,                                        \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is __local (Local<T>): pass "                        \
                      "LocalMem<T>{count}");                                                \
        static_assert(V != Verdict::scalar_got_buffer,                                      \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is a scalar: a buffer (or SVM "                      \
                      "pointer) cannot be passed");                                         \
        static_assert(V != Verdict::scalar_got_local_mem,                                   \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is a scalar: LocalMem cannot "                       \
                      "be passed");                                                         \
        static_assert(V != Verdict::narrowing,                                              \
                      "set_args: argument " LABEL                                           \
                      ": the value would narrow to the parameter's "                        \
                      "scalar type (e.g. size_t to cl_uint): convert it explicitly");       \
        static_assert(V != Verdict::scalar_mismatch,                                        \
                      "set_args: argument " LABEL                                           \
                      ": the argument's type is not the parameter's "                       \
                      "scalar type");                                                       \
        static_assert(V != Verdict::needs_image,                                            \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is an image (ReadImage2D/WriteImage2D<Pixel>...): "  \
                      "pass an Image of that shape and pixel format");                      \
        static_assert(V != Verdict::image_shape,                                            \
                      "set_args: argument " LABEL                                           \
                      ": the image's shape differs from the parameter's (an Image2D, "      \
                      "Image3D and Image2DArray are different kernel types)");              \
        static_assert(V != Verdict::image_pixel,                                            \
                      "set_args: argument " LABEL                                           \
                      ": the image's pixel format differs from the parameter's Pixel");     \
        static_assert(V != Verdict::image_needs_readable,                                   \
                      "set_args: argument " LABEL                                           \
                      ": the kernel reads this image (read_only): a WriteOnly image "       \
                      "cannot be passed, use ReadOnly or ReadWrite");                       \
        static_assert(V != Verdict::image_needs_writable,                                   \
                      "set_args: argument " LABEL                                           \
                      ": the kernel writes this image (write_only): a ReadOnly image "      \
                      "cannot be passed, use WriteOnly or ReadWrite");                      \
        static_assert(V != Verdict::needs_sampler,                                          \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is a sampler_t (SamplerParam): pass a Sampler");     \
        static_assert(V != Verdict::scalar_got_object,                                      \
                      "set_args: argument " LABEL                                           \
                      ": the parameter is a scalar: an image or sampler cannot be passed"); \
    }

#define OPENCLAW_ARG_REPORT_AT(N) OPENCLAW_ARG_REPORT(I == N, #N)

/// Names an argument past the 32 the messages spell out: the compiler prints it with the
/// instantiation of report_argument_past (`argument_index<33>`).
template <std::size_t N>
struct argument_index {};

template <class Index, Verdict V>
constexpr void report_argument_past() {
    OPENCLAW_ARG_REPORT(true, "N (N as in argument_index<N> of this instantiation)")
}

template <std::size_t I, Verdict V>
constexpr void report_argument() {
    OPENCLAW_ARG_REPORT_AT(0)
    OPENCLAW_ARG_REPORT_AT(1)
    OPENCLAW_ARG_REPORT_AT(2)
    OPENCLAW_ARG_REPORT_AT(3)
    OPENCLAW_ARG_REPORT_AT(4)
    OPENCLAW_ARG_REPORT_AT(5)
    OPENCLAW_ARG_REPORT_AT(6)
    OPENCLAW_ARG_REPORT_AT(7)
    OPENCLAW_ARG_REPORT_AT(8)
    OPENCLAW_ARG_REPORT_AT(9)
    OPENCLAW_ARG_REPORT_AT(10)
    OPENCLAW_ARG_REPORT_AT(11)
    OPENCLAW_ARG_REPORT_AT(12)
    OPENCLAW_ARG_REPORT_AT(13)
    OPENCLAW_ARG_REPORT_AT(14)
    OPENCLAW_ARG_REPORT_AT(15)
    OPENCLAW_ARG_REPORT_AT(16)
    OPENCLAW_ARG_REPORT_AT(17)
    OPENCLAW_ARG_REPORT_AT(18)
    OPENCLAW_ARG_REPORT_AT(19)
    OPENCLAW_ARG_REPORT_AT(20)
    OPENCLAW_ARG_REPORT_AT(21)
    OPENCLAW_ARG_REPORT_AT(22)
    OPENCLAW_ARG_REPORT_AT(23)
    OPENCLAW_ARG_REPORT_AT(24)
    OPENCLAW_ARG_REPORT_AT(25)
    OPENCLAW_ARG_REPORT_AT(26)
    OPENCLAW_ARG_REPORT_AT(27)
    OPENCLAW_ARG_REPORT_AT(28)
    OPENCLAW_ARG_REPORT_AT(29)
    OPENCLAW_ARG_REPORT_AT(30)
    OPENCLAW_ARG_REPORT_AT(31)
    if constexpr (I >= 32) {
        report_argument_past<argument_index<I>, V>();
    }
}

#undef OPENCLAW_ARG_REPORT_AT
#undef OPENCLAW_ARG_REPORT

/// Names the two element types of a mismatch: the compiler prints them with the instantiation
/// of report_element_types (`element_types<float, int>`: the parameter's, then the argument's).
template <class Parameter, class Argument>
struct element_types {};

template <class Types>
constexpr void report_element_types() {
    static_assert(dependent_false<Types>,
                  "set_args: the parameter's and the argument's element types are those of "
                  "element_types<Parameter, Argument> in this instantiation: pass memory of the "
                  "parameter's type, or view a buffer as it with buffer.as<T>() where the sizes "
                  "allow");
}

/// True when argument I (of type A) fits parameter P; otherwise fails to compile with a
/// message naming I and the reason (and, for an element mismatch, both types).
template <std::size_t I, class P, class A>
constexpr bool argument_fits() {
    constexpr Verdict v = verdict<P, A>();
    if constexpr (v != Verdict::ok) {
        report_argument<I, v>();
    }
    if constexpr (v == Verdict::element_mismatch) {
        report_element_types<element_types<typename ParamTraits<P>::element_type,
                                           typename ArgumentTraits<A>::element_type>>();
    }
    return v == Verdict::ok;
}

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
