// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kernel<Params...>: a kernel whose C++ signature is part of its type. set_args(args...) checks
// every argument against its parameter at compile time (count, element type, buffer access,
// narrowing) and calls clSetKernelArg once per argument; nothing is allocated or queried.
// DynamicKernel: a kernel without a C++ signature, whose arguments are checked at run time.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/params.hpp>
#include <openclaw/program.hpp>
#include <openclaw/signature.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

/// What every kernel has, whatever its signature: the handle, the name, launch properties.
class KernelBase {
  public:
    /// The kernel's function name.
    std::string name() const { return info<CL_KERNEL_FUNCTION_NAME>(); }
    /// The number of parameters the kernel's OpenCL C declaration has.
    cl_uint arg_count() const { return info<CL_KERNEL_NUM_ARGS>(); }
    Context context() const { return Context::retain(info<CL_KERNEL_CONTEXT>()); }
    Program program() const { return Program::retain(info<CL_KERNEL_PROGRAM>()); }
    /// The largest work-group this kernel can be launched with on `device`.
    std::size_t work_group_size(const Device& device) const {
        return work_group_info<CL_KERNEL_WORK_GROUP_SIZE>(device);
    }
    /// True when its program allows non-uniform work-groups (see Program::non_uniform_groups).
    bool non_uniform_groups() const noexcept { return non_uniform_; }

    template <cl_kernel_info Param>
    detail::info_t<cl_kernel, Param> info() const {
        return detail::get_info<cl_kernel, Param>(get());
    }
    template <cl_kernel_work_group_info Param>
    detail::info_t<detail::KernelWorkGroupInfo, Param> work_group_info(const Device& device) const {
        return detail::get_info<detail::KernelWorkGroupInfo, Param>(get(), device.get());
    }

    cl_kernel get() const noexcept { return handle_.get(); }
    /// The raw context the kernel belongs to (not retained: the kernel keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  protected:
    KernelBase() = default;
    KernelBase(detail::Handle<cl_kernel> handle, bool non_uniform)
        : handle_(std::move(handle)),
          context_(detail::get_info<cl_kernel, CL_KERNEL_CONTEXT>(handle_.get())),
          non_uniform_(non_uniform) {}

    static detail::Handle<cl_kernel> create(const Program& program, std::string_view name) {
        const std::string terminated(name);
        cl_int code = CL_SUCCESS;
        cl_kernel raw = clCreateKernel(program.get(), terminated.c_str(), &code);
        detail::check(code, "clCreateKernel", [&] {
            std::string detail = detail::concat("kernel \"", name, "\"");
            if (code == CL_INVALID_KERNEL_NAME) {
                detail += ": no kernel of that name in the program ";
                detail += detail::describe_safely([&] {
                    std::string known = "(it has:";
                    for (const std::string& kernel : program.kernel_names()) {
                        known += detail::concat(" \"", kernel, "\"");
                    }
                    return known + ")";
                });
            } else if (code == CL_INVALID_PROGRAM_EXECUTABLE) {
                detail += ": the program is not built";
            }
            return detail;
        });
        return detail::Handle<cl_kernel>::adopt(raw);
    }

    static Program program_of(cl_kernel raw) {
        return Program::retain(detail::get_info<cl_kernel, CL_KERNEL_PROGRAM>(raw));
    }

    /// clSetKernelArg with a message naming the argument and the kernel on failure.
    void set_raw(cl_uint index, std::size_t size, const void* value) const {
        const cl_int code = clSetKernelArg(get(), index, size, value);
        if (code != CL_SUCCESS) [[unlikely]] {
            set_failed(code, index, size, "clSetKernelArg");
        }
    }

