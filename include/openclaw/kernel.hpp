// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Kernel<Params...>: a kernel whose C++ signature is part of its type (kernels layer). set_args
// checks every argument against its parameter at compile time (count, element type, buffer
// access, narrowing) and calls clSetKernelArg once per argument; nothing is allocated or queried.
// KernelBase holds what every kernel has (the handle, the driver's description, argument records);
// DynamicKernel (dynamic_kernel.hpp) is the untyped kernel. Kernels are made by a Program
// (program.hpp, which completes what needs both classes).

#include <openclaw/context.hpp>
#include <openclaw/detail/base/argument_gate.hpp>
#include <openclaw/detail/base/checked.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/detail/base/map_registry.hpp>
#include <openclaw/detail/kernels/kernel_args.hpp>
#include <openclaw/device.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/params.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

/// A parameter the kernel's body writes through (KernelDescription::written).
struct WrittenParam {
    std::size_t line = 0;  // 1-based line of the first write in the program's source; 0: none
    std::string name;      // the parameter's name in the source
};

/// The writes the body of kernel `name` in `source` makes through its non-const __global pointer
/// parameters, one entry per parameter (the same scan the signature wing runs at compile time);
/// false when the source does not define the kernel in a form the parser reads. Kernels made from
/// a program with source use it to refuse In<T> for a pointer the kernel writes.
bool scan_body_writes(std::string_view source, std::string_view name,
                      std::vector<WrittenParam>& written);

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
    /// Per parameter, where the kernel's source writes through it although C++ may declare it
    /// In<T>: the line of the first write the body scan proves (`p[i] = v`, `p[i] += v`,
    /// `++p[i]`), 0 where it proves none; empty when unknown (no source, or one the parser cannot
    /// read).
    std::vector<WrittenParam> written;
    /// The kernel's own __local memory (its __local variables and what the implementation
    /// needs): CL_KERNEL_LOCAL_MEM_SIZE before any argument is set, the most of any device of
    /// its program. 0 when unknown (a kernel adopted with its arguments possibly set).
    std::size_t local_own = 0;

    /// Reads it from `kernel`; arg info only when its program was built with
    /// -cl-kernel-arg-info; local_own only when `fresh` (no argument set yet). nullptr if a
    /// query failed (reported to `on_error`).
    static std::shared_ptr<const KernelDescription> of(cl_kernel kernel, bool with_arg_info,
                                                       Version platform, OnError on_error,
                                                       bool fresh = false);
};

/// A kernel made for one request: its own handle (its own argument values), the shared
/// description, and whether its program allows non-uniform work-groups.
struct MadeKernel {
    Handle<cl_kernel> handle;
    std::shared_ptr<const KernelDescription> description;
    bool non_uniform = false;
};

/// Refuses In<T> for a parameter the kernel's body writes through (`info.written`), naming the
/// kernel, the parameter and the line.
bool verify_writes(const KernelDescription& info, const HostParam* params, std::size_t count,
                   OnError on_error);

/// clCreateKernel with a message listing the program's kernels when the name is unknown.
Handle<cl_kernel> create_kernel(cl_program program, std::string_view name, OnError on_error);

/// clCloneKernel: a new kernel with `kernel`'s argument values. Empty, with `unsupported` set,
/// when the driver or openclaw's headers have no clCloneKernel (then a kernel is made afresh).
Handle<cl_kernel> clone_kernel(cl_kernel kernel, std::string_view name, bool& unsupported,
                               OnError on_error);

/// The OpenCL version of the platform `program` was built on.
Version platform_version_of(cl_program program, OnError on_error);

/// A kernel `name` of `program` for one request (defined in program.hpp). The program makes each
/// name once: the first request creates a prototype and reads its description; every request gets
/// a clone of the prototype (clCloneKernel, under the program's lock: it must not run
/// concurrently on one kernel), whose argument values are its own. Before OpenCL 2.1 kernels
/// cannot be cloned, and each request creates one, still without queries. Empty on failure.
MadeKernel make_kernel(const Program& program, std::string_view name, OnError on_error);

