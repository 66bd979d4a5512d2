// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/kernel.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/kernels/source_parser.hpp>
#include <openclaw/kernel.hpp>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE std::shared_ptr<const KernelDescription> KernelDescription::of(
    cl_kernel kernel, bool with_arg_info, Version platform, OnError on_error, bool fresh) {
    Relay step(on_error);
    auto description = std::make_shared<KernelDescription>();
    description->name = get_info<cl_kernel, CL_KERNEL_FUNCTION_NAME>(step, kernel);
    description->context = get_info<cl_kernel, CL_KERNEL_CONTEXT>(step, kernel);
    description->arg_count = get_info<cl_kernel, CL_KERNEL_NUM_ARGS>(step, kernel);
    description->clonable = CL_TARGET_OPENCL_VERSION >= 210 && platform >= Version{2, 1};
    description->svm = CL_TARGET_OPENCL_VERSION >= 200 && platform >= Version{2, 0};
    if (step.failed()) {
        return nullptr;
    }
    description->args.resize(description->arg_count);
    for (std::size_t i = 0; with_arg_info && i < description->args.size(); ++i) {
        description->args[i] = query_arg_info(kernel, static_cast<cl_uint>(i), step);
        if (step.failed()) {
            return nullptr;
        }
        if (!description->args[i].known()) {
            break;  // drivers answer alike for every argument of a kernel
        }
        description->arg_info = true;
    }
    if (fresh) {
        const cl_program program = get_info<cl_kernel, CL_KERNEL_PROGRAM>(step, kernel);
        const std::vector<cl_device_id> devices =
            step.failed() ? std::vector<cl_device_id>{}
                          : get_info<cl_program, CL_PROGRAM_DEVICES>(step, program);
        for (const cl_device_id device : devices) {
            const cl_ulong own =
                get_info<KernelWorkGroupInfo, CL_KERNEL_LOCAL_MEM_SIZE>(step, kernel, device);
            if (step.failed()) {
                return nullptr;
            }
            description->local_own = own > description->local_own ? static_cast<std::size_t>(own)
                                                                  : description->local_own;
        }
        if (step.failed()) {
            return nullptr;
        }
        // The body's writes, where the program has source.
        const std::string source = get_info<cl_program, CL_PROGRAM_SOURCE>(step, program);
        if (step.failed()) {
            return nullptr;
        }
        if (!source.empty() && !scan_body_writes(source, description->name, description->written)) {
            description->written.clear();
        }
    }
    return description;
}

OPENCLAW_INLINE bool scan_body_writes(std::string_view source, std::string_view name,
                                      std::vector<WrittenParam>& written) {
    const KernelIndex index = index_kernels(source, name);
    // Heap-held: a signature of max_kernel_params parameters is too large for some threads' stacks.
    const auto sig =
        std::make_unique<Signature>(parse_kernel_signature<max_kernel_params>(source, name, index));
    if (!sig->ok() || sig->count > max_kernel_params) {
        return false;
    }
    const auto directives = std::make_unique<DirectiveWords>(directive_words(source));
    std::array<std::size_t, max_kernel_params> at{};
    (void)body_uses(*sig, name, index, *directives, &at);
    written.assign(sig->count, WrittenParam{});
    for (std::size_t i = 0; i < sig->count; ++i) {
        const ParamDecl& decl = sig->params[i];
        if (at[i] != 0 && decl.space == AddressSpace::global && decl.pointers > 0 &&
            !decl.is_const) {
            written[i].line = static_cast<std::size_t>(line_column(source, at[i] - 1).line);
            written[i].name = std::string(sig->name_of(i));
        }
    }
    return true;
}

OPENCLAW_INLINE bool verify_writes(const KernelDescription& info, const HostParam* params,
                                   std::size_t count, OnError on_error) {
    for (std::size_t i = 0; i < count && i < info.written.size(); ++i) {
        const WrittenParam& written = info.written[i];
        if (written.line == 0 || params[i].kind != ParamKind::in) {
            continue;
        }
        const std::string element = host_type_name(params[i].element, params[i].element_size);
        fail(on_error, CL_INVALID_KERNEL_ARGS, "clCreateKernel",
             concat("kernel \"", info.name, "\", argument ", i, " (\"", written.name,
                    "\"): the C++ signature declares ", host_param_name(params[i]),
                    ", but the kernel writes through the pointer (line ", written.line,
                    " of the program's source): declare InOut<", element, "> (Out<", element,
                    "> if it never reads the old values)"));
        return false;
    }
    return true;
}