    [[noreturn, gnu::noinline, gnu::cold]] void set_failed(cl_int code, cl_uint index,
                                                           std::size_t size,
                                                           const char* call) const {
        refuse_if_empty();
        std::string detail =
            detail::concat("argument ", index, " of kernel ", detail::quoted_kernel_name(get()));
        if (code == CL_INVALID_ARG_SIZE) {
            detail += detail::concat(": the kernel's parameter is not ", size,
                                     " bytes (the C++ type's size)");
        } else if (code == CL_INVALID_MEM_OBJECT) {
            detail += ": the buffer is not a valid memory object of the kernel's context";
        } else if (code == CL_INVALID_ARG_INDEX) {
            detail += ": ";
            detail += detail::describe_safely(
                [&] { return detail::concat("the kernel has ", arg_count(), " parameters"); });
        }
        throw Error(code, call, std::move(detail));
    }

    /// Refuses an empty (default-constructed or moved-from) argument before the driver sees it.
    [[noreturn, gnu::noinline, gnu::cold]] void empty_argument(cl_uint index,
                                                               const char* what) const {
        detail::throw_error(CL_INVALID_ARG_VALUE, "clSetKernelArg",
                            detail::concat("argument ", index, " of kernel ",
                                           detail::quoted_kernel_name(get()), " is ", what));
    }

    [[noreturn, gnu::noinline, gnu::cold]] void foreign_argument(cl_uint index) const {
        refuse_if_empty();
        detail::throw_error(
            CL_INVALID_CONTEXT, "clSetKernelArg",
            detail::concat("argument ", index, " of kernel ", detail::quoted_kernel_name(get()),
                           " is a buffer of another context"));
    }

    /// Sets a buffer argument after the checks every kernel makes (not empty, same context, not
    /// mapped in a way `use` conflicts with); returns it for the launch-time mapping check.
    template <class T, class Access>
    cl_mem set_buffer(cl_uint index, const Buffer<T, Access>& buffer, detail::Use use) const {
        const cl_mem mem = buffer.get();
        if (mem == nullptr) [[unlikely]] {
            empty_argument(index, "an empty (default-constructed or moved-from) buffer");
        }
        if (buffer.context_handle() != context_handle()) [[unlikely]] {
            foreign_argument(index);
        }
        detail::map_registry.check(mem, use, "clSetKernelArg");
        set_raw(index, sizeof(mem), &mem);
        return mem;
    }

#if CL_TARGET_OPENCL_VERSION >= 200
    void set_svm(cl_uint index, const void* pointer) const {
        const cl_int code = clSetKernelArgSVMPointer(get(), index, pointer);
        if (code != CL_SUCCESS) [[unlikely]] {
            set_failed(code, index, sizeof(void*), "clSetKernelArgSVMPointer");
        }
    }
#endif

    void set_local(cl_uint index, std::size_t count, std::size_t element_size) const {
        if (count == 0) [[unlikely]] {
            empty_argument(index, "LocalMem of 0 elements");
        }
        set_raw(index, count * element_size, nullptr);
    }

  private:
    // An empty kernel fails every argument: say so, rather than blame the argument.
    void refuse_if_empty() const {
        if (!handle_) {
            detail::throw_error(CL_INVALID_KERNEL, "clSetKernelArg",
                                "the kernel is empty (default-constructed or moved-from)");
        }
    }

    detail::Handle<cl_kernel> handle_;
    detail::ResetOnMove<cl_context> context_;
    bool non_uniform_ = false;
};

template <class... Params>
class Kernel : public KernelBase {
    static_assert(((detail::param_problem<Params>() != detail::ParamProblem::boolean) && ...),
                  "Kernel<Params...>: bool is not a valid kernel parameter type (OpenCL C forbids "
                  "bool, size_t and ptrdiff_t parameters); use cl_int or cl_uchar");
    static_assert(((detail::param_problem<Params>() != detail::ParamProblem::pointer) && ...),
                  "Kernel<Params...>: raw pointers are not kernel parameters; declare buffers "
                  "as In<T>, Out<T>, InOut<T>, Constant<T> or Local<T>");
    static_assert(((detail::param_problem<Params>() != detail::ParamProblem::cv_or_reference) &&
                   ...),
                  "Kernel<Params...>: parameter types must not be const, volatile or references; "
                  "say In<T> for a const buffer");
    static_assert(
        ((detail::param_problem<Params>() != detail::ParamProblem::not_trivially_copyable) && ...),
        "Kernel<Params...>: parameter (and element) types must be trivially copyable");