/// A raw kernel (adopted or retained by the caller) with its description, read now (defined in
/// program.hpp: it reads the kernel's program).
MadeKernel describe_kernel(Handle<cl_kernel> handle, OnError on_error);

/// False for a temporary buffer, image or sampler passed to set_args: the kernel holds only the
/// raw handle (clSetKernelArg keeps no reference), so the temporary is released when the
/// statement ends, before the launch; NVIDIA's driver then reports CL_INVALID_KERNEL_ARGS, PoCL
/// reads freed memory.
template <class A>
inline constexpr bool outlives_the_call = std::is_lvalue_reference_v<A> ||
                                          (ArgumentTraits<std::remove_cvref_t<A>>::form !=
                                               ArgForm::memory &&
                                           ArgumentTraits<std::remove_cvref_t<A>>::form !=
                                               ArgForm::object);

template <class... Args>
consteval bool ends_with_error_target() {
    if constexpr (sizeof...(Args) == 0) {
        return false;
    } else {
        return is_error_target<std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>>;
    }
}

/// Calls `f(on_error, args...)` with the arguments before a trailing error target and that
/// target (OnError{} when there is none): how variadic calls take their OnError last.
template <class F, class... Args>
decltype(auto) split_error_target(F&& f, Args&&... args) {
    if constexpr (ends_with_error_target<Args...>()) {
        auto refs = std::forward_as_tuple(std::forward<Args>(args)...);
        return [&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
            return f.template operator()<std::tuple_element_t<I, std::tuple<Args...>>...>(
                OnError(std::get<sizeof...(Args) - 1>(refs)), std::get<I>(refs)...);
        }
        (std::make_index_sequence<sizeof...(Args) - 1>{});
    } else {
        return f.template operator()<Args...>(OnError{}, args...);
    }
}

}  // namespace detail

/// What every kernel has, whatever its signature: the handle, the name, launch properties.
class KernelBase {
  public:
    /// \private Refuses a launch while another thread is setting this kernel's arguments.
    [[gnu::cold]] bool launched_while_setting(OnError on_error) const;

    /// The kernel's function name.
    std::string name(OnError on_error = {}) const {
        return description_ ? description_->name : info<CL_KERNEL_FUNCTION_NAME>(on_error);
    }
    /// The number of parameters the kernel's OpenCL C declaration has.
    cl_uint arg_count(OnError on_error = {}) const {
        return description_ ? description_->arg_count : info<CL_KERNEL_NUM_ARGS>(on_error);
    }
    /// The kernel's context (CL_KERNEL_CONTEXT), retained.
    Context context(OnError on_error = {}) const {
        return Context::retain(info<CL_KERNEL_CONTEXT>(on_error), on_error);
    }
    /// The program the kernel was made from (CL_KERNEL_PROGRAM), retained (program.hpp).
    Program program(OnError on_error = {}) const;
    /// The largest work-group this kernel can be launched with on `device`.
    std::size_t work_group_size(const Device& device, OnError on_error = {}) const {
        return work_group_info<CL_KERNEL_WORK_GROUP_SIZE>(device, on_error);
    }
    /// True when its program allows non-uniform work-groups (see Program::non_uniform_groups).
    bool non_uniform_groups() const noexcept { return non_uniform_; }