OPENCLAW_INLINE Handle<cl_kernel> create_kernel(cl_program program, std::string_view name,
                                                OnError on_error) {
    if (name.find('\0') != std::string_view::npos) {
        fail(on_error, CL_INVALID_KERNEL_NAME, "clCreateKernel",
             concat("kernel name \"", name.substr(0, name.find('\0')), "\\0",
                    name.substr(name.find('\0') + 1),
                    "\" holds a null character (no OpenCL C name does)"));
        return {};
    }
    const std::string terminated(name);
    cl_int code = CL_SUCCESS;
    cl_kernel raw = clCreateKernel(program, terminated.c_str(), &code);
    raw = created_or_null(raw, code);
    if (!check(code, "clCreateKernel", on_error, [&] {
            std::string detail = concat("kernel \"", name, "\"");
            if (code == CL_INVALID_KERNEL_NAME) {
                detail += ": no kernel of that name in the program ";
                detail += describe_safely([&](OnError quiet) {
                    std::string known = "(it has:";
                    const std::string all =
                        get_info<cl_program, CL_PROGRAM_KERNEL_NAMES>(quiet, program);
                    std::size_t start = 0;
                    while (start < all.size()) {
                        std::size_t end = all.find(';', start);
                        end = end == std::string::npos ? all.size() : end;
                        if (end > start) {
                            known += concat(" \"", std::string_view(all).substr(start, end - start),
                                            "\"");
                        }
                        start = end + 1;
                    }
                    return known + ")";
                });
            } else if (code == CL_INVALID_PROGRAM_EXECUTABLE) {
                detail += ": the program is not built";
            }
            return detail;
        })) {
        return {};
    }
    return Handle<cl_kernel>::adopt(raw);
}

OPENCLAW_INLINE Version platform_version_of(cl_program program, OnError on_error) {
    Relay step(on_error);
    const auto ids = get_info<cl_program, CL_PROGRAM_DEVICES>(step, program);
    if (step.failed() || ids.empty()) {
        return {};
    }
    return Device::retain(ids.front(), step).platform(step).version(step);
}

OPENCLAW_INLINE Handle<cl_kernel> clone_kernel(cl_kernel kernel, std::string_view name,
                                               bool& unsupported, OnError on_error) {
#if CL_TARGET_OPENCL_VERSION >= 210
    cl_int code = CL_SUCCESS;
    cl_kernel raw = clCloneKernel(kernel, &code);
    raw = created_or_null(raw, code);
    if (code == CL_INVALID_OPERATION) {
        unsupported = true;
        return {};
    }
    if (!check(code, "clCloneKernel", on_error, [&] { return concat("kernel \"", name, "\""); })) {
        return {};
    }
    return Handle<cl_kernel>::adopt(raw);
#else
    (void)kernel;
    (void)name;
    (void)on_error;
    unsupported = true;
    return {};
#endif
}

}  // namespace detail