  public:
    static constexpr std::size_t arity = sizeof...(Params);

    /// An empty kernel; assign one from Program::kernel before use.
    Kernel() = default;

    /// Creates the kernel `name` of a built program. Throws if there is none of that name, if
    /// the OpenCL C declaration has a different number of parameters than Params, or (when the
    /// program was built with -cl-kernel-arg-info) if a parameter differs from the driver's
    /// description of it: address space, const, type.
    Kernel(const Program& program, std::string_view name)
        : Kernel(create(program, name), program) {}

    /// Takes ownership of `raw` (also if this throws); its parameters must match Params.
    [[nodiscard]] static Kernel adopt(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::adopt(raw);
        return Kernel(std::move(handle), program_of(raw));
    }
    [[nodiscard]] static Kernel retain(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::retain(raw);
        return Kernel(std::move(handle), program_of(raw));
    }

    /// Sets every argument, checked at compile time against Params. Returns the kernel, so
    /// `queue.enqueue(kernel.set_args(a, b, n), NDRange{n})` binds and launches in one line.
    template <class... Args>
    Kernel& set_args(const Args&... args) {
        static_assert(sizeof...(Args) == sizeof...(Params),
                      "set_args: wrong number of arguments: pass exactly one argument per "
                      "kernel parameter");
        if constexpr (sizeof...(Args) == sizeof...(Params)) {
            set_all(std::index_sequence_for<Args...>{}, args...);
        }
        return *this;
    }

    /// A kernel of its own for another thread (a kernel's argument values may not be set from
    /// two threads at once). On OpenCL 2.1+ platforms clCloneKernel copies the argument values
    /// set so far; on older ones the clone is made afresh from the program and its arguments
    /// must be set again.
    [[nodiscard]] Kernel clone() const {
#if CL_TARGET_OPENCL_VERSION >= 210
        const Program source = program();
        if (source.context().devices().front().platform().version() >= Version{2, 1}) {
            cl_int code = CL_SUCCESS;
            cl_kernel raw = clCloneKernel(get(), &code);
            if (code == CL_SUCCESS) {
                Kernel copy(detail::Handle<cl_kernel>::adopt(raw), non_uniform_groups());
                copy.bound_ = bound_;  // the argument values came along
                return copy;
            }
            if (code != CL_INVALID_OPERATION) {
                detail::throw_error(code, "clCloneKernel",
                                    detail::concat("kernel \"", name(), "\""));
            }
        }
        return Kernel(source, name());
#else
        return Kernel(program(), name());
#endif
    }

    /// Throws CL_INVALID_OPERATION if a buffer bound to this kernel is mapped in a way the
    /// kernel's use of it conflicts with (Queue::enqueue calls it; free when nothing is mapped).
    void check_unmapped() const {
        if (detail::map_registry.any()) [[unlikely]] {
            for (std::size_t i = 0; i < bound_.size(); ++i) {
                if (bound_[i] != nullptr) {
                    detail::map_registry.check(bound_[i], uses_[i], "clEnqueueNDRangeKernel");
                }
            }
        }
    }

    /// Sets argument `Index` alone, with the same compile-time checks.
    template <std::size_t Index, class Arg>
    Kernel& set_arg(const Arg& arg) {
        static_assert(Index < sizeof...(Params), "set_arg: the index is past the last parameter");
        if constexpr (Index < sizeof...(Params)) {
            using Param = std::tuple_element_t<Index, std::tuple<Params...>>;
            if constexpr (detail::argument_fits<Index, Param, Arg>()) {
                set_one<Param>(static_cast<cl_uint>(Index), arg);
            }
        }
        return *this;
    }

