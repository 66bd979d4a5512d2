// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// The driver's view of each kernel argument (clGetKernelArgInfo, for programs built with
// -cl-kernel-arg-info) and its comparison with the C++ side (kernels layer): a typed kernel's
// parameters when it is made, a DynamicKernel's arguments when they are set. Driver type names are
// read by a small reader of their own; the full OpenCL C parser (signature.hpp) is not needed.

#include <openclaw/detail/base/info.hpp>
#include <openclaw/detail/kernels/types.hpp>
#include <openclaw/error.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/params.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// A type name as the driver reports it ("float4*", "struct Particle*", "uint"), read.
struct ArgType {
    Scalar scalar = Scalar::none;  // none: not understood (then never compared)
    unsigned char width = 1;       // vector components
    unsigned char pointers = 0;    // levels of `*`
    bool is_const = false;         // a `const` in the name
    std::size_t type_begin = 0;    // the type's spelling in the name; for user types the name
    std::size_t type_size = 0;
};

/// Reads a driver's type name: qualifiers, the built-in types and their vectors, images,
/// samplers, pipes and other opaque types, and user types (struct/union/enum tags or typedef
/// names). Anything else (two type words, an attribute, a function pointer) reads as
/// Scalar::none.
ArgType read_type_name(std::string_view name);

/// Why a parameter's declaration, as the driver describes it, does not fit a typed kernel's C++
/// parameter; declared here, defined below.
struct ArgInfo;
struct HostParam;
struct HostArg;
std::string host_param_name(const HostParam& param);
std::string object_mismatch(const HostParam& param, const ArgInfo& info);
std::string param_mismatch(const HostParam& param, const ArgInfo& info);
std::string host_arg_name(const HostArg& arg);
std::string argument_mismatch(const HostArg& arg, const ArgInfo& info, cl_int& code);
/// Compares each C++ parameter with the driver's arg info of kernel `name`; fails with
/// CL_INVALID_KERNEL_ARGS naming the first that differs (and returns false).
bool verify_params(std::string_view name, const std::vector<ArgInfo>& infos,
                   const HostParam* params, std::size_t count, OnError on_error);

/// What the driver reports about one kernel argument. Parts it does not report stay unknown:
/// everything for programs built without -cl-kernel-arg-info, names on some drivers.
struct ArgInfo {
    bool known_space = false;
    AddressSpace space = AddressSpace::unspecified;
    bool known_const = false;
    bool is_const = false;
    bool known_access = false;
    cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;  // images (and pipes)
    bool known_type = false;
    ArgType type;           // read from type_name
    std::string type_name;  // as reported, e.g. "float4*"
    std::string name;       // empty when not reported

    bool known() const noexcept { return known_space || known_type; }

    /// The declaration as far as it is known, e.g. "__global const float* a".
    std::string declaration() const {
        std::string text;
        if (known_space) {
            text += space == AddressSpace::global     ? "__global "
                    : space == AddressSpace::constant ? "__constant "
                    : space == AddressSpace::local    ? "__local "
                                                      : "";
        }
        if (known_const && is_const && (space == AddressSpace::global || !known_space)) {
            text += "const ";
        }
        text += known_type
                    ? type_name
                    : std::string(known_space && space != AddressSpace::private_ ? "pointer"
                                                                                 : "parameter");
        if (!name.empty()) {
            text += ' ';
            text += name;
        }
        return text;
    }
};

inline cl_int query_arg_string(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param,
                               std::string& out) {
    std::size_t bytes = 0;
    cl_int code = InfoQuery<KernelArgInfo>::get(kernel, index, param, 0, nullptr, &bytes);
    if (code != CL_SUCCESS) {
        return code;
    }
    out.assign(bytes, '\0');
    if (bytes != 0) {
        code = InfoQuery<KernelArgInfo>::get(kernel, index, param, bytes, out.data(), nullptr);
    }
    while (!out.empty() && out.back() == '\0') {
        out.pop_back();
    }
    return code;
}

/// True for the codes that mean "this driver keeps no such information" (the program was built
/// without -cl-kernel-arg-info, or the driver omits this part): the part stays unknown. Any other
/// failure (out of memory, an invalid kernel) is an error of its own, reported to `on_error`
/// (the part then stays unknown too).
inline bool arg_info_absent(cl_int code, cl_uint index, const char* what, OnError on_error) {
    if (code == CL_SUCCESS) {
        return false;
    }
    if (code != CL_KERNEL_ARG_INFO_NOT_AVAILABLE && code != CL_INVALID_VALUE) {
        fail(on_error, code, "clGetKernelArgInfo", concat(what, " of argument ", index));
    }
    return true;
}

/// Reads what the driver says about argument `index`. A part the driver does not keep (see
/// arg_info_absent) stays unknown: the checks that need it are skipped.
ArgInfo query_arg_info(cl_kernel kernel, cl_uint index, OnError on_error = {});

/// A typed kernel's C++ parameter, as far as the comparison with the driver needs it.
struct HostParam {
    ParamKind kind = ParamKind::scalar;
    TypeCode element;
    std::size_t element_size = 0;
    const char* image_type = nullptr;  // "image2d_t"... for image parameters
    const char* pixel = nullptr;       // the pixel format's name, for image parameters
};

template <class P>
consteval HostParam host_param() {
    using Traits = ParamTraits<P>;
    if constexpr (Traits::kind == ParamKind::image_read || Traits::kind == ParamKind::image_write) {
        return {Traits::kind, {}, 0, Traits::kernel_type, Traits::pixel_name};
    } else if constexpr (Traits::kind == ParamKind::sampler) {
        return {Traits::kind, {}, 0, nullptr, nullptr};
    } else {
        using E = typename Traits::element_type;
        return {Traits::kind, host_type_code<E>(), sizeof(E)};
    }
}

inline bool is_unsupported_object(const ArgInfo& info) noexcept {
    return info.known_type &&
           (info.type.scalar == Scalar::image || info.type.scalar == Scalar::sampler ||
            info.type.scalar == Scalar::pipe || info.type.scalar == Scalar::opaque);
}

/// Why `info` (the driver's view) does not fit `param` (the C++ signature's); empty if it fits
/// or if too little is known to tell.
/// param_mismatch for image and sampler parameters.

/// An argument given to DynamicKernel::set_args, as far as the comparison with the driver
/// needs it.
struct HostArg {
    enum class Form { value, local, buffer, svm };
    Form form = Form::value;
    bool kernel_reads = false;  // for buffers: what the access tag allows kernels
    bool kernel_writes = false;
    const char* access = "";
    TypeCode element;
    std::size_t element_size = 0;
};

/// What ArgumentTraits says of argument type A, for the comparison with the driver.
template <class A>
consteval HostArg host_arg() {
    using Traits = ArgumentTraits<A>;
    constexpr HostArg::Form form = Traits::form == ArgForm::memory  ? HostArg::Form::buffer
                                   : Traits::form == ArgForm::svm   ? HostArg::Form::svm
                                   : Traits::form == ArgForm::local ? HostArg::Form::local
                                                                    : HostArg::Form::value;
    using E = std::remove_cv_t<typename Traits::element_type>;
    return {form,
            Traits::kernel_reads,
            Traits::kernel_writes,
            Traits::access_name,
            host_type_code<E>(),
            sizeof(typename Traits::element_type)};
}

/// Why argument `arg` does not fit the kernel's parameter as the driver describes it (empty if it
/// fits or too little is known); `code` receives the OpenCL code to report.

}  // namespace detail
OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/detail/kernels/kernel_args.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
