// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The vocabulary of OpenCL C types that kernel checks share (kernels layer): scalar kinds,
// address spaces, the cl_* host twin of each built-in type and back, and whether a host element
// fits a kernel's type. The run-time checks against the driver's arg info (kernel_args.hpp) and
// the compile-time signature parser (signature.hpp) both speak it.

#include <openclaw/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

enum class AddressSpace : unsigned char { unspecified, private_, global, constant, local, generic };

enum class Scalar : unsigned char {
    none,
    char_,
    uchar,
    short_,
    ushort,
    int_,
    uint,
    long_,
    ulong,
    half,
    float_,
    double_,
    void_,
    bool_,
    size_t_,
    ptrdiff_t_,
    intptr_t_,
    uintptr_t_,
    image,    // image*_t
    sampler,  // sampler_t
    pipe,     // pipe T
    opaque,   // event_t, queue_t, ...: not kernel parameters openclaw can pass
    user,     // a struct, union, enum or typedef name
};

// ---------------------------------------------------------------------------------------------
// Host types: the cl_* type of each OpenCL C built-in type, and back.

template <Scalar S, unsigned Width>
struct HostTypeOf {
    using type = void;
};

#define OPENCLAW_HOST_TYPES(SCALAR, CL)     \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 1> {  \
        using type = CL;                    \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 2> {  \
        using type = CL##2;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 3> {  \
        using type = CL##3;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 4> {  \
        using type = CL##4;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 8> {  \
        using type = CL##8;                 \
    };                                      \
    template <>                             \
    struct HostTypeOf<Scalar::SCALAR, 16> { \
        using type = CL##16;                \
    };

OPENCLAW_HOST_TYPES(char_, cl_char)
OPENCLAW_HOST_TYPES(uchar, cl_uchar)
OPENCLAW_HOST_TYPES(short_, cl_short)
OPENCLAW_HOST_TYPES(ushort, cl_ushort)
OPENCLAW_HOST_TYPES(int_, cl_int)
OPENCLAW_HOST_TYPES(uint, cl_uint)
OPENCLAW_HOST_TYPES(long_, cl_long)
OPENCLAW_HOST_TYPES(ulong, cl_ulong)
OPENCLAW_HOST_TYPES(half, cl_half)
OPENCLAW_HOST_TYPES(float_, cl_float)
OPENCLAW_HOST_TYPES(double_, cl_double)

#undef OPENCLAW_HOST_TYPES

template <Scalar S, unsigned Width>
using host_type_t = typename HostTypeOf<S, Width>::type;

/// An OpenCL C type as the host sees it: a built-in scalar or vector, or a user type.
struct TypeCode {
    Scalar scalar = Scalar::none;
    unsigned char width = 1;
};

template <class T, Scalar S>
consteval unsigned char vector_width_of() {
    // cl_float3 is cl_float4 (3-component vectors are 4 wide in memory): width 4 covers both.
    if constexpr (std::is_same_v<T, host_type_t<S, 1>>) {
        return 1;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 2>>) {
        return 2;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 4>>) {
        return 4;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 8>>) {
        return 8;
    } else if constexpr (std::is_same_v<T, host_type_t<S, 16>>) {
        return 16;
    } else {
        return 0;
    }
}

/// The OpenCL C type whose host twin is T: cl_uint -> uint, cl_float4 -> float4; classes and
/// enums are user types. Plain `char` counts as OpenCL's char (signed, like cl_char), and the
/// other host spellings of the same integer (long long for cl_long) are accepted by size.
template <class T>
consteval TypeCode host_type_code() {
    if constexpr (std::is_same_v<T, char>) {
        return {Scalar::char_, 1};
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 8 &&
                         !std::is_same_v<T, cl_long> && !std::is_same_v<T, cl_ulong>) {
        return {std::is_signed_v<T> ? Scalar::long_ : Scalar::ulong, 1};
    } else {
        constexpr Scalar candidates[] = {Scalar::char_,  Scalar::uchar,  Scalar::short_,
                                         Scalar::ushort, Scalar::int_,   Scalar::uint,
                                         Scalar::long_,  Scalar::ulong,  Scalar::half,
                                         Scalar::float_, Scalar::double_};
        constexpr unsigned char widths[] = {
            vector_width_of<T, Scalar::char_>(),  vector_width_of<T, Scalar::uchar>(),
            vector_width_of<T, Scalar::short_>(), vector_width_of<T, Scalar::ushort>(),
            vector_width_of<T, Scalar::int_>(),   vector_width_of<T, Scalar::uint>(),
            vector_width_of<T, Scalar::long_>(),  vector_width_of<T, Scalar::ulong>(),
            vector_width_of<T, Scalar::half>(),   vector_width_of<T, Scalar::float_>(),
            vector_width_of<T, Scalar::double_>()};
        for (std::size_t i = 0; i < std::size(candidates); ++i) {
            if (widths[i] != 0) {
                return {candidates[i], widths[i]};  // cl_half is cl_ushort: ushort comes first
            }
        }
        return {Scalar::user, 1};
    }
}