  private:
    Kernel(detail::Handle<cl_kernel> handle, bool non_uniform)
        : KernelBase(std::move(handle), non_uniform) {
        check_arity();
    }

    Kernel(detail::Handle<cl_kernel> handle, const Program& program)
        : Kernel(std::move(handle), program.non_uniform_groups()) {
        if (program.kernel_arg_info()) {
            static constexpr detail::HostParam params[] = {detail::host_param<Params>()...,
                                                           detail::HostParam{}};
            detail::verify_params(get(), params, sizeof...(Params));
        }
    }

    void check_arity() const {
        const cl_uint actual = arg_count();
        if (actual != sizeof...(Params)) {
            detail::throw_error(
                CL_INVALID_KERNEL_ARGS, "clCreateKernel",
                detail::concat("kernel ", detail::quoted_kernel_name(get()), " has ", actual,
                               " parameters, the C++ signature declares ", sizeof...(Params)));
        }
    }

    template <std::size_t... I, class... Args>
    void set_all(std::index_sequence<I...>, const Args&... args) {
        constexpr bool all_fit = (detail::argument_fits<I, Params, Args>() && ...);
        if constexpr (all_fit) {
            (set_one<Params>(static_cast<cl_uint>(I), args), ...);
        }
    }

    template <class Param, class Arg>
    void set_one(cl_uint index, const Arg& arg) {
        if constexpr (detail::is_buffer<Arg>) {
            bound_[index] = set_buffer(index, arg, uses_[index]);
        } else if constexpr (detail::is_svm_pointer<Arg>) {
#if CL_TARGET_OPENCL_VERSION >= 200
            set_svm(index, arg.pointer);
            bound_[index] = nullptr;
#else
            static_assert(sizeof(Arg) == 0,
                          "SVM kernel arguments need CL_TARGET_OPENCL_VERSION >= 200");
#endif
        } else if constexpr (detail::is_local_mem<Arg>) {
            set_local(index, arg.count, sizeof(typename detail::ParamTraits<Param>::element_type));
        } else {
            const Param value(arg);
            set_raw(index, sizeof(Param), &value);
        }
    }

    static constexpr std::array<detail::Use, sizeof...(Params)> uses_ = {
        detail::use_of<Params>()...};
    // The buffers last bound through this object, for the launch-time mapping check.
    std::array<cl_mem, sizeof...(Params)> bound_{};
};

namespace detail {

/// What DynamicKernel::set_args accepts: buffers, SVM pointers, LocalMem and plain values.
template <class A>
concept DynamicArgument = is_buffer<A> || is_svm_pointer<A> || is_local_mem<A> ||
    (std::is_trivially_copyable_v<A> && !std::is_pointer_v<A> && !std::is_same_v<A, bool> &&
     !std::is_array_v<A>);

}  // namespace detail

/// A kernel without a C++ signature, for sources that are only known at run time. set_args
/// checks at run time what the compiler cannot: the argument count always; with arg info (the
/// program built with -cl-kernel-arg-info, the default without NDEBUG) also buffer vs value vs
/// __local, a buffer's access against const, element and value types, and value sizes. Without
/// arg info the driver still refuses a value of the wrong size (CL_INVALID_ARG_SIZE).
class DynamicKernel : public KernelBase {
  public:
    /// An empty kernel; assign one from Program::kernel before use.
    DynamicKernel() = default;

    /// Creates the kernel `name` of a built program and reads the driver's description of its
    /// parameters (once, here: set_args queries nothing).
    DynamicKernel(const Program& program, std::string_view name)
        : DynamicKernel(create(program, name), program) {}

    /// Takes ownership of `raw` (also if this throws).
    [[nodiscard]] static DynamicKernel adopt(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::adopt(raw);
        return DynamicKernel(std::move(handle), program_of(raw));
    }
    [[nodiscard]] static DynamicKernel retain(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::retain(raw);
        return DynamicKernel(std::move(handle), program_of(raw));
    }

