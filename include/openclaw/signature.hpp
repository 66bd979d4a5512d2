// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Kernel signatures read from OpenCL C source (a side header: the signature wing).
// program.kernel<source, "name">() turns a declaration, parsed at compile time by
// detail/kernels/source_parser.hpp, into the Kernel<...> it describes, and kernel_t<source, "name">
// names that type; a signature it cannot type is a compile error naming the kernel and the
// parameter.

#include <openclaw/config.hpp>
#include <openclaw/detail/kernels/source_parser.hpp>
#include <openclaw/detail/kernels/types.hpp>
#include <openclaw/error.hpp>
#include <openclaw/image.hpp>
#include <openclaw/params.hpp>
#include <openclaw/program.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// The host type of a user type that kernel signatures name (a struct, union, enum or typedef
/// name). Specialise it next to the host twin of the type, with the name the signature uses
/// (without `struct`):
///
///     template <> struct openclaw::opencl_type<"Particle"> { using type = Particle; };
///
/// A `typedef float real;` or a type macro such as `#define REAL float` can be mapped the same
/// way (`using type = cl_float;`).
template <FixedString Name>
struct opencl_type {};

/// The host type of a type name in one typing of a kernel source: for a source built once per
/// element type with the type left to the build (`-D T=double`), `program.kernel<source, "reduce",
/// openclaw::type_as<"T", cl_double>>()` types it as built with T = double. It takes precedence
/// over opencl_type for that typing only; the driver's view of the built kernel is checked when
/// the kernel is made, so a build with another -D is reported then.
template <FixedString Name, class T>
struct type_as {
    static constexpr auto name = Name;  ///< the type name in the source (`"T"`)
    using type = T;                     ///< the host type it stands for in this typing
};

