// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kernel<Params...>: a kernel whose C++ signature is part of its type. set_args(args...) checks
// every argument against its parameter at compile time (count, element type, buffer access,
// narrowing) and calls clSetKernelArg once per argument; nothing is allocated or queried.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/params.hpp>
#include <openclaw/program.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

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

    static bool program_non_uniform_groups(cl_kernel raw) {
        return Program::retain(detail::get_info<cl_kernel, CL_KERNEL_PROGRAM>(raw))
            .non_uniform_groups();
    }

    /// clSetKernelArg with a message naming the argument and the kernel on failure.
    void set_raw(cl_uint index, std::size_t size, const void* value) const {
        const cl_int code = clSetKernelArg(get(), index, size, value);
        if (code != CL_SUCCESS) [[unlikely]] {
            set_failed(code, index, size);
        }
    }

    [[noreturn, gnu::noinline, gnu::cold]] void set_failed(cl_int code, cl_uint index,
                                                           std::size_t size) const {
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
        throw Error(code, "clSetKernelArg", std::move(detail));
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

    /// Creates the kernel `name` of a built program. Throws if there is none of that name or
    /// the OpenCL C declaration has a different number of parameters than Params.
    Kernel(const Program& program, std::string_view name)
        : KernelBase(create(program, name), program.non_uniform_groups()) {
        check_arity();
    }

    /// Takes ownership of `raw` (also if this throws); its parameter count must match Params.
    [[nodiscard]] static Kernel adopt(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::adopt(raw);
        const bool non_uniform = program_non_uniform_groups(raw);
        return Kernel(std::move(handle), non_uniform);
    }
    [[nodiscard]] static Kernel retain(cl_kernel raw) {
        auto handle = detail::Handle<cl_kernel>::retain(raw);
        const bool non_uniform = program_non_uniform_groups(raw);
        return Kernel(std::move(handle), non_uniform);
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
            const cl_mem mem = arg.get();
            if (mem == nullptr) [[unlikely]] {
                empty_argument(index, "an empty (default-constructed or moved-from) buffer");
            }
            if (arg.context_handle() != context_handle()) [[unlikely]] {
                foreign_argument(index);
            }
            set_raw(index, sizeof(mem), &mem);
        } else if constexpr (detail::is_local_mem<Arg>) {
            using T = typename detail::ParamTraits<Param>::element_type;
            if (arg.count == 0) [[unlikely]] {
                empty_argument(index, "LocalMem of 0 elements");
            }
            set_raw(index, arg.count * sizeof(T), nullptr);
        } else {
            const Param value(arg);
            set_raw(index, sizeof(Param), &value);
        }
    }
};

}  // namespace openclaw