    /// The number of parameters.
    std::size_t arity() const noexcept { return params_.size(); }
    /// True when the driver described the parameters, so set_args checks more than the count.
    bool has_arg_info() const noexcept { return arg_info_; }
    /// The parameter list as the driver describes it, e.g. "(__global const float* a, uint n)";
    /// without arg info only the count is known.
    std::string signature() const {
        if (!arg_info_) {
            return detail::concat("(", params_.size(),
                                  " parameters; no arg info: build with -cl-kernel-arg-info)");
        }
        std::string text = "(";
        for (const detail::ArgInfo& param : params_) {
            text += detail::concat(text.size() > 1 ? ", " : "", param.declaration());
        }
        return text + ")";
    }

    /// Sets every argument: buffers, LocalMem<T>{count} and values. Throws Error, before any
    /// argument is set, for the wrong count or an argument that provably does not fit.
    template <class... Args>
    DynamicKernel& set_args(const Args&... args) {
        static_assert((detail::DynamicArgument<Args> && ...),
                      "DynamicKernel::set_args: pass buffers, LocalMem<T>{count}, svm(p) or "
                      "trivially copyable values (not pointers, arrays or bool)");
        if (sizeof...(Args) != params_.size()) [[unlikely]] {
            wrong_count(sizeof...(Args));
        }
        if (arg_info_) {
            cl_uint index = 0;
            (check_argument<Args>(index++), ...);
        }
        cl_uint index = 0;
        (set_one(index++, args), ...);
        return *this;
    }

    /// Sets argument `index` alone, with the same checks.
    template <class Arg>
    DynamicKernel& set_arg(cl_uint index, const Arg& arg) {
        static_assert(detail::DynamicArgument<Arg>,
                      "DynamicKernel::set_arg: pass a buffer, LocalMem<T>{count}, svm(p) or a "
                      "trivially copyable value (not a pointer, array or bool)");
        if (index >= params_.size()) [[unlikely]] {
            detail::throw_error(
                CL_INVALID_ARG_INDEX, "clSetKernelArg",
                detail::concat("argument ", index, " of kernel \"", name(), "\": the kernel has ",
                               params_.size(), " parameters"));
        }
        if (arg_info_) {
            check_argument<Arg>(index);
        }
        set_one(index, arg);
        return *this;
    }

    /// A kernel of its own for another thread, as Kernel::clone(): on OpenCL 2.1+ platforms it
    /// keeps the argument values set so far, on older ones they must be set again.
    [[nodiscard]] DynamicKernel clone() const {
#if CL_TARGET_OPENCL_VERSION >= 210
        const Program source = program();
        if (source.context().devices().front().platform().version() >= Version{2, 1}) {
            cl_int code = CL_SUCCESS;
            cl_kernel raw = clCloneKernel(get(), &code);
            if (code == CL_SUCCESS) {
                return DynamicKernel(detail::Handle<cl_kernel>::adopt(raw), *this);
            }
            if (code != CL_INVALID_OPERATION) {
                detail::throw_error(code, "clCloneKernel",
                                    detail::concat("kernel \"", name(), "\""));
            }
        }
        return DynamicKernel(source, name());
#else
        return DynamicKernel(program(), name());
#endif
    }

    /// Throws CL_INVALID_OPERATION if a buffer bound to this kernel is mapped in a way the
    /// kernel's use of it conflicts with (Queue::enqueue calls it; free when nothing is mapped).
    void check_unmapped() const {
        if (detail::map_registry.any()) [[unlikely]] {
            for (std::size_t i = 0; i < bound_.size(); ++i) {
                if (bound_[i].mem != nullptr) {
                    detail::map_registry.check(bound_[i].mem, bound_[i].use,
                                               "clEnqueueNDRangeKernel");
                }
            }
        }
    }

  private:
    struct Bound {
        cl_mem mem = nullptr;
        detail::Use use = detail::Use::read;
    };