    /// Any clGetKernelInfo parameter, with its C++ type from openclaw's info table.
    template <cl_kernel_info Param>
    detail::info_t<cl_kernel, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_kernel, Param>(on_error, get());
    }
    /// Any clGetKernelWorkGroupInfo parameter for `device`, typed, e.g.
    /// `kernel.work_group_info<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device)`.
    template <cl_kernel_work_group_info Param>
    detail::info_t<detail::KernelWorkGroupInfo, Param> work_group_info(
        const Device& device, OnError on_error = {}) const {
        return detail::get_info<detail::KernelWorkGroupInfo, Param>(on_error, get(), device.get());
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
    explicit KernelBase(detail::MadeKernel made)
        : handle_(std::move(made.handle)),
          description_(std::move(made.description)),
          context_(description_ ? description_->context : nullptr),
          non_uniform_(made.non_uniform) {
        if (!description_) {
            handle_.reset();
        }
    }

    /// What the driver said about the kernel; only for a non-empty kernel.
    const detail::KernelDescription& description() const noexcept { return *description_; }

    /// Another kernel like this one: clCloneKernel (`cloned` set: the argument values came
    /// along) where the platform has it, else a new kernel of the same program and name.
    detail::MadeKernel copy_of(bool& cloned, OnError on_error) const;

    // An empty kernel fails every argument: say so, rather than blame the argument.
    /// \private Fails with CL_INVALID_KERNEL: the kernel is empty.
    [[gnu::cold]] static bool refuse_empty(const char* call, OnError on_error);

    /// clSetKernelArg with a message naming the argument and the kernel on failure.
    bool set_raw(cl_uint index, std::size_t size, const void* value, OnError on_error) const {
        const cl_int code = clSetKernelArg(get(), index, size, value);
        if (code != CL_SUCCESS) [[unlikely]] {
            return set_failed(code, index, size, "clSetKernelArg", on_error);
        }
        return true;
    }

    /// \private Reports a failed clSetKernelArg for parameter `index`.
    [[gnu::cold]] bool set_failed(cl_int code, cl_uint index, std::size_t size, const char* call,
                                  OnError on_error) const;

    /// Refuses an empty (default-constructed or moved-from) argument before the driver sees it.
    [[gnu::cold]] bool empty_argument(cl_uint index, const char* what, OnError on_error) const;

    /// \private Refuses a launch with argument `index` of `count` not set.
    [[gnu::cold]] bool unset_argument(cl_uint index, std::size_t count, OnError on_error) const;

    /// \private Refuses set_args while another thread is setting this kernel's arguments or
    /// launching it.
    [[gnu::cold]] bool shared_between_threads(OnError on_error) const;

    /// \private Refuses an argument (`what`: a buffer, an image...) of another context for
    /// parameter `index`.
    [[gnu::cold]] bool foreign_argument(cl_uint index, const char* what, OnError on_error) const;

    /// Sets a memory object argument (a buffer or an image: `what` says which) after the checks
    /// every kernel makes (not empty, same context, not mapped in a way `use` conflicts with);
    /// returns it for the launch-time mapping check, or nullptr after a failure.
    cl_mem set_mem(cl_uint index, cl_mem mem, cl_context context, detail::Use use, const char* what,
                   OnError on_error) const {
        if (mem == nullptr) [[unlikely]] {
            empty_argument(index, what, on_error);
            return nullptr;
        }
        if (context != context_handle()) [[unlikely]] {
            foreign_argument(index, what, on_error);
            return nullptr;
        }
        if (!detail::map_registry.check(mem, use, "clSetKernelArg", on_error) ||
            !set_raw(index, sizeof(mem), &mem, on_error)) [[unlikely]] {
            return nullptr;
        }
        return mem;
    }

    /// \private Sets an object argument other than memory (a sampler: `what` says which) for
    /// parameter `index` (clSetKernelArg) after refusing an empty one or one of another context;
    /// false after a failure.
    template <class RawHandle>
    bool set_object(cl_uint index, RawHandle raw, cl_context context, const char* what,
                    OnError on_error) const {
        if (raw == nullptr) [[unlikely]] {
            return empty_argument(index, what, on_error);
        }
        if (context != context_handle()) [[unlikely]] {
            return foreign_argument(index, what, on_error);
        }
        return set_raw(index, sizeof(raw), &raw, on_error);
    }

    /// \private clSetKernelArgSVMPointer for parameter `index` (where the platform has it).
    bool set_svm(cl_uint index, const void* pointer, OnError on_error) const;

    /// \private Sets a __local parameter's size (count elements of element_size bytes).
    bool set_local(cl_uint index, std::size_t count, std::size_t element_size,
                   OnError on_error) const {
        std::size_t bytes = 0;
        if (count == 0 || !detail::checked_mul(count, element_size, bytes)) [[unlikely]] {
            return local_refused(index, count, element_size, on_error);
        }
        return set_raw(index, bytes, nullptr, on_error);
    }

    /// \private Refuses a LocalMem of 0 elements, or of more bytes than size_t holds.
    [[gnu::cold]] bool local_refused(cl_uint index, std::size_t count, std::size_t element_size,
                                     OnError on_error) const;

    /// \private Sets argument `index` as its kind's ArgumentTraits say (params.hpp): a memory
    /// object, another object, an SVM pointer, a __local size, or a value (already of the
    /// parameter's type). Returns the memory object to track for the mapping check (nullptr
    /// for other forms), with `ok` false after a failure.
    template <class Arg>
    cl_mem set_common(cl_uint index, const Arg& arg, detail::Use use, bool& ok,
                      OnError on_error) const {
        using Traits = detail::ArgumentTraits<Arg>;
        if constexpr (Traits::form == detail::ArgForm::memory) {
            const cl_mem mem = set_mem(index, Traits::handle(arg), Traits::context(arg), use,
                                       Traits::name, on_error);
            ok = mem != nullptr;
            return mem;
        } else if constexpr (Traits::form == detail::ArgForm::object) {
            ok = set_object(index, Traits::handle(arg), Traits::context(arg), Traits::name,
                            on_error);
            return nullptr;
        } else if constexpr (Traits::form == detail::ArgForm::svm) {
            ok = set_svm(index, Traits::pointer(arg), on_error);
            return nullptr;
        } else if constexpr (Traits::form == detail::ArgForm::local) {
            ok = set_local(index, Traits::count(arg), sizeof(typename Traits::element_type),
                           on_error);
            return nullptr;
        } else {
            ok = set_raw(index, sizeof(Arg), &arg, on_error);
            return nullptr;
        }
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
    Kernel(const Program& program, std::string_view name, OnError on_error = {})
        : Kernel(detail::make_kernel(program, name, on_error), on_error) {}

    /// Takes ownership of `raw` (also if this fails); its parameters must match Params.
    [[nodiscard]] static Kernel adopt(cl_kernel raw, OnError on_error = {}) {
        return Kernel(detail::describe_kernel(detail::Handle<cl_kernel>::adopt(raw), on_error),
                      on_error, false);
    }
    /// Shares `raw` (retains it); its parameters must match Params.
    [[nodiscard]] static Kernel retain(cl_kernel raw, OnError on_error = {}) {
        return Kernel(
            detail::describe_kernel(detail::Handle<cl_kernel>::retain(raw, on_error), on_error),
            on_error, false);
    }

    /// Sets every argument, checked at compile time against Params. Returns the kernel, so
    /// `queue.enqueue(kernel.set_args(a, b, n), NDRange{n})` binds and launches in one line.
    /// Failures throw, or go to a trailing `std::error_code&`, `Status&` or OnError:
    /// `kernel.set_args(a, b, n, status)`.
    template <class... Args>
    Kernel& set_args(Args&&... args) {
        return detail::split_error_target(
            [this]<class... ArgRefs>(OnError on_error, const auto&... values) -> Kernel& {
                static_assert((detail::outlives_the_call<ArgRefs> && ...),
                              "set_args: a temporary buffer, image or sampler (e.g. "
                              "buffer.sub(...) written in the call) is released when the "
                              "statement ends, before the kernel runs: keep it in a variable "
                              "until the launch");
                return this->bind_all(on_error, values...);
            },
            std::forward<Args>(args)...);
    }

    /// A kernel of its own for another thread (a kernel's argument values may not be set from
    /// two threads at once). On OpenCL 2.1+ platforms clCloneKernel copies the argument values
    /// set so far; on older ones the clone is made afresh from the program and its arguments
    /// must be set again.
    [[nodiscard]] Kernel clone(OnError on_error = {}) const {
        bool kept = false;
        return clone_for_record(kept, on_error);
    }

    /// \private A clone with this kernel's argument values and their record (what a command
    /// graph records); `kept` is false where the values cannot come along (no clCloneKernel).
    [[nodiscard]] Kernel clone_for_record(bool& kept, OnError on_error) const {
        kept = false;
        Kernel copy(copy_of(kept, on_error), on_error);
        if (kept && copy && cache_) {
            *copy.cache_ = *cache_;  // the argument values came along
            // PoCL 3.1's clone keeps a __local argument's size without storage of that size
            // (under ASan a launch of the clone reads past it): the sizes are set again.
            for (std::size_t i = 0; i < sizeof...(Params); ++i) {
                if (cache_->local[i] != 0 &&
                    !copy.set_raw(static_cast<cl_uint>(i), cache_->local[i], nullptr, on_error)) {
                    return Kernel();
                }
            }
        }
        return copy;
    }

    /// Forgets which argument values are set, so that the next set_args sets every one again.
    /// openclaw skips clSetKernelArg for an argument whose value (the same buffer, the same
    /// bytes) this kernel or a copy of it already set; call this after setting arguments
    /// through the raw handle (get()) behind its back.
    void forget_arguments() noexcept {
        if (cache_) {
            cache_->mems = {};
            cache_->valued = {};
            cache_->local = {};
            cache_->local_total = 0;
            cache_->local_need = description().local_own;
        }
    }

    /// The bytes of local memory the LocalMem arguments set so far ask for (Queue::enqueue
    /// compares them with the device's CL_DEVICE_LOCAL_MEM_SIZE before the driver sees them).
    std::size_t local_bytes() const noexcept { return cache_ ? cache_->local_total : 0; }
    /// The local memory a launch needs: local_bytes() plus the kernel's own __local memory
    /// (CL_KERNEL_LOCAL_MEM_SIZE of the kernel alone). Queue::enqueue compares it with the
    /// device's CL_DEVICE_LOCAL_MEM_SIZE.
    std::size_t local_needed() const noexcept { return cache_ ? cache_->local_need : 0; }

    /// \private The gate a launch holds while it enqueues (null for an empty kernel).
    detail::ArgumentGate* argument_gate() const noexcept {
        return cache_ ? &cache_->gate : nullptr;
    }

    /// \private True when a launch finds nothing to refuse in what this kernel holds: every
    /// argument set, the local memory it needs within `local_limit` bytes, nothing mapped
    /// anywhere. When false, Queue::enqueue makes the checks one by one (check_unmapped,
    /// check_arguments_set, local_needed) to say which failed.
    bool launch_ready(std::size_t local_limit) const noexcept {
        const ArgCache* cache = cache_.get();
        return cache != nullptr && (cache->set & all_set) == all_set &&
               cache->local_need <= local_limit && !detail::map_registry.any();
    }

    /// False (after reporting which argument is not set yet) when a launch would find an unset
    /// argument (Queue::enqueue calls it; one compare).
    bool check_arguments_set(OnError on_error) const {
        if (!cache_ || (cache_->set & all_set) == all_set) [[likely]] {
            return true;
        }
        std::size_t unset = 0;
        while (((cache_->set >> unset) & 1) != 0) {
            ++unset;
        }
        return unset_argument(static_cast<cl_uint>(unset), sizeof...(Params), on_error);
    }

    /// Fails with CL_INVALID_OPERATION (and returns false) if a buffer bound to this kernel is
    /// mapped in a way the kernel's use of it conflicts with (Queue::enqueue calls it; free
    /// when nothing is mapped).
    bool check_unmapped(OnError on_error = {}) const {
        if (detail::map_registry.any() && cache_) [[unlikely]] {
            for (std::size_t i = 0; i < sizeof...(Params); ++i) {
                const cl_mem mem = cache_->mems[i].get();
                if (mem != nullptr && !detail::map_registry.check(
                                          mem, uses_[i], "clEnqueueNDRangeKernel", on_error)) {
                    return false;
                }
            }
        }
        return true;
    }

    /// Sets argument `Index` alone, with the same compile-time checks.
    template <std::size_t Index, class ArgRef>
    Kernel& set_arg(ArgRef&& arg, OnError on_error = {}) {
        using Arg = std::remove_cvref_t<ArgRef>;
        static_assert(detail::outlives_the_call<ArgRef>,
                      "set_arg: a temporary buffer, image or sampler is released when the "
                      "statement ends, before the kernel runs: keep it in a variable until the "
                      "launch");
        static_assert(Index < sizeof...(Params), "set_arg: the index is past the last parameter");
        if constexpr (Index < sizeof...(Params)) {
            using Param = std::tuple_element_t<Index, std::tuple<Params...>>;
            if constexpr (detail::argument_fits<Index, Param, Arg>()) {
                set_one<Param>(static_cast<cl_uint>(Index), std::as_const(arg), on_error);
            }
        }
        return *this;
    }

  private:
    template <class P>
    static constexpr std::size_t value_size() noexcept {
        return detail::ParamTraits<P>::kind == detail::ParamKind::scalar ? sizeof(P) : 0;
    }
    static constexpr std::uint64_t all_set =
        sizeof...(Params) >= 64 ? ~std::uint64_t{0}
                                : (std::uint64_t{1} << (sizeof...(Params) % 64)) - 1;
    static constexpr std::size_t value_bytes = [] {
        std::size_t most = 1;
        ((most = value_size<Params>() > most ? value_size<Params>() : most), ...);
        return most;
    }();

    // What this kernel's (and its copies') arguments are set to, so that an unchanged one is
    // not set again: the memory objects (retained), the values' bytes, LocalMem sizes, which
    // arguments are set at all.
    struct ArgCache {
        std::array<detail::Handle<cl_mem>, sizeof...(Params)> mems{};
        std::array<std::array<unsigned char, value_bytes>, sizeof...(Params)> values{};
        std::array<bool, sizeof...(Params)> valued{};
        std::array<std::size_t, sizeof...(Params)> local{};  // LocalMem bytes per argument
        std::size_t local_total = 0;
        std::size_t local_need = 0;  // local_total plus the kernel's own __local memory
        std::uint64_t set = 0;  // bit i: argument i has been set (parameters past 64: not kept)
        // Held by a thread setting arguments or by launches: see detail::ArgumentGate.
        detail::ArgumentGate gate;

        ArgCache() = default;
        ArgCache(const ArgCache&) = delete;
        // The argument record, not the gate.
        ArgCache& operator=(const ArgCache& other) {
            mems = other.mems;
            values = other.values;
            valued = other.valued;
            local = other.local;
            local_total = other.local_total;
            local_need = other.local_need;
            set = other.set;
            return *this;
        }
    };

    template <class... Args>
    Kernel& bind_all(OnError on_error, const Args&... args) {
        static_assert(sizeof...(Args) == sizeof...(Params),
                      "set_args: wrong number of arguments: pass exactly one argument per "
                      "kernel parameter");
        if constexpr (sizeof...(Args) == sizeof...(Params)) {
            set_all(std::index_sequence_for<Args...>{}, on_error, args...);
        }
        return *this;
    }

    // Every Kernel is made here: the description is checked against Params (no queries: the
    // program read it when it made the kernel first). Empty after a failure.
    // `fresh`: made here, so no argument is set yet (a raw kernel may have them set already).
    Kernel(detail::MadeKernel made, OnError on_error, bool fresh = true)
        : KernelBase(std::move(made)) {
        if (get() != nullptr && !matches_params(on_error)) {
            *this = Kernel();
        } else if (get() != nullptr) {
            cache_ = std::make_shared<ArgCache>();
            cache_->set = fresh ? 0 : all_set;
            cache_->local_need = description().local_own;
        }
    }

    bool matches_params(OnError on_error) const {
        const detail::KernelDescription& info = description();
        if (info.arg_count != sizeof...(Params)) {
            detail::fail(
                on_error, CL_INVALID_KERNEL_ARGS, "clCreateKernel",
                detail::concat("kernel \"", info.name, "\" has ", info.arg_count,
                               " parameters, the C++ signature declares ", sizeof...(Params)));
            return false;
        }
        static constexpr detail::HostParam params[] = {detail::host_param<Params>()...,
                                                       detail::HostParam{}};
        if (info.arg_info &&
            !detail::verify_params(info.name, info.args, params, sizeof...(Params), on_error)) {
            return false;
        }
        return detail::verify_writes(info, params, sizeof...(Params), on_error);
    }

    template <std::size_t... I, class... Args>
    void set_all(std::index_sequence<I...>, OnError on_error, const Args&... args) {
        constexpr bool all_fit = (detail::argument_fits<I, Params, Args>() && ...);
        if constexpr (all_fit) {
            if (!cache_) [[unlikely]] {  // an empty (default or moved-from) kernel
                (void)refuse_empty("clSetKernelArg", on_error);
                return;
            }
            ArgCache& cache = *cache_;
            const detail::SettingArguments setting(cache.gate);
            if (!setting) [[unlikely]] {
                (void)shared_between_threads(on_error);
                return;
            }
            // Stops at the first failure (when it is recorded rather than thrown).
            (void)(set_in<Params>(cache, static_cast<cl_uint>(I), args, on_error) && ...);
        }
    }

    template <class Param, class Arg>
    bool set_one(cl_uint index, const Arg& arg, OnError on_error) {
        if (!cache_) [[unlikely]] {  // an empty (default or moved-from) kernel
            return refuse_empty("clSetKernelArg", on_error);
        }
        ArgCache& cache = *cache_;
        const detail::SettingArguments setting(cache.gate);
        if (!setting) [[unlikely]] {
            return shared_between_threads(on_error);
        }
        return set_in<Param>(cache, index, arg, on_error);
    }

    // Records that argument `index` is set (the fast paths of set_in find it recorded).
    static void mark(ArgCache& cache, cl_uint index, bool ok) noexcept {
        if (ok && index < 64) {
            cache.set |= std::uint64_t{1} << index;
        }
    }

    template <class Param, class Arg>
    bool set_in(ArgCache& cache, cl_uint index, const Arg& arg, OnError on_error) {
        using Traits = detail::ArgumentTraits<Arg>;
        bool ok = false;
        if constexpr (Traits::form == detail::ArgForm::memory) {
            const cl_mem mem = Traits::handle(arg);
            // The same memory object as last time: set, checked and held already; only the
            // mapping check is made again (a view may have been made since).
            if (mem != nullptr && mem == cache.mems[index].get()) [[likely]] {
                return detail::map_registry.check(mem, uses_[index], "clSetKernelArg", on_error);
            }
            const cl_mem set = set_common(index, arg, uses_[index], ok, on_error);
            hold(cache, index, set, on_error);
            mark(cache, index, ok);
        } else if constexpr (Traits::form != detail::ArgForm::value) {
            (void)set_common(index, arg, uses_[index], ok, on_error);
            cache.mems[index].reset();
            cache.valued[index] = false;
            mark(cache, index, ok);
            if constexpr (Traits::form == detail::ArgForm::local) {
                // Bytes as set (the count and its product were checked by set_local).
                constexpr std::size_t element = sizeof(typename Traits::element_type);
                cache.local[index] = ok ? Traits::count(arg) * element : 0;
                std::size_t total = 0;  // saturates: any sum past size_t exceeds every device
                for (const std::size_t bytes : cache.local) {
                    total = detail::saturating_add(total, bytes);
                }
                cache.local_total = total;
                cache.local_need = detail::saturating_add(total, description().local_own);
            }
        } else {
            const Param value(arg);  // converted to the parameter's type
            if (cache.valued[index] &&
                std::memcmp(cache.values[index].data(), &value, sizeof(Param)) == 0) [[likely]] {
                return true;
            }
            (void)set_common(index, value, uses_[index], ok, on_error);
            cache.valued[index] = ok;
            mark(cache, index, ok);
            if (ok) {
                std::memcpy(cache.values[index].data(), &value, sizeof(Param));
            }
        }
        return ok;
    }

    // Keeps the memory object set for `index` alive (and known) until it is replaced or the
    // kernel goes: a launch after its buffer was destroyed still finds the memory there.
    static void hold(ArgCache& cache, cl_uint index, cl_mem set, OnError on_error) {
        cache.valued[index] = false;
        if (set == nullptr) {
            cache.mems[index].reset();  // a failed set: the old value may be gone too
            return;
        }
        cache.mems[index] = detail::Handle<cl_mem>::retain(set, on_error);
    }

    static constexpr std::array<detail::Use, sizeof...(Params)> uses_ = {
        detail::use_of<Params>()...};
    // Shared by copies (they share the cl_kernel and its argument values).
    std::shared_ptr<ArgCache> cache_;
};

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/kernel.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