namespace detail {

template <class T>
inline constexpr bool is_type_as = false;
template <FixedString Name, class T>
inline constexpr bool is_type_as<type_as<Name, T>> = true;

/// The type_as bindings of one typing.
template <class... As>
struct Bindings {};

/// The host type Bindings B gives type name Name (void when none does).
template <FixedString Name, class B>
struct bound {
    using type = void;
};
template <FixedString Name, class A, class... Rest>
struct bound<Name, Bindings<A, Rest...>> {
    using type = std::conditional_t<A::name.view() == Name.view(), typename A::type,
                                    typename bound<Name, Bindings<Rest...>>::type>;
};
template <FixedString Name, class B>
using bound_t = typename bound<Name, B>::type;

// ---------------------------------------------------------------------------------------------
// Compile time: from a parsed signature to Kernel<...>, and the reports when that fails.

/// The pieces of a compile-time report; the compiler prints them as template arguments, e.g.
/// `kernel_name<'a', 'd', 'd'>`, `parameter<'n'>`, `at_line_column<3, 17>`, `near<'R', 'E'>`.
template <char... Chars>
struct kernel_name {};
template <char... Chars>
struct parameter {};
template <char... Chars>
struct near {};
template <int Line, int Column>
struct at_line_column {};

template <template <char...> class Wrap, const auto& Sig, std::size_t Begin, std::size_t... I>
consteval auto text_as_chars(std::index_sequence<I...>) {
    return std::type_identity<Wrap<Sig.text[Begin + I]...>>{};
}
template <FixedString Name, std::size_t... I>
consteval auto kernel_name_of(std::index_sequence<I...>) {
    return std::type_identity<kernel_name<Name.chars[I]...>>{};
}

template <template <char...> class Wrap, const auto& Sig, std::size_t Begin, std::size_t Size>
using chars_t = typename decltype(text_as_chars<Wrap, Sig, Begin>(
    std::make_index_sequence<(Size < 40 ? Size : 40)>{}))::type;

// One static_assert per reason; a static_assert message must be a literal, so the kernel's
// name, the parameter and the position travel in the template arguments the compiler prints.
template <SignatureError E, class Kernel, class Parameter, class Position, class Near>
constexpr void report_signature_error() {
    static_assert(E != SignatureError::kernel_not_found,
                  "kernel signature: the source declares no kernel of this name (kernels "
                  "declared through macros are not seen): check the name, or use the "
                  "hand-written program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unexpected_token,
                  "kernel signature: cannot parse the parameter list at the position shown "
                  "(macros in a signature are not expanded): use the hand-written "
                  "program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unterminated,
                  "kernel signature: the parameter list is not closed before the end of the "
                  "source");
    static_assert(E != SignatureError::too_many_parameters,
                  "kernel signature: the kernel has more than 128 parameters");
    static_assert(E != SignatureError::missing_type, "kernel signature: a parameter has no type");
    static_assert(E != SignatureError::forbidden_type,
                  "kernel signature: bool, size_t, ptrdiff_t, intptr_t and uintptr_t are not "
                  "valid kernel parameter types (OpenCL C forbids them: their size differs "
                  "between host and device); use int, uint, long or ulong");
    static_assert(E != SignatureError::image_type,
                  "kernel signature: openclaw has no descriptor for this image or pipe parameter "
                  "(read_only/write_only image2d_t, image3d_t, image2d_array_t and sampler_t "
                  "have one; other image types, read_write images and pipes do not): set it "
                  "with clSetKernelArg on kernel.get()");
    static_assert(E != SignatureError::void_pointer,
                  "kernel signature: a void pointer has no element type; use the hand-written "
                  "program.kernel<Params...>(name) with In<T>/Out<T> of the element you pass");
    static_assert(E != SignatureError::unsupported_type,
                  "kernel signature: this parameter type has no host type in openclaw (long "
                  "long, event_t, queue_t, ...)");
    static_assert(E != SignatureError::pointer_address_space,
                  "kernel signature: a pointer parameter of a kernel must point to __global, "
                  "__constant or __local memory");
    static_assert(E != SignatureError::value_address_space,
                  "kernel signature: a by-value parameter cannot be __global, __constant or "
                  "__local (did you mean a pointer?)");
    static_assert(E != SignatureError::pointer_to_pointer,
                  "kernel signature: pointers to pointers cannot be kernel parameters");
    static_assert(E != SignatureError::array_parameter,
                  "kernel signature: arrays cannot be kernel parameters; pass a buffer");
    static_assert(E != SignatureError::conflicting_declarations,
                  "kernel signature: the kernel is declared more than once with different "
                  "parameters (#if/#ifdef are not evaluated); use the hand-written "
                  "program.kernel<Params...>(name)");
    static_assert(E != SignatureError::unknown_type,
                  "kernel signature: no host type for this OpenCL C type name; specialise "
                  "openclaw::opencl_type<\"Name\"> with `using type = YourHostType;` (or, for "
                  "a name the build defines, add openclaw::type_as<\"Name\", HostType>)");
    static_assert(E != SignatureError::macro_type,
                  "kernel signature: the parameter's type is a macro #defined in the source "
                  "(macros are not expanded); specialise openclaw::opencl_type<\"MACRO\"> or use "
                  "the hand-written program.kernel<Params...>(name)");
}

/// The text of a source constant: a char array (its terminator dropped, no strlen), a
/// `const char*` to a literal, a std::string_view, a FixedString.
template <class T>
consteval std::string_view source_text(const T& source) {
    if constexpr (std::is_array_v<T>) {
        constexpr std::size_t size = std::extent_v<T>;
        return std::string_view(source, size > 0 && source[size - 1] == '\0' ? size - 1 : size);
    } else {
        return std::string_view(source);
    }
}

/// The text of Source, computed once per translation unit (a strlen at compile time costs a
/// step per character).
template <const auto& Source>
inline constexpr std::string_view source_text_of = source_text(Source);

/// The kernels of Source, indexed once per translation unit however many of them are typed.
template <const auto& Source>
inline constexpr KernelIndex kernel_index_of = index_kernels(source_text_of<Source>);

/// How many parameters kernel Name of Source has (the parameter at fault included, if any):
/// a first pass that stores none of them, so that signature_of holds exactly those.
template <const auto& Source, FixedString Name>
inline constexpr std::size_t signature_size_of = [] {
    const auto counted =
        parse_kernel_signature<0>(source_text_of<Source>, Name.view(), kernel_index_of<Source>);
    return counted.count + (counted.ok() ? 0 : 1);
}();

/// The signature of kernel Name in Source.
template <const auto& Source, FixedString Name>
inline constexpr BasicSignature<signature_size_of<Source, Name>> signature_of =
    parse_kernel_signature<signature_size_of<Source, Name>>(source_text_of<Source>, Name.view(),
                                                            kernel_index_of<Source>);

/// The identifiers Source's directives name, collected once per translation unit.
template <const auto& Source>
inline constexpr DirectiveWords directive_words_of = directive_words(source_text_of<Source>);

/// How kernel Name of Source uses its non-const `__global` pointers (see body_uses()).
template <const auto& Source, FixedString Name>
inline constexpr auto body_uses_of = body_uses(signature_of<Source, Name>, Name.view(),
                                               kernel_index_of<Source>, directive_words_of<Source>);

template <const auto& Sig, std::size_t I>
consteval FixedString<Sig.params[I].type_size + 1> user_type_name() {
    return FixedString<Sig.params[I].type_size + 1>(Sig.type_of(I));
}

template <FixedString Name>
concept has_opencl_type = requires {
    typename opencl_type<Name>::type;
};

template <const auto& Sig, std::size_t I, class B>
consteval bool has_host_type() {
    constexpr ParamDecl decl = Sig.params[I];
    if constexpr (decl.scalar == Scalar::image || decl.scalar == Scalar::sampler) {
        return true;  // validate_kernel_param let only those with a descriptor through
    } else if constexpr (decl.scalar == Scalar::user) {
        return !std::is_void_v<bound_t<user_type_name<Sig, I>(), B>> ||
               has_opencl_type<user_type_name<Sig, I>()>;
    } else {
        return !std::is_void_v<host_type_t<decl.scalar, decl.width>>;
    }
}

template <const auto& Sig, std::size_t I, class B>
consteval auto element_type() {
    constexpr ParamDecl decl = Sig.params[I];
    if constexpr (decl.scalar == Scalar::user &&
                  !std::is_void_v<bound_t<user_type_name<Sig, I>(), B>>) {
        return std::type_identity<bound_t<user_type_name<Sig, I>(), B>>{};
    } else if constexpr (decl.scalar == Scalar::user) {
        return std::type_identity<typename opencl_type<user_type_name<Sig, I>()>::type>{};
    } else {
        return std::type_identity<host_type_t<decl.scalar, decl.width>>{};
    }
}

template <const auto& Sig, const auto& Uses, std::size_t I, class B>
consteval auto value_or_buffer_type();

constexpr ImageShape image_shape_of(SourceImage image) noexcept {
    return image == SourceImage::image3d         ? ImageShape::image3d
           : image == SourceImage::image2d_array ? ImageShape::image2d_array
                                                 : ImageShape::image2d;
}

template <const auto& Sig, const auto& Uses, std::size_t I, class B>
consteval auto parameter_type() {
    constexpr ParamDecl decl = Sig.params[I];
    if constexpr (decl.scalar == Scalar::image) {
        // The source does not say the pixel format: any image of the shape and access fits.
        constexpr ImageShape shape = image_shape_of(decl.image);
        if constexpr (decl.image_access == ImageAccess::write_only) {
            return std::type_identity<WriteImageOf<shape, pixel::any>>{};
        } else {
            return std::type_identity<ReadImageOf<shape, pixel::any>>{};
        }
    } else if constexpr (decl.scalar == Scalar::sampler) {
        return std::type_identity<SamplerParam>{};
    } else {
        return value_or_buffer_type<Sig, Uses, I, B>();
    }
}

template <const auto& Sig, const auto& Uses, std::size_t I, class B>
consteval auto value_or_buffer_type() {
    constexpr ParamDecl decl = Sig.params[I];
    using Pointee = typename decltype(element_type<Sig, I, B>())::type;
    if constexpr (decl.pointers == 0) {
        return std::type_identity<Pointee>{};
    } else if constexpr (decl.space == AddressSpace::constant) {
        return std::type_identity<Constant<Pointee>>{};
    } else if constexpr (decl.space == AddressSpace::local) {
        return std::type_identity<Local<Pointee>>{};
    } else if constexpr (decl.is_const || Uses[I] == body_reads) {
        return std::type_identity<In<Pointee>>{};
    } else if constexpr (Uses[I] == body_writes) {
        return std::type_identity<Out<Pointee>>{};
    } else if constexpr (Uses[I] == 0) {
        return std::type_identity<In<Pointee>>{};  // not used: any buffer a reader takes
    } else {
        return std::type_identity<Global<Pointee>>{};
    }
}

template <const auto& Sig, class B, std::size_t... I>
consteval std::size_t first_without_host_type(std::index_sequence<I...>) {
    std::size_t first = Sig.count;
    ((first == Sig.count && !has_host_type<Sig, I, B>() ? first = I : first), ...);
    return first;
}

template <const auto& Sig, FixedString Name, SignatureError E, std::size_t Param, Token At>
constexpr void report_at() {
    constexpr LineColumn where = line_column(Sig.text, At.begin);
    constexpr ParamDecl decl = Param < Sig.params.size() ? Sig.params[Param] : ParamDecl{};
    report_signature_error<
        E, typename decltype(kernel_name_of<Name>(std::make_index_sequence<Name.size()>{}))::type,
        chars_t<parameter, Sig, decl.name_begin, decl.name_size>,
        at_line_column<where.line, where.column>, chars_t<near, Sig, At.begin, At.size>>();
}

/// The Kernel<...> that kernel Name of Source declares; on failure a compile-time report and
/// DynamicKernel (whose set_args accepts anything, so that one report is all the user sees).
template <const auto& Sig, const auto& Uses, FixedString Name, class B>
consteval auto source_kernel() {
    if constexpr (!Sig.ok()) {
        report_at<Sig, Name, Sig.error, Sig.error_param, Sig.error_at>();
        return std::type_identity<DynamicKernel>{};
    } else {
        constexpr std::size_t missing =
            first_without_host_type<Sig, B>(std::make_index_sequence<Sig.count>{});
        if constexpr (missing != Sig.count) {
            constexpr ParamDecl decl = Sig.params[missing];
            constexpr bool macro = defines_macro(Sig.text, Sig.type_of(missing));
            constexpr Token type{TokenKind::identifier, decl.type_begin, decl.type_size};
            report_at<Sig, Name, macro ? SignatureError::macro_type : SignatureError::unknown_type,
                      missing, type>();
            return std::type_identity<DynamicKernel>{};
        } else {
            return []<std::size_t... I>(std::index_sequence<I...>) {
                return std::type_identity<
                    Kernel<typename decltype(parameter_type<Sig, Uses, I, B>())::type...>>{};
            }
            (std::make_index_sequence<Sig.count>{});
        }
    }
}

/// The typing of kernel Name of Source with bindings B (Bindings<> for none).
template <const auto& Source, auto Name, class B>
struct SourceKernelOf {
    static constexpr bool is_text = std::is_convertible_v<decltype(Source), std::string_view>;
    static_assert(is_text,
                  "program.kernel<source, name>(): the source must be a constant that converts "
                  "to std::string_view (a char array, a const char* to a literal, a "
                  "std::string_view or a FixedString)");
    static consteval auto kernel() {
        if constexpr (is_text) {
            return source_kernel<signature_of<Source, Name>, body_uses_of<Source, Name>, Name, B>();
        } else {
            return std::type_identity<DynamicKernel>{};
        }
    }
    using type = typename decltype(kernel())::type;
};

template <const auto& Source, auto Name>  // Name: a FixedString (see program.hpp)
struct SourceKernel<Source, Name, void> : SourceKernelOf<Source, Name, Bindings<>> {};
template <const auto& Source, auto Name, class... As>
struct SourceKernel<Source, Name, Bindings<As...>> : SourceKernelOf<Source, Name, Bindings<As...>> {
    static_assert((is_type_as<As> && ...),
                  "program.kernel<source, name, ...>(): after the source and the kernel's name "
                  "come only openclaw::type_as<\"Name\", HostType> bindings");
};

}  // namespace detail

/// The Kernel<...> type that kernel Name of Source declares, e.g.
/// `openclaw::kernel_t<vadd_source, "vector_add">` for a member or a function's return type;
/// type_as bindings after the name type the names a build defines (`-D T=double`).
template <const auto& Source, FixedString Name, class... As>
using kernel_t = typename detail::SourceKernel<Source, Name, detail::Bindings<As...>>::type;

OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
