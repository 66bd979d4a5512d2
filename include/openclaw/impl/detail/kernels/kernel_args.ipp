// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/detail/kernels/kernel_args.hpp>: compiled once into
// the openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/kernels/kernel_args.hpp>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

OPENCLAW_INLINE ArgInfo query_arg_info(cl_kernel kernel, cl_uint index, OnError on_error) {
    ArgInfo info;
    cl_kernel_arg_address_qualifier address = 0;
    if (!arg_info_absent(
            InfoQuery<KernelArgInfo>::get(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                          sizeof(address), &address, nullptr),
            index, "CL_KERNEL_ARG_ADDRESS_QUALIFIER", on_error)) {
        info.known_space = true;
        info.space = address == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? AddressSpace::global
                     : address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? AddressSpace::constant
                     : address == CL_KERNEL_ARG_ADDRESS_LOCAL    ? AddressSpace::local
                                                                 : AddressSpace::private_;
    }
    cl_kernel_arg_type_qualifier qualifier = 0;
    if (!arg_info_absent(InfoQuery<KernelArgInfo>::get(kernel, index, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                                       sizeof(qualifier), &qualifier, nullptr),
                         index, "CL_KERNEL_ARG_TYPE_QUALIFIER", on_error)) {
        info.known_const = true;
        info.is_const = (qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0;
    }
    if (!arg_info_absent(
            InfoQuery<KernelArgInfo>::get(kernel, index, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                          sizeof(info.access), &info.access, nullptr),
            index, "CL_KERNEL_ARG_ACCESS_QUALIFIER", on_error)) {
        info.known_access = true;
    }
    if (!arg_info_absent(query_arg_string(kernel, index, CL_KERNEL_ARG_TYPE_NAME, info.type_name),
                         index, "CL_KERNEL_ARG_TYPE_NAME", on_error) &&
        !info.type_name.empty()) {
        // A name that is not understood is not compared: never a false error.
        info.type = read_type_name(info.type_name);
        info.known_type = info.type.scalar != Scalar::none;
    } else {
        info.type_name.clear();
    }
    if (arg_info_absent(query_arg_string(kernel, index, CL_KERNEL_ARG_NAME, info.name), index,
                        "CL_KERNEL_ARG_NAME", on_error)) {
        info.name.clear();
    }
    return info;
}

OPENCLAW_INLINE std::string host_param_name(const HostParam& param) {
    if (param.kind == ParamKind::image_read || param.kind == ParamKind::image_write) {
        return concat(param.kind == ParamKind::image_read ? "a read_only " : "a write_only ",
                      param.image_type, " of ", param.pixel);
    }
    if (param.kind == ParamKind::sampler) {
        return "SamplerParam (sampler_t)";
    }
    const std::string element = host_type_name(param.element, param.element_size);
    switch (param.kind) {
        case ParamKind::in:
            return concat("In<", element, ">");
        case ParamKind::out:
            return concat("Out<", element, ">");
        case ParamKind::in_out:
            return concat("InOut<", element, ">");
        case ParamKind::global:
            return concat("Global<", element, ">");
        case ParamKind::constant:
            return concat("Constant<", element, ">");
        case ParamKind::local:
            return concat("Local<", element, ">");
        default:
            return element;
    }
}

OPENCLAW_INLINE std::string object_mismatch(const HostParam& param, const ArgInfo& info) {
    if (param.kind == ParamKind::sampler) {
        return !info.known_type || info.type.scalar == Scalar::sampler
                   ? std::string()
                   : "the kernel's parameter is not a sampler_t";
    }
    if (info.known_type && (info.type.scalar != Scalar::image ||
                            info.type_name.find(param.image_type) == std::string::npos)) {
        return concat("the kernel's parameter is not an ", param.image_type);
    }
    if (info.known_access) {
        const bool reads = param.kind == ParamKind::image_read;
        if (info.access == CL_KERNEL_ARG_ACCESS_READ_WRITE) {
            return "read_write image parameters have no openclaw descriptor yet: declare the "
                   "kernel's image read_only or write_only";
        }
        if (info.access ==
            (reads ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY : CL_KERNEL_ARG_ACCESS_READ_ONLY)) {
            return reads ? "the kernel's image is write_only: declare WriteImage2D<Pixel> (or "
                           "WriteImage3D / WriteImage2DArray)"
                         : "the kernel's image is read_only: declare ReadImage2D<Pixel> (or "
                           "ReadImage3D / ReadImage2DArray)";
        }
    }
    return {};
}

OPENCLAW_INLINE std::string param_mismatch(const HostParam& param, const ArgInfo& info) {
    if (param.kind == ParamKind::image_read || param.kind == ParamKind::image_write ||
        param.kind == ParamKind::sampler) {
        return object_mismatch(param, info);
    }
    if (is_unsupported_object(info)) {
        if (info.type.scalar == Scalar::image) {
            return "the kernel's parameter is an image: declare ReadImage2D<Pixel> or "
                   "WriteImage2D<Pixel> (or the 3D / 2D-array forms)";
        }
        if (info.type.scalar == Scalar::sampler) {
            return "the kernel's parameter is a sampler_t: declare SamplerParam";
        }
        return "pipes are not supported by openclaw yet";
    }
    const AddressSpace expected = param.kind == ParamKind::scalar     ? AddressSpace::private_
                                  : param.kind == ParamKind::local    ? AddressSpace::local
                                  : param.kind == ParamKind::constant ? AddressSpace::constant
                                                                      : AddressSpace::global;
    if (info.known_space && info.space != expected) {
        return "the address spaces differ (In/Out/InOut<T> are __global pointers, Constant<T> "
               "__constant, Local<T> __local, other types are passed by value)";
    }
    const bool pointer = param.kind != ParamKind::scalar;
    if (!info.known_space && info.known_type && (info.type.pointers > 0) != pointer) {
        return pointer ? "the kernel takes a value, the C++ signature a pointer"
                       : "the kernel takes a pointer, the C++ signature a value";
    }
    // A const pointer is read only, so a descriptor that says the kernel writes contradicts the
    // kernel. A non-const one allows every descriptor: In<T> says the kernel does not write
    // through it, which the declaration cannot refute (debug builds, which read the driver's
    // description, and release builds, which do not, agree).
    if (info.known_const && expected == AddressSpace::global && param.kind != ParamKind::in &&
        info.is_const) {
        return "the kernel's pointer is const (the kernel only reads through it): declare In<T>";
    }
    if (info.known_type &&
        !element_fits(param.element, param.element_size, {info.type.scalar, info.type.width})) {
        return pointer ? "the element types differ" : "the types differ";
    }
    return {};
}

OPENCLAW_INLINE bool verify_params(std::string_view name, const std::vector<ArgInfo>& infos,
                                   const HostParam* params, std::size_t count, OnError on_error) {
    for (std::size_t i = 0; i < count && i < infos.size(); ++i) {
        const ArgInfo& info = infos[i];
        if (!info.known()) {
            return true;  // no arg info for this kernel (the driver answers alike for all)
        }
        std::string reason = param_mismatch(params[i], info);
        if (!reason.empty()) {
            fail(on_error, CL_INVALID_KERNEL_ARGS, "clCreateKernel",
                 concat("kernel \"", name, "\", argument ", i,
                        info.name.empty() ? std::string() : concat(" (\"", info.name, "\")"),
                        ": the C++ signature declares ", host_param_name(params[i]),
                        ", the kernel declares ", info.declaration(), ": ", reason));
            return false;
        }
    }
    return true;
}

OPENCLAW_INLINE std::string host_arg_name(const HostArg& arg) {
    const std::string element = host_type_name(arg.element, arg.element_size);
    switch (arg.form) {
        case HostArg::Form::buffer:
            return concat("Buffer<", element, ", ", arg.access, ">");
        case HostArg::Form::svm:
            return concat("svm(", arg.kernel_writes ? "" : "const ", element, "*)");
        case HostArg::Form::local:
            return concat("LocalMem<", element, ">");
        default:
            return element;
    }
}

OPENCLAW_INLINE std::string argument_mismatch(const HostArg& arg, const ArgInfo& info,
                                              cl_int& code) {
    code = CL_INVALID_ARG_VALUE;
    if (is_unsupported_object(info)) {
        return "DynamicKernel takes no images, samplers or pipes: type the kernel "
               "(ReadImage2D<Pixel>, SamplerParam) or set it with clSetKernelArg on kernel.get()";
    }
    const bool pointer = arg.form == HostArg::Form::buffer || arg.form == HostArg::Form::svm;
    if (info.known_space) {
        const bool buffer_space =
            info.space == AddressSpace::global || info.space == AddressSpace::constant;
        if (pointer && !buffer_space) {
            return info.space == AddressSpace::local
                       ? "the parameter is __local: pass LocalMem<T>{count}"
                   : arg.form == HostArg::Form::svm
                       ? "the parameter is a value: an SVM pointer cannot be passed"
                       : "the parameter is a value: a buffer cannot be passed";
        }
        if (arg.form == HostArg::Form::local && info.space != AddressSpace::local) {
            return "the parameter is not __local: LocalMem cannot be passed";
        }
        if (arg.form == HostArg::Form::value && info.space != AddressSpace::private_) {
            return info.space == AddressSpace::local
                       ? "the parameter is __local: pass LocalMem<T>{count}"
                       : "the parameter is a __global/__constant pointer: pass a Buffer";
        }
        if (pointer) {
            const bool kernel_only_reads =
                info.space == AddressSpace::constant || (info.known_const && info.is_const);
            if (kernel_only_reads && !arg.kernel_reads) {
                return "the kernel reads this parameter: a WriteOnly buffer cannot be passed, use "
                       "ReadOnly or ReadWrite";
            }
            // A non-const pointer says nothing the driver's description can check: many
            // kernels read their inputs through one, and a ReadOnly buffer is what the program
            // means there. An SVM pointer to const is refused, as it is by the typed kernels.
            if (info.space == AddressSpace::global && info.known_const && !info.is_const &&
                arg.form == HostArg::Form::svm && !arg.kernel_writes) {
                return "the kernel's pointer is not const, so the kernel may write through it: "
                       "an SVM pointer to const cannot be passed";
            }
        }
    } else if (info.known_type && (info.type.pointers > 0) != (arg.form != HostArg::Form::value)) {
        return info.type.pointers > 0 ? "the parameter is a pointer: pass a Buffer or LocalMem"
                                      : "the parameter is a value: pass a value";
    }
    if (info.known_type &&
        !element_fits(arg.element, arg.element_size, {info.type.scalar, info.type.width})) {
        if (arg.form == HostArg::Form::value) {
            const std::size_t size = builtin_size(info.type.scalar, info.type.width);
            if (size != 0 && size != arg.element_size) {
                code = CL_INVALID_ARG_SIZE;
                return concat("the kernel's type takes ", size, " bytes, the argument ",
                              arg.element_size, ": convert it explicitly");
            }
            return "the types differ: convert the argument explicitly";
        }
        return "the element types differ (pass memory of the parameter's type, or view a "
               "buffer as it with buffer.as<T>() where the sizes allow)";
    }
    return {};
}

namespace type_names {

struct Word {
    std::string_view text;
    Scalar scalar;
};

// One-word built-in types other than the vectors.
inline constexpr Word builtins[] = {
    {"char", Scalar::char_},
    {"uchar", Scalar::uchar},
    {"short", Scalar::short_},
    {"ushort", Scalar::ushort},
    {"int", Scalar::int_},
    {"uint", Scalar::uint},
    {"long", Scalar::long_},
    {"ulong", Scalar::ulong},
    {"half", Scalar::half},
    {"float", Scalar::float_},
    {"double", Scalar::double_},
    {"void", Scalar::void_},
    {"bool", Scalar::bool_},
    {"size_t", Scalar::size_t_},
    {"ptrdiff_t", Scalar::ptrdiff_t_},
    {"intptr_t", Scalar::intptr_t_},
    {"uintptr_t", Scalar::uintptr_t_},
    {"sampler_t", Scalar::sampler},
    {"event_t", Scalar::opaque},
    {"queue_t", Scalar::opaque},
    {"clk_event_t", Scalar::opaque},
    {"reserve_id_t", Scalar::opaque},
    {"ndrange_t", Scalar::opaque},
};

// Words that qualify a type without changing which it is.
inline constexpr std::string_view qualifiers[] = {
    "volatile",    "restrict",   "__restrict",   "__restrict__", "global",
    "__global",    "local",      "__local",      "constant",     "__constant",
    "private",     "__private",  "generic",      "__generic",    "read_only",
    "__read_only", "write_only", "__write_only", "read_write",   "__read_write"};

inline Scalar builtin(std::string_view word) noexcept {
    for (const Word& entry : builtins) {
        if (entry.text == word) {
            return entry.scalar;
        }
    }
    return Scalar::none;
}

inline bool is_qualifier(std::string_view word) noexcept {
    for (std::string_view entry : qualifiers) {
        if (entry == word) {
            return true;
        }
    }
    return false;
}

inline bool identifier_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace type_names

OPENCLAW_INLINE ArgType read_type_name(std::string_view name) {
    ArgType type;
    ArgType unknown;
    Scalar scalar = Scalar::none;
    bool is_unsigned = false;
    bool is_signed = false;
    bool integer = false;  // the type is spelled with char, short, int or long words
    bool tagged = false;   // after struct, union or enum
    bool pipe = false;
    std::size_t at = 0;
    while (at < name.size()) {
        const char c = name[at];
        if (c == ' ' || c == '\t') {
            ++at;
            continue;
        }
        if (c == '*') {
            if (scalar == Scalar::none && !is_unsigned && !is_signed) {
                return unknown;  // a pointer to nothing known
            }
            ++type.pointers;
            ++at;
            continue;
        }
        if (!type_names::identifier_char(c) || type.pointers > 0) {
            return unknown;  // punctuation (a function pointer, an array), or words after `*`
        }
        const std::size_t begin = at;
        while (at < name.size() && type_names::identifier_char(name[at])) {
            ++at;
        }
        const std::string_view word = name.substr(begin, at - begin);
        if (word == "const") {
            type.is_const = true;
        } else if (type_names::is_qualifier(word)) {
        } else if (word == "unsigned" || word == "signed") {
            (word == "unsigned" ? is_unsigned : is_signed) = true;
        } else if (word == "char" || word == "short" || word == "int" || word == "long") {
            // "long int" and "short int" are long and short; "long long" has no OpenCL C type.
            if (tagged || (scalar != Scalar::none && !integer)) {
                return unknown;
            }
            if (word == "int") {
                scalar = scalar == Scalar::none ? Scalar::int_ : scalar;
            } else if (scalar == Scalar::none || scalar == Scalar::int_) {
                scalar = word == "char"    ? Scalar::char_
                         : word == "short" ? Scalar::short_
                                           : Scalar::long_;
            } else {
                return unknown;
            }
            integer = true;
        } else if (word == "struct" || word == "union" || word == "enum") {
            tagged = true;
        } else if (word == "pipe") {
            pipe = true;
        } else if (word == "__attribute__" || scalar != Scalar::none || is_unsigned || is_signed) {
            return unknown;  // an attribute, or a second type word
        } else {
            type.type_begin = begin;
            type.type_size = word.size();
            scalar = tagged ? Scalar::user : type_names::builtin(word);
            if (scalar == Scalar::none && word.size() > 7 && word.substr(0, 5) == "image" &&
                word.substr(word.size() - 2) == "_t") {
                scalar = Scalar::image;
            }
            if (scalar == Scalar::none) {
                // A vector (a built-in stem and 2, 3, 4, 8 or 16), else a typedef name.
                const bool sixteen = word.size() > 2 && word.substr(word.size() - 2) == "16";
                const std::size_t digits = sixteen ? 2 : 1;
                const char last = word.back();
                const bool width =
                    sixteen || last == '2' || last == '3' || last == '4' || last == '8';
                const Scalar stem = width && word.size() > digits
                                        ? type_names::builtin(word.substr(0, word.size() - digits))
                                        : Scalar::none;
                if (stem != Scalar::none && scalar_size(stem) != 0) {
                    scalar = stem;
                    type.width = static_cast<unsigned char>(sixteen ? 16 : last - '0');
                } else {
                    scalar = Scalar::user;
                }
            }
        }
    }
    if (is_unsigned) {
        scalar = scalar == Scalar::char_                            ? Scalar::uchar
                 : scalar == Scalar::short_                         ? Scalar::ushort
                 : scalar == Scalar::long_                          ? Scalar::ulong
                 : scalar == Scalar::none || scalar == Scalar::int_ ? Scalar::uint
                                                                    : Scalar::none;
    } else if (is_signed && scalar == Scalar::none) {
        scalar = Scalar::int_;
    }
    if (pipe) {
        scalar = Scalar::pipe;
    }
    type.scalar = scalar;
    return scalar == Scalar::none ? unknown : type;
}

}  // namespace detail
OPENCLAW_END_NAMESPACE