OPENCLAW_INLINE detail::MadeKernel KernelBase::copy_of(bool& cloned, OnError on_error) const {
    if (!handle_) {
        refuse_empty("clCloneKernel", on_error);
        return {};
    }
    if (description_->clonable) {
        bool unsupported = false;
        auto copy = detail::clone_kernel(get(), description_->name, unsupported, on_error);
        if (copy) {
            cloned = true;
            return {std::move(copy), description_, non_uniform_};
        }
        if (!unsupported) {
            return {};
        }
    }
    detail::Relay step(on_error);
    const cl_program program = detail::get_info<cl_kernel, CL_KERNEL_PROGRAM>(step, get());
    if (step.failed()) {
        return {};
    }
    auto fresh = detail::create_kernel(program, description_->name, on_error);
    if (!fresh) {
        return {};
    }
    return {std::move(fresh), description_, non_uniform_};
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::refuse_empty(const char* call,
                                                                           OnError on_error) {
    detail::refuse_empty(on_error, CL_INVALID_KERNEL, call, "kernel");
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::set_failed(cl_int code, cl_uint index,
                                                                         std::size_t size,
                                                                         const char* call,
                                                                         OnError on_error) const {
    if (!handle_) {
        return refuse_empty(call, on_error);
    }
    std::string detail =
        detail::concat("argument ", index, " of kernel \"", description_->name, "\"");
    if (code == CL_INVALID_ARG_SIZE) {
        detail += detail::concat(": the kernel's parameter is not ", size,
                                 " bytes (the C++ type's size)");
    } else if (code == CL_INVALID_MEM_OBJECT) {
        detail += ": the buffer is not a valid memory object of the kernel's context";
    } else if (code == CL_INVALID_ARG_INDEX) {
        detail += detail::concat(": the kernel has ", description_->arg_count, " parameters");
    }
    detail::fail(on_error, code, call, std::move(detail));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::empty_argument(
    cl_uint index, const char* what, OnError on_error) const {
    if (!handle_) {
        return refuse_empty("clSetKernelArg", on_error);
    }
    detail::fail(on_error, CL_INVALID_ARG_VALUE, "clSetKernelArg",
                 detail::concat("argument ", index, " of kernel \"", description_->name,
                                "\" is an empty (default-constructed or moved-from) ", what));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::foreign_argument(
    cl_uint index, const char* what, OnError on_error) const {
    if (!handle_) {
        return refuse_empty("clSetKernelArg", on_error);
    }
    const bool vowel =
        what[0] == 'a' || what[0] == 'e' || what[0] == 'i' || what[0] == 'o' || what[0] == 'u';
    detail::fail(on_error, CL_INVALID_CONTEXT, "clSetKernelArg",
                 detail::concat("argument ", index, " of kernel \"", description_->name, "\" is ",
                                vowel ? "an " : "a ", what, " of another context"));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::unset_argument(
    cl_uint index, std::size_t count, OnError on_error) const {
    detail::fail(
        on_error, CL_INVALID_KERNEL_ARGS, "clEnqueueNDRangeKernel",
        detail::concat("kernel \"", description_ ? description_->name : std::string(),
                       "\": argument ", index, " (of ", count,
                       ") is not set: call set_args (or set_arg<", index, ">) before the launch"));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::shared_between_threads(
    OnError on_error) const {
    detail::fail(on_error, CL_INVALID_OPERATION, "clSetKernelArg",
                 detail::concat("kernel \"", description_ ? description_->name : std::string(),
                                "\": another thread is setting its arguments or launching it at "
                                "the same time (a Kernel and its copies share one cl_kernel and "
                                "its argument values): give each thread kernel.clone()"));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::launched_while_setting(
    OnError on_error) const {
    detail::fail(on_error, CL_INVALID_OPERATION, "clEnqueueNDRangeKernel",
                 detail::concat("kernel \"", description_ ? description_->name : std::string(),
                                "\": another thread is setting its arguments while this launch "
                                "reads them (a Kernel and its copies share one cl_kernel and its "
                                "argument values): give each thread kernel.clone()"));
    return false;
}

[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::local_refused(
    cl_uint index, std::size_t count, std::size_t element_size, OnError on_error) const {
    if (!handle_) {
        return refuse_empty("clSetKernelArg", on_error);
    }
    detail::fail(on_error, count == 0 ? CL_INVALID_ARG_VALUE : CL_INVALID_ARG_SIZE,
                 "clSetKernelArg",
                 detail::concat("argument ", index, " of kernel \"", description_->name,
                                "\" is LocalMem of ", count, " elements of ", element_size,
                                count == 0 ? " bytes: it needs at least one element"
                                           : " bytes, which overflows size_t"));
    return false;
}

OPENCLAW_INLINE bool KernelBase::set_svm(cl_uint index, const void* pointer,
                                         OnError on_error) const {
#if CL_TARGET_OPENCL_VERSION >= 200
    if (!handle_ || !description_->svm) [[unlikely]] {
        if (!handle_) {
            return refuse_empty("clSetKernelArgSVMPointer", on_error);
        }
        // clSetKernelArgSVMPointer is not called on a platform older than OpenCL 2.0.
        detail::fail(on_error, CL_INVALID_OPERATION, "clSetKernelArgSVMPointer",
                     detail::concat("argument ", index, " of kernel \"", description_->name,
                                    "\": the platform predates OpenCL 2.0, which has no shared "
                                    "virtual memory"));
        return false;
    }
    const cl_int code = clSetKernelArgSVMPointer(get(), index, pointer);
    if (code != CL_SUCCESS) [[unlikely]] {
        return set_failed(code, index, sizeof(void*), "clSetKernelArgSVMPointer", on_error);
    }
    return true;
#else
    (void)index;
    (void)pointer;
    detail::fail(on_error, CL_INVALID_OPERATION, "clSetKernelArgSVMPointer",
                 "openclaw was compiled for OpenCL 1.2 (CL_TARGET_OPENCL_VERSION < 200)");
    return false;
#endif
}

OPENCLAW_END_NAMESPACE
