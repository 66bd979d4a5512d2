// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/dynamic_kernel.hpp>: compiled once into the
// openclaw library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/dynamic_kernel.hpp>

#include <string>

OPENCLAW_BEGIN_NAMESPACE

OPENCLAW_INLINE std::string DynamicKernel::signature() const {
    if (!has_arg_info()) {
        return detail::concat("(", arity(),
                              " parameters; no arg info: build with -cl-kernel-arg-info)");
    }
    std::string text = "(";
    for (const detail::ArgInfo& param : description().args) {
        text += detail::concat(text.size() > 1 ? ", " : "", param.declaration());
    }
    return text + ")";
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void DynamicKernel::wrong_count(
    std::size_t given, OnError on_error) const {
    if (get() == nullptr) {
        refuse_empty("clSetKernelArg", on_error);
        return;
    }
    detail::fail(on_error, CL_INVALID_KERNEL_ARGS, "clSetKernelArg",
                 detail::concat("set_args: kernel \"", description().name, "\" takes ", arity(),
                                " arguments, ", given, " given ", signature()));
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE void DynamicKernel::index_past_end(
    cl_uint index, OnError on_error) const {
    detail::fail(on_error, CL_INVALID_ARG_INDEX, "clSetKernelArg",
                 detail::concat("argument ", index, " of kernel \"", description().name,
                                "\": the kernel has ", arity(), " parameters"));
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool DynamicKernel::argument_failed(
    cl_uint index, const detail::HostArg& host, cl_int code, const std::string& reason,
    OnError on_error) const {
    const detail::ArgInfo& param = description().args[index];
    detail::fail(
        on_error, code, "clSetKernelArg",
        detail::concat(
            "argument ", index,
            param.name.empty() ? std::string() : detail::concat(" (\"", param.name, "\")"),
            " of kernel \"", description().name, "\": the kernel declares ", param.declaration(),
            ", the argument is ", detail::host_arg_name(host), ": ", reason));
    return false;
}

OPENCLAW_END_NAMESPACE