    // A clone: the same description, and the argument values (so the bound buffers) came along.
    DynamicKernel(detail::Handle<cl_kernel> handle, const DynamicKernel& original)
        : KernelBase(std::move(handle), original.non_uniform_groups()),
          params_(original.params_),
          bound_(original.bound_),
          arg_info_(original.arg_info_) {}

    DynamicKernel(detail::Handle<cl_kernel> handle, const Program& program)
        : KernelBase(std::move(handle), program.non_uniform_groups()) {
        params_.resize(arg_count());
        bound_.resize(params_.size());
        if (program.kernel_arg_info()) {
            for (std::size_t i = 0; i < params_.size(); ++i) {
                params_[i] = detail::query_arg_info(get(), static_cast<cl_uint>(i));
                if (!params_[i].known()) {
                    break;  // drivers answer alike for every argument of a kernel
                }
                arg_info_ = true;
            }
        }
    }

    template <class Arg>
    void check_argument(cl_uint index) const {
        static constexpr detail::HostArg host = detail::host_arg<Arg>();
        cl_int code = CL_SUCCESS;
        std::string reason = detail::argument_mismatch(host, params_[index], code);
        if (!reason.empty()) [[unlikely]] {
            argument_failed(index, host, code, reason);
        }
    }

    // How the kernel uses a buffer: from its declaration where the driver described it, else
    // from the buffer's access (a buffer kernels may write is taken as written).
    detail::Use use_of(cl_uint index, bool kernel_writes) const {
        const detail::ArgInfo& param = params_[index];
        if (param.known_space && param.space == detail::AddressSpace::constant) {
            return detail::Use::read;
        }
        if (param.known_space && param.known_const) {
            return param.is_const ? detail::Use::read : detail::Use::write;
        }
        return kernel_writes ? detail::Use::write : detail::Use::read;
    }

    template <class Arg>
    void set_one(cl_uint index, const Arg& arg) {
        if constexpr (detail::is_buffer<Arg>) {
            const detail::Use use = use_of(index, Arg::access_type::kernel_writes);
            bound_[index] = {set_buffer(index, arg, use), use};
        } else if constexpr (detail::is_svm_pointer<Arg>) {
#if CL_TARGET_OPENCL_VERSION >= 200
            set_svm(index, arg.pointer);
            bound_[index] = {};
#else
            static_assert(sizeof(Arg) == 0,
                          "SVM kernel arguments need CL_TARGET_OPENCL_VERSION >= 200");
#endif
        } else if constexpr (detail::is_local_mem<Arg>) {
            set_local(index, arg.count, sizeof(typename Arg::value_type));
        } else {
            set_raw(index, sizeof(Arg), &arg);
        }
    }

    [[noreturn, gnu::noinline, gnu::cold]] void wrong_count(std::size_t given) const {
        detail::throw_error(
            CL_INVALID_KERNEL_ARGS, "clSetKernelArg",
            detail::concat("set_args: kernel \"", name(), "\" takes ", params_.size(),
                           " arguments, ", given, " given ", signature()));
    }

    [[noreturn, gnu::noinline, gnu::cold]] void argument_failed(cl_uint index,
                                                                const detail::HostArg& host,
                                                                cl_int code,
                                                                const std::string& reason) const {
        const detail::ArgInfo& param = params_[index];
        detail::throw_error(
            code, "clSetKernelArg",
            detail::concat(
                "argument ", index,
                param.name.empty() ? std::string() : detail::concat(" (\"", param.name, "\")"),
                " of kernel \"", name(), "\": the kernel declares ", param.declaration(),
                ", the argument is ", detail::host_arg_name(host), ": ", reason));
    }

    std::vector<detail::ArgInfo> params_;
    // The buffers last bound through this object, for the launch-time mapping check (sized
    // once: set_args allocates nothing).
    std::vector<Bound> bound_;
    bool arg_info_ = false;
};

inline DynamicKernel Program::kernel(std::string_view name) const {
    return DynamicKernel(*this, name);
}

}  // namespace openclaw