constexpr std::size_t scalar_size(Scalar scalar) noexcept {
    switch (scalar) {
        case Scalar::char_:
        case Scalar::uchar:
            return 1;
        case Scalar::short_:
        case Scalar::ushort:
        case Scalar::half:
            return 2;
        case Scalar::int_:
        case Scalar::uint:
        case Scalar::float_:
            return 4;
        case Scalar::long_:
        case Scalar::ulong:
        case Scalar::double_:
            return 8;
        default:
            return 0;
    }
}

/// Bytes of a built-in type on the device (3-component vectors take 4 components' room).
constexpr std::size_t builtin_size(Scalar scalar, unsigned width) noexcept {
    return scalar_size(scalar) * (width == 3 ? 4 : width);
}

constexpr std::string_view scalar_name(Scalar scalar) noexcept {
    switch (scalar) {
        case Scalar::char_:
            return "char";
        case Scalar::uchar:
            return "uchar";
        case Scalar::short_:
            return "short";
        case Scalar::ushort:
            return "ushort";
        case Scalar::int_:
            return "int";
        case Scalar::uint:
            return "uint";
        case Scalar::long_:
            return "long";
        case Scalar::ulong:
            return "ulong";
        case Scalar::half:
            return "half";
        case Scalar::float_:
            return "float";
        case Scalar::double_:
            return "double";
        default:
            return "";
    }
}

/// Whether a host element of `host` type (`host_size` bytes) fits a kernel's type `kernel` (its
/// scalar and vector width). Names the driver reports that are not built-in types (typedefs,
/// structs) cannot be compared with a host type, so they fit: only a provable difference is a
/// mismatch.
constexpr bool element_fits(TypeCode host, std::size_t host_size, TypeCode kernel) noexcept {
    switch (kernel.scalar) {
        case Scalar::user:
        case Scalar::void_:
        case Scalar::none:
            return true;
        case Scalar::image:
        case Scalar::sampler:
        case Scalar::pipe:
        case Scalar::opaque:
            return false;
        default:
            break;
    }
    if (scalar_size(kernel.scalar) == 0) {
        return true;  // bool, size_t...: the driver's compiler already refused the kernel
    }
    if (host.scalar == Scalar::user) {
        // A host struct standing for a built-in type (struct Vec4 for float4) must match in size.
        return host_size == builtin_size(kernel.scalar, kernel.width);
    }
    const bool same_scalar = host.scalar == kernel.scalar ||
                             (kernel.width == 1 && host.width == 1 &&
                              ((host.scalar == Scalar::ushort && kernel.scalar == Scalar::half) ||
                               (host.scalar == Scalar::half && kernel.scalar == Scalar::ushort)));
    const bool same_width = host.width == kernel.width || (host.width == 4 && kernel.width == 3);
    return same_scalar && same_width;
}

/// "cl_float4", or "a 12-byte user type" for classes.
inline std::string host_type_name(TypeCode code, std::size_t size) {
    if (code.scalar == Scalar::user || scalar_name(code.scalar).empty()) {
        return concat("T (a ", size, "-byte class or enum)");
    }
    return code.width == 1 ? concat("cl_", scalar_name(code.scalar))
                           : concat("cl_", scalar_name(code.scalar), static_cast<int>(code.width));
}

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
