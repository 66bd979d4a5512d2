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

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace openclaw {

namespace detail {

/// What the driver says about one kernel of a program: read when the program makes the kernel
/// for the first time, then shared by every Kernel made from it, so that making another copy
/// queries nothing.
struct KernelDescription {
    std::string name;
    cl_context context = nullptr;
    cl_uint arg_count = 0;
    bool arg_info = false;      // args[i] holds the driver's description of parameter i
    bool clonable = false;      // clCloneKernel may be called (OpenCL 2.1+ platform and headers)
    bool svm = false;           // SVM arguments may be set (OpenCL 2.0+ platform and headers)
    std::vector<ArgInfo> args;  // one per parameter; unknown without arg info

    /// Reads it from `kernel`; arg info only when its program was built with
    /// -cl-kernel-arg-info. nullptr if a query failed (reported through OnError).
    static std::shared_ptr<const KernelDescription> of(cl_kernel kernel, bool with_arg_info,
                                                       Version platform) {
        const FailureWatch watch;
        auto description = std::make_shared<KernelDescription>();
        description->name = get_info<cl_kernel, CL_KERNEL_FUNCTION_NAME>(kernel);
        description->context = get_info<cl_kernel, CL_KERNEL_CONTEXT>(kernel);
        description->arg_count = get_info<cl_kernel, CL_KERNEL_NUM_ARGS>(kernel);
        description->clonable = CL_TARGET_OPENCL_VERSION >= 210 && platform >= Version{2, 1};
        description->svm = CL_TARGET_OPENCL_VERSION >= 200 && platform >= Version{2, 0};
        description->args.resize(description->arg_count);
        for (std::size_t i = 0; with_arg_info && i < description->args.size(); ++i) {
            description->args[i] = query_arg_info(kernel, static_cast<cl_uint>(i));
            if (!description->args[i].known()) {
                break;  // drivers answer alike for every argument of a kernel
            }
            description->arg_info = true;
        }
        if (watch.failed()) {
            return nullptr;
        }
        return description;
    }
};

/// A kernel made for one request: its own handle (its own argument values) and the shared
/// description.
struct MadeKernel {
    Handle<cl_kernel> handle;
    std::shared_ptr<const KernelDescription> description;
};

/// clCreateKernel with a message listing the program's kernels when the name is unknown.
inline Handle<cl_kernel> create_kernel(cl_program program, std::string_view name) {
    const std::string terminated(name);
    cl_int code = CL_SUCCESS;
    cl_kernel raw = clCreateKernel(program, terminated.c_str(), &code);
    if (!check(code, "clCreateKernel", [&] {
            std::string detail = concat("kernel \"", name, "\"");
            if (code == CL_INVALID_KERNEL_NAME) {
                detail += ": no kernel of that name in the program ";
                detail += describe_safely([&] {
                    std::string known = "(it has:";
                    const std::string all = get_info<cl_program, CL_PROGRAM_KERNEL_NAMES>(program);
                    std::size_t start = 0;
                    while (start < all.size()) {
                        const std::size_t end = std::min(all.find(';', start), all.size());
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

/// The OpenCL version of the platform `program` was built on.
inline Version platform_version_of(cl_program program) {
    const auto ids = get_info<cl_program, CL_PROGRAM_DEVICES>(program);
    return ids.empty() ? Version{} : Device::retain(ids.front()).platform().version();
}

/// clCloneKernel: a new kernel with `kernel`'s argument values. Empty, with `unsupported` set,
/// when the driver or openclaw's headers have no clCloneKernel (then a kernel is made afresh).
inline Handle<cl_kernel> clone_kernel(cl_kernel kernel, std::string_view name, bool& unsupported) {
#if CL_TARGET_OPENCL_VERSION >= 210
    cl_int code = CL_SUCCESS;
    cl_kernel raw = clCloneKernel(kernel, &code);
    if (code == CL_INVALID_OPERATION) {
        unsupported = true;
        return {};
    }
    if (!check(code, "clCloneKernel", [&] { return concat("kernel \"", name, "\""); })) {
        return {};
    }
    return Handle<cl_kernel>::adopt(raw);
#else
    (void)kernel;
    (void)name;
    unsupported = true;
    return {};
#endif
}

/// A kernel `name` of `program` for one request. The program makes each name once: the first
/// request creates a prototype and reads its description; every request gets a clone of the
/// prototype (clCloneKernel, under the program's lock: it must not run concurrently on one
/// kernel), whose argument values are its own. Before OpenCL 2.1 kernels cannot be cloned, and
/// each request creates one, still without queries. Empty on failure (reported via OnError).
#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
OPENCLAW_INLINE MadeKernel make_kernel(const Program& program, std::string_view name) {
    ProgramState* state = program.state_.get();
    if (!program || state == nullptr) {
        fail(CL_INVALID_PROGRAM, "clCreateKernel",
             concat("kernel \"", name,
                    "\": the program is empty (default-constructed or moved-from)"));
        return {};
    }
    const std::lock_guard lock(state->mutex);
    const FailureWatch watch;
    if (!state->platform_known) {
        state->platform_version = platform_version_of(program.get());
        if (watch.failed()) {
            return {};
        }
        state->platform_known = true;
    }
    auto entry = std::find_if(state->kernels.begin(), state->kernels.end(),
                              [&](const CachedKernel& cached) { return cached.name == name; });
    if (entry == state->kernels.end()) {
        Handle<cl_kernel> first = create_kernel(program.get(), name);
        if (!first) {
            return {};
        }
        auto description = KernelDescription::of(first.get(), state->flags.kernel_arg_info,
                                                 state->platform_version);
        if (!description) {
            return {};
        }
        if (!description->clonable) {
            state->kernels.push_back({std::string(name), {}, description});
            return {std::move(first), std::move(description)};
        }
        state->kernels.push_back({std::string(name), std::move(first), std::move(description)});
        entry = std::prev(state->kernels.end());
    }
    if (entry->prototype) {
        bool unsupported = false;
        Handle<cl_kernel> copy = clone_kernel(entry->prototype.get(), entry->name, unsupported);
        if (copy) {
            return {std::move(copy), entry->description};
        }
        if (!unsupported) {
            return {};
        }
        entry->prototype.reset();  // the driver cannot clone: create each kernel from now on
    }
    Handle<cl_kernel> fresh = create_kernel(program.get(), name);
    if (!fresh) {
        return {};
    }
    return {std::move(fresh), entry->description};
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

/// False for a temporary buffer, image or sampler passed to set_args: the kernel holds only the
/// raw handle (clSetKernelArg keeps no reference), so the temporary is released when the
/// statement ends, before the launch; NVIDIA's driver then reports CL_INVALID_KERNEL_ARGS, PoCL
/// reads freed memory.
template <class A>
inline constexpr bool outlives_the_call =
    std::is_lvalue_reference_v<A> ||
    !(is_buffer<std::remove_cvref_t<A>> || is_image<std::remove_cvref_t<A>> ||
      std::is_same_v<std::remove_cvref_t<A>, Sampler>);

}  // namespace detail

/// What every kernel has, whatever its signature: the handle, the name, launch properties.
class KernelBase {
  public:
    /// The kernel's function name.
    std::string name(OnError = {}) const {
        return description_ ? description_->name : info<CL_KERNEL_FUNCTION_NAME>();
    }
    /// The number of parameters the kernel's OpenCL C declaration has.
    cl_uint arg_count(OnError = {}) const {
        return description_ ? description_->arg_count : info<CL_KERNEL_NUM_ARGS>();
    }
    /// The kernel's context (CL_KERNEL_CONTEXT), retained.
    Context context(OnError = {}) const { return Context::retain(info<CL_KERNEL_CONTEXT>()); }
    /// The program the kernel was made from (CL_KERNEL_PROGRAM), retained.
    Program program(OnError = {}) const { return Program::retain(info<CL_KERNEL_PROGRAM>()); }
    /// The largest work-group this kernel can be launched with on `device`.
    std::size_t work_group_size(const Device& device, OnError = {}) const {
        return work_group_info<CL_KERNEL_WORK_GROUP_SIZE>(device);
    }
    /// True when its program allows non-uniform work-groups (see Program::non_uniform_groups).
    bool non_uniform_groups() const noexcept { return non_uniform_; }

    /// Any clGetKernelInfo parameter, with its C++ type from openclaw's info table.
    template <cl_kernel_info Param>
    detail::info_t<cl_kernel, Param> info(OnError = {}) const {
        return detail::get_info<cl_kernel, Param>(get());
    }
    /// Any clGetKernelWorkGroupInfo parameter for `device`, typed.
    template <cl_kernel_work_group_info Param>
    detail::info_t<detail::KernelWorkGroupInfo, Param> work_group_info(const Device& device,
                                                                       OnError = {}) const {
        return detail::get_info<detail::KernelWorkGroupInfo, Param>(get(), device.get());
    }

    /// The raw cl_kernel (not retained; null when empty).
    cl_kernel get() const noexcept { return handle_.get(); }
    /// The raw context the kernel belongs to (not retained: the kernel keeps it alive).
    cl_context context_handle() const noexcept { return context_; }
    /// True when the object holds a kernel.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }

  protected:
    KernelBase() = default;
    /// \private Wraps a kernel made and described by detail::make_kernel.
    KernelBase(detail::MadeKernel made, bool non_uniform)
        : handle_(std::move(made.handle)),
          description_(std::move(made.description)),
          context_(description_ ? description_->context : nullptr),
          non_uniform_(non_uniform) {
        if (!description_) {
            handle_.reset();
        }
    }

    /// What the driver said about the kernel; only for a non-empty kernel.
    const detail::KernelDescription& description() const noexcept { return *description_; }

    /// A raw kernel (adopted or retained by the caller) with its description, read now.
    static detail::MadeKernel describe(detail::Handle<cl_kernel> handle, bool& non_uniform) {
        if (!handle) {
            return {};
        }
        const detail::FailureWatch watch;
        const Program program = program_of(handle.get());
        non_uniform = program.non_uniform_groups();
        auto description = detail::KernelDescription::of(
            handle.get(), program.kernel_arg_info(), detail::platform_version_of(program.get()));
        if (watch.failed() || !description) {
            return {};
        }
        return {std::move(handle), std::move(description)};
    }

    /// Another kernel like this one: clCloneKernel (`cloned` set: the argument values came
    /// along) where the platform has it, else a new kernel of the same program and name.
    detail::MadeKernel copy_of(bool& cloned) const {
        if (!handle_) {
            detail::fail(CL_INVALID_KERNEL, "clCloneKernel",
                         "the kernel is empty (default-constructed or moved-from)");
            return {};
        }
        if (description_->clonable) {
            bool unsupported = false;
            auto copy = detail::clone_kernel(get(), description_->name, unsupported);
            if (copy) {
                cloned = true;
                return {std::move(copy), description_};
            }
            if (!unsupported) {
                return {};
            }
        }
        const cl_program program = detail::get_info<cl_kernel, CL_KERNEL_PROGRAM>(get());
        auto fresh = program != nullptr ? detail::create_kernel(program, description_->name)
                                        : detail::Handle<cl_kernel>();
        if (!fresh) {
            return {};
        }
        return {std::move(fresh), description_};
    }

    /// \private The program of a raw kernel, retained.
    static Program program_of(cl_kernel raw) {
        return Program::retain(detail::get_info<cl_kernel, CL_KERNEL_PROGRAM>(raw));
    }

    // An empty kernel fails every argument: say so, rather than blame the argument.
    /// \private Fails with CL_INVALID_KERNEL: the kernel is empty.
    [[gnu::noinline, gnu::cold]] static bool refuse_empty(const char* call) {
        detail::fail(CL_INVALID_KERNEL, call,
                     "the kernel is empty (default-constructed or moved-from)");
        return false;
    }

    /// clSetKernelArg with a message naming the argument and the kernel on failure.
    bool set_raw(cl_uint index, std::size_t size, const void* value) const {
        const cl_int code = clSetKernelArg(get(), index, size, value);
        if (code != CL_SUCCESS) [[unlikely]] {
            return set_failed(code, index, size, "clSetKernelArg");
        }
        return true;
    }

    /// \private Reports a failed clSetKernelArg for parameter `index`.
    [[gnu::cold]] bool set_failed(cl_int code, cl_uint index, std::size_t size,
                                  const char* call) const;

    /// Refuses an empty (default-constructed or moved-from) argument before the driver sees it.
    [[gnu::noinline, gnu::cold]] bool empty_argument(cl_uint index, const char* what) const {
        if (!handle_) {
            return refuse_empty("clSetKernelArg");
        }
        detail::fail(CL_INVALID_ARG_VALUE, "clSetKernelArg",
                     detail::concat("argument ", index, " of kernel \"", description_->name,
                                    "\" is ", what));
        return false;
    }

    /// \private Refuses an argument (`what`: a buffer, an image...) of another context for
    /// parameter `index`.
    [[gnu::noinline, gnu::cold]] bool foreign_argument(cl_uint index,
                                                       const char* what = "a buffer") const {
        if (!handle_) {
            return refuse_empty("clSetKernelArg");
        }
        detail::fail(CL_INVALID_CONTEXT, "clSetKernelArg",
                     detail::concat("argument ", index, " of kernel \"", description_->name,
                                    "\" is ", what, " of another context"));
        return false;
    }

    /// Sets a buffer argument after the checks every kernel makes (not empty, same context, not
    /// mapped in a way `use` conflicts with); returns it for the launch-time mapping check, or
    /// nullptr after a failure.
    template <class T, class Access>
    cl_mem set_buffer(cl_uint index, const Buffer<T, Access>& buffer, detail::Use use) const {
        const cl_mem mem = buffer.get();
        if (mem == nullptr) [[unlikely]] {
            empty_argument(index, "an empty (default-constructed or moved-from) buffer");
            return nullptr;
        }
        if (buffer.context_handle() != context_handle()) [[unlikely]] {
            foreign_argument(index);
            return nullptr;
        }
        if (!detail::map_registry.check(mem, use, "clSetKernelArg") ||
            !set_raw(index, sizeof(mem), &mem)) [[unlikely]] {
            return nullptr;
        }
        return mem;
    }

    /// \private Sets an image argument for parameter `index` after the same checks as
    /// set_buffer (not empty, same context, not mapped in a way `use` conflicts with); returns
    /// it for the launch-time mapping check, or nullptr after a failure.
    template <ImageShape Shape, class Pixel, class Access>
    cl_mem set_image(cl_uint index, const Image<Shape, Pixel, Access>& image,
                     detail::Use use) const {
        const cl_mem mem = image.get();
        if (mem == nullptr) [[unlikely]] {
            empty_argument(index, "an empty (default-constructed or moved-from) image");
            return nullptr;
        }
        if (image.context_handle() != context_handle()) [[unlikely]] {
            foreign_argument(index, "an image");
            return nullptr;
        }
        if (!detail::map_registry.check(mem, use, "clSetKernelArg") ||
            !set_raw(index, sizeof(mem), &mem)) [[unlikely]] {
            return nullptr;
        }
        return mem;
    }

    /// \private Sets a sampler argument for parameter `index` (clSetKernelArg) after refusing an
    /// empty sampler or one of another context; false after a failure.
    bool set_sampler(cl_uint index, const Sampler& sampler) const {
        const cl_sampler raw = sampler.get();
        if (raw == nullptr) [[unlikely]] {
            return empty_argument(index, "an empty (default-constructed or moved-from) sampler");
        }
        if (sampler.context_handle() != context_handle()) [[unlikely]] {
            return foreign_argument(index, "a sampler");
        }
        return set_raw(index, sizeof(raw), &raw);
    }

#if CL_TARGET_OPENCL_VERSION >= 200
    /// \private clSetKernelArgSVMPointer for parameter `index` (where the platform has it).
    bool set_svm(cl_uint index, const void* pointer) const {
        if (!handle_ || !description_->svm) [[unlikely]] {
            return svm_unsupported(index);
        }
        const cl_int code = clSetKernelArgSVMPointer(get(), index, pointer);
        if (code != CL_SUCCESS) [[unlikely]] {
            return set_failed(code, index, sizeof(void*), "clSetKernelArgSVMPointer");
        }
        return true;
    }

    // clSetKernelArgSVMPointer is not called on a platform older than OpenCL 2.0.
    /// \private Refuses an SVM argument where the platform has no SVM.
    [[gnu::noinline, gnu::cold]] bool svm_unsupported(cl_uint index) const {
        if (!handle_) {
            return set_failed(CL_INVALID_KERNEL, index, sizeof(void*), "clSetKernelArgSVMPointer");
        }
        detail::fail(CL_INVALID_OPERATION, "clSetKernelArgSVMPointer",
                     detail::concat("argument ", index, " of kernel \"", description_->name,
                                    "\": the platform predates OpenCL 2.0, which has no shared "
                                    "virtual memory"));
        return false;
    }
#endif

    /// \private Sets a __local parameter's size (count elements of element_size bytes).
    bool set_local(cl_uint index, std::size_t count, std::size_t element_size) const {
        if (count == 0) [[unlikely]] {
            return empty_argument(index, "LocalMem of 0 elements");
        }
        return set_raw(index, count * element_size, nullptr);
    }

  private:
    detail::Handle<cl_kernel> handle_;
    std::shared_ptr<const detail::KernelDescription> description_;
    detail::ResetOnMove<cl_context> context_;
    bool non_uniform_ = false;
};

/// A kernel whose parameters are part of its type: `Kernel<In<float>, Out<float>, cl_uint>`.
/// set_args checks at compile time the argument count, the element types, the buffers' access
/// against what the kernel does with each parameter, and narrowing of scalars. Made by
/// Program::kernel; copying shares the cl_kernel (its argument values included: use clone() to
/// get independent ones).
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
    /// The number of parameters.
    static constexpr std::size_t arity = sizeof...(Params);

    /// An empty kernel; assign one from Program::kernel before use.
    Kernel() = default;

    /// The kernel `name` of a built program (made once per program and name, see
    /// Program::kernel). Fails if there is none of that name, if the OpenCL C declaration has a
    /// different number of parameters than Params, or (when the program was built with
    /// -cl-kernel-arg-info) if a parameter differs from the driver's description of it: address
    /// space, const, type. The kernel is empty after a failure.
    Kernel(const Program& program, std::string_view name, OnError = {})
        : Kernel(detail::make_kernel(program, name), program.non_uniform_groups()) {}

    /// Takes ownership of `raw` (also if this fails); its parameters must match Params.
    [[nodiscard]] static Kernel adopt(cl_kernel raw, OnError = {}) {
        bool non_uniform = false;
        auto made = describe(detail::Handle<cl_kernel>::adopt(raw), non_uniform);
        return Kernel(std::move(made), non_uniform);
    }
    /// Shares `raw` (retains it); its parameters must match Params.
    [[nodiscard]] static Kernel retain(cl_kernel raw, OnError = {}) {
        bool non_uniform = false;
        auto made = describe(detail::Handle<cl_kernel>::retain(raw), non_uniform);
        return Kernel(std::move(made), non_uniform);
    }

    /// Sets every argument, checked at compile time against Params. Returns the kernel, so
    /// `queue.enqueue(kernel.set_args(a, b, n), NDRange{n})` binds and launches in one line.
    template <class... Args>
    Kernel& set_args(Args&&... args) {
        static_assert((detail::outlives_the_call<Args> && ...),
                      "set_args: a temporary buffer, image or sampler (e.g. buffer.sub(...) "
                      "written in the call) is released when the statement ends, before the "
                      "kernel runs: keep it in a variable until the launch");
        return bind_all(std::as_const(args)...);
    }

    /// A kernel of its own for another thread (a kernel's argument values may not be set from
    /// two threads at once). On OpenCL 2.1+ platforms clCloneKernel copies the argument values
    /// set so far; on older ones the clone is made afresh from the program and its arguments
    /// must be set again.
    [[nodiscard]] Kernel clone(OnError = {}) const {
        bool cloned = false;
        Kernel copy(copy_of(cloned), non_uniform_groups());
        if (cloned && copy) {
            copy.bound_ = bound_;  // the argument values came along
        }
        return copy;
    }

    /// Fails with CL_INVALID_OPERATION (and returns false) if a buffer bound to this kernel is
    /// mapped in a way the kernel's use of it conflicts with (Queue::enqueue calls it; free
    /// when nothing is mapped).
    bool check_unmapped() const {
        if (detail::map_registry.any()) [[unlikely]] {
            for (std::size_t i = 0; i < bound_.size(); ++i) {
                if (bound_[i] != nullptr &&
                    !detail::map_registry.check(bound_[i], uses_[i], "clEnqueueNDRangeKernel")) {
                    return false;
                }
            }
        }
        return true;
    }

    /// Sets argument `Index` alone, with the same compile-time checks.
    template <std::size_t Index, class ArgRef>
    Kernel& set_arg(ArgRef&& arg) {
        using Arg = std::remove_cvref_t<ArgRef>;
        static_assert(detail::outlives_the_call<ArgRef>,
                      "set_arg: a temporary buffer, image or sampler is released when the "
                      "statement ends, before the kernel runs: keep it in a variable until the "
                      "launch");
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
    template <class... Args>
    Kernel& bind_all(const Args&... args) {
        static_assert(sizeof...(Args) == sizeof...(Params),
                      "set_args: wrong number of arguments: pass exactly one argument per "
                      "kernel parameter");
        if constexpr (sizeof...(Args) == sizeof...(Params)) {
            set_all(std::index_sequence_for<Args...>{}, args...);
        }
        return *this;
    }

    // Every Kernel is made here: the description is checked against Params (no queries: the
    // program read it when it made the kernel first). Empty after a failure.
    Kernel(detail::MadeKernel made, bool non_uniform) : KernelBase(std::move(made), non_uniform) {
        if (get() != nullptr && !matches_params()) {
            *this = Kernel();
        }
    }

    bool matches_params() const {
        const detail::KernelDescription& info = description();
        if (info.arg_count != sizeof...(Params)) {
            detail::fail(
                CL_INVALID_KERNEL_ARGS, "clCreateKernel",
                detail::concat("kernel \"", info.name, "\" has ", info.arg_count,
                               " parameters, the C++ signature declares ", sizeof...(Params)));
            return false;
        }
        if (!info.arg_info) {
            return true;
        }
        static constexpr detail::HostParam params[] = {detail::host_param<Params>()...,
                                                       detail::HostParam{}};
        return detail::verify_params(info.name, info.args, params, sizeof...(Params));
    }

    template <std::size_t... I, class... Args>
    void set_all(std::index_sequence<I...>, const Args&... args) {
        constexpr bool all_fit = (detail::argument_fits<I, Params, Args>() && ...);
        if constexpr (all_fit) {
            // Stops at the first failure (reported through OnError when it does not throw).
            (void)(set_one<Params>(static_cast<cl_uint>(I), args) && ...);
        }
    }

    template <class Param, class Arg>
    bool set_one(cl_uint index, const Arg& arg) {
        if constexpr (detail::is_buffer<Arg>) {
            bound_[index] = set_buffer(index, arg, uses_[index]);
            return bound_[index] != nullptr;
        } else if constexpr (detail::is_image<Arg>) {
            bound_[index] = set_image(index, arg, uses_[index]);
            return bound_[index] != nullptr;
        } else if constexpr (std::is_same_v<Arg, Sampler>) {
            bound_[index] = nullptr;
            return set_sampler(index, arg);
        } else if constexpr (detail::is_svm_pointer<Arg>) {
#if CL_TARGET_OPENCL_VERSION >= 200
            bound_[index] = nullptr;
            return set_svm(index, arg.pointer);
#else
            static_assert(sizeof(Arg) == 0,
                          "SVM kernel arguments need CL_TARGET_OPENCL_VERSION >= 200");
            return false;
#endif
        } else if constexpr (detail::is_local_mem<Arg>) {
            return set_local(index, arg.count,
                             sizeof(typename detail::ParamTraits<Param>::element_type));
        } else {
            const Param value(arg);
            return set_raw(index, sizeof(Param), &value);
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

    /// The kernel `name` of a built program, with the driver's description of its parameters
    /// (read once per program and name: set_args queries nothing).
    DynamicKernel(const Program& program, std::string_view name, OnError = {})
        : DynamicKernel(detail::make_kernel(program, name), program.non_uniform_groups()) {}

    /// Takes ownership of `raw` (also if this fails).
    [[nodiscard]] static DynamicKernel adopt(cl_kernel raw, OnError = {}) {
        bool non_uniform = false;
        auto made = describe(detail::Handle<cl_kernel>::adopt(raw), non_uniform);
        return DynamicKernel(std::move(made), non_uniform);
    }
    /// Shares `raw` (retains it).
    [[nodiscard]] static DynamicKernel retain(cl_kernel raw, OnError = {}) {
        bool non_uniform = false;
        auto made = describe(detail::Handle<cl_kernel>::retain(raw), non_uniform);
        return DynamicKernel(std::move(made), non_uniform);
    }

    /// The number of parameters.
    std::size_t arity() const noexcept { return bound_.size(); }
    /// True when the driver described the parameters, so set_args checks more than the count.
    bool has_arg_info() const noexcept { return get() != nullptr && description().arg_info; }
    /// The parameter list as the driver describes it, e.g. "(__global const float* a, uint n)";
    /// without arg info only the count is known.
    std::string signature() const {
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

    /// Sets every argument: buffers, LocalMem<T>{count} and values. Fails, before any argument
    /// is set, for the wrong count or an argument that provably does not fit.
    template <class... ArgRefs>
    DynamicKernel& set_args(ArgRefs&&... args) {
        static_assert((detail::outlives_the_call<ArgRefs> && ...),
                      "DynamicKernel::set_args: a temporary buffer, image or sampler is released "
                      "when the statement ends, before the kernel runs: keep it in a variable "
                      "until the launch");
        return bind_all(std::as_const(args)...);
    }

    /// Sets argument `index` alone, with the same checks.
    template <class ArgRef>
    DynamicKernel& set_arg(cl_uint index, ArgRef&& arg) {
        static_assert(detail::outlives_the_call<ArgRef>,
                      "DynamicKernel::set_arg: a temporary buffer, image or sampler is released "
                      "when the statement ends, before the kernel runs: keep it in a variable "
                      "until the launch");
        return bind_one(index, std::as_const(arg));
    }

  private:
    template <class... Args>
    DynamicKernel& bind_all(const Args&... args) {
        static_assert((detail::DynamicArgument<Args> && ...),
                      "DynamicKernel::set_args: pass buffers, LocalMem<T>{count}, svm(p) or "
                      "trivially copyable values (not pointers, arrays or bool)");
        if (sizeof...(Args) != bound_.size() || get() == nullptr) [[unlikely]] {
            wrong_count(sizeof...(Args));
            return *this;
        }
        if (description().arg_info) {
            cl_uint index = 0;
            if (!(check_argument<Args>(index++) && ...)) {
                return *this;
            }
        }
        cl_uint index = 0;
        (void)(set_one(index++, args) && ...);
        return *this;
    }

    template <class Arg>
    DynamicKernel& bind_one(cl_uint index, const Arg& arg) {
        static_assert(detail::DynamicArgument<Arg>,
                      "DynamicKernel::set_arg: pass a buffer, LocalMem<T>{count}, svm(p) or a "
                      "trivially copyable value (not a pointer, array or bool)");
        if (get() == nullptr) [[unlikely]] {
            refuse_empty("clSetKernelArg");
            return *this;
        }
        if (index >= bound_.size()) [[unlikely]] {
            detail::fail(CL_INVALID_ARG_INDEX, "clSetKernelArg",
                         detail::concat("argument ", index, " of kernel \"", name(),
                                        "\": the kernel has ", bound_.size(), " parameters"));
            return *this;
        }
        if (description().arg_info && !check_argument<Arg>(index)) {
            return *this;
        }
        set_one(index, arg);
        return *this;
    }

  public:
    /// A kernel of its own for another thread, as Kernel::clone(): on OpenCL 2.1+ platforms it
    /// keeps the argument values set so far, on older ones they must be set again.
    [[nodiscard]] DynamicKernel clone(OnError = {}) const {
        bool cloned = false;
        DynamicKernel copy(copy_of(cloned), non_uniform_groups());
        if (cloned && copy) {
            copy.bound_ = bound_;  // the argument values came along
        }
        return copy;
    }

    /// Fails with CL_INVALID_OPERATION (and returns false) if a buffer bound to this kernel is
    /// mapped in a way the kernel's use of it conflicts with (Queue::enqueue calls it; free
    /// when nothing is mapped).
    bool check_unmapped() const {
        if (detail::map_registry.any()) [[unlikely]] {
            for (const Bound& bound : bound_) {
                if (bound.mem != nullptr &&
                    !detail::map_registry.check(bound.mem, bound.use, "clEnqueueNDRangeKernel")) {
                    return false;
                }
            }
        }
        return true;
    }

  private:
    struct Bound {
        cl_mem mem = nullptr;
        detail::Use use = detail::Use::read;
    };

    DynamicKernel(detail::MadeKernel made, bool non_uniform)
        : KernelBase(std::move(made), non_uniform) {
        if (get() != nullptr) {
            // Sized once: set_args allocates nothing.
            bound_.resize(description().arg_count);
        }
    }

    template <class Arg>
    bool check_argument(cl_uint index) const {
        static constexpr detail::HostArg host = detail::host_arg<Arg>();
        cl_int code = CL_SUCCESS;
        std::string reason = detail::argument_mismatch(host, description().args[index], code);
        if (!reason.empty()) [[unlikely]] {
            return argument_failed(index, host, code, reason);
        }
        return true;
    }

    // How the kernel uses a buffer: from its declaration where the driver described it, else
    // from the buffer's access (a buffer kernels may write is taken as written).
    detail::Use use_of(cl_uint index, bool kernel_writes) const {
        const detail::ArgInfo& param = description().args[index];
        if (param.known_space && param.space == detail::AddressSpace::constant) {
            return detail::Use::read;
        }
        if (param.known_space && param.known_const) {
            return param.is_const ? detail::Use::read : detail::Use::write;
        }
        return kernel_writes ? detail::Use::write : detail::Use::read;
    }

    template <class Arg>
    bool set_one(cl_uint index, const Arg& arg) {
        if constexpr (detail::is_buffer<Arg>) {
            const detail::Use use = use_of(index, Arg::access_type::kernel_writes);
            bound_[index] = {set_buffer(index, arg, use), use};
            return bound_[index].mem != nullptr;
        } else if constexpr (detail::is_svm_pointer<Arg>) {
#if CL_TARGET_OPENCL_VERSION >= 200
            bound_[index] = {};
            return set_svm(index, arg.pointer);
#else
            static_assert(sizeof(Arg) == 0,
                          "SVM kernel arguments need CL_TARGET_OPENCL_VERSION >= 200");
            return false;
#endif
        } else if constexpr (detail::is_local_mem<Arg>) {
            return set_local(index, arg.count, sizeof(typename Arg::value_type));
        } else {
            return set_raw(index, sizeof(Arg), &arg);
        }
    }

    [[gnu::noinline, gnu::cold]] void wrong_count(std::size_t given) const {
        if (get() == nullptr) {
            detail::fail(CL_INVALID_KERNEL, "clSetKernelArg",
                         "set_args: the kernel is empty (default-constructed or moved-from)");
            return;
        }
        detail::fail(CL_INVALID_KERNEL_ARGS, "clSetKernelArg",
                     detail::concat("set_args: kernel \"", name(), "\" takes ", bound_.size(),
                                    " arguments, ", given, " given ", signature()));
    }

    [[gnu::noinline, gnu::cold]] bool argument_failed(cl_uint index, const detail::HostArg& host,
                                                      cl_int code,
                                                      const std::string& reason) const {
        const detail::ArgInfo& param = description().args[index];
        detail::fail(
            code, "clSetKernelArg",
            detail::concat(
                "argument ", index,
                param.name.empty() ? std::string() : detail::concat(" (\"", param.name, "\")"),
                " of kernel \"", name(), "\": the kernel declares ", param.declaration(),
                ", the argument is ", detail::host_arg_name(host), ": ", reason));
        return false;
    }

    // The buffers last bound through this object, for the launch-time mapping check.
    std::vector<Bound> bound_;
};

inline DynamicKernel Program::kernel(std::string_view name, OnError) const {
    return DynamicKernel(*this, name);
}

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
[[gnu::noinline, gnu::cold]] OPENCLAW_INLINE bool KernelBase::set_failed(cl_int code, cl_uint index,
                                                                         std::size_t size,
                                                                         const char* call) const {
    if (!handle_) {
        return refuse_empty(call);
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
    detail::fail(code, call, std::move(detail));
    return false;
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

}  // namespace openclaw
