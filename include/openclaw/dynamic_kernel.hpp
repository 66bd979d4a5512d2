// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// DynamicKernel: a kernel without a C++ signature, whose arguments are checked at run time
// against the driver's arg info (kernels layer). Made by a Program (program.hpp), from a name
// known only at run time; Kernel<Params...> (kernel.hpp) is the typed kernel.

#include <openclaw/detail/base/argument_gate.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/kernels/kernel_args.hpp>
#include <openclaw/error.hpp>
#include <openclaw/fwd.hpp>
#include <openclaw/kernel.hpp>
#include <openclaw/params.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

/// What DynamicKernel::set_args accepts: the argument kinds whose ArgumentTraits say `dynamic`
/// (buffers, SVM pointers, LocalMem and plain values).
template <class A>
concept DynamicArgument = ArgumentTraits<A>::dynamic && !is_error_target<A&>;

}  // namespace detail

/// A kernel without a C++ signature, for sources that are only known at run time. set_args
/// checks at run time what the compiler cannot: the argument count always; with arg info (the
/// program built with -cl-kernel-arg-info, the default) also buffer vs value vs
/// __local, a buffer's access against const, element and value types, and value sizes. Without
/// arg info the driver still refuses a value of the wrong size (CL_INVALID_ARG_SIZE).
class DynamicKernel : public KernelBase {
  public:
    /// An empty kernel; assign one from Program::kernel before use.
    DynamicKernel() = default;
    /// Shares the cl_kernel, its argument values and their record with `other`.
    DynamicKernel(const DynamicKernel&) = default;
    /// Takes `other`'s kernel and argument record; `other` is left empty.
    DynamicKernel(DynamicKernel&&) noexcept = default;
    /// Shares `other`'s cl_kernel, its argument values and their record.
    DynamicKernel& operator=(const DynamicKernel&) = default;
    /// Takes `other`'s kernel and argument record (a self-move keeps both).
    DynamicKernel& operator=(DynamicKernel&& other) noexcept {
        if (this != &other) {
            KernelBase::operator=(std::move(other));
            record_ = std::move(other.record_);
        }
        return *this;
    }

    /// The kernel `name` of a built program, with the driver's description of its parameters
    /// (read once per program and name: set_args queries nothing).
    DynamicKernel(const Program& program, std::string_view name, OnError on_error = {})
        : DynamicKernel(detail::make_kernel(program, name, on_error), true) {}

    /// Takes ownership of `raw` (also if this fails).
    [[nodiscard]] static DynamicKernel adopt(cl_kernel raw, OnError on_error = {}) {
        return DynamicKernel(
            detail::describe_kernel(detail::Handle<cl_kernel>::adopt(raw), on_error), false);
    }
    /// Shares `raw` (retains it).
    [[nodiscard]] static DynamicKernel retain(cl_kernel raw, OnError on_error = {}) {
        return DynamicKernel(
            detail::describe_kernel(detail::Handle<cl_kernel>::retain(raw, on_error), on_error),
            false);
    }

    /// The number of parameters.
    std::size_t arity() const noexcept { return record_ ? record_->bound.size() : 0; }
    /// True when the driver described the parameters, so set_args checks more than the count.
    bool has_arg_info() const noexcept { return get() != nullptr && description().arg_info; }
    /// The parameter list as the driver describes it, e.g. "(__global const float* a, uint n)";
    /// without arg info only the count is known.
    std::string signature() const;

    /// Sets every argument: buffers, LocalMem<T>{count} and values. Fails, before any argument
    /// is set, for the wrong count or an argument that provably does not fit. Failures throw, or
    /// go to a trailing `std::error_code&`, `Status&` or OnError.
    template <class... Args>
    DynamicKernel& set_args(Args&&... args) {
        return detail::split_error_target(
            [this]<class... ArgRefs>(OnError on_error, const auto&... values) -> DynamicKernel& {
                static_assert((detail::outlives_the_call<ArgRefs> && ...),
                              "DynamicKernel::set_args: a temporary buffer, image or sampler is "
                              "released when the statement ends, before the kernel runs: keep it "
                              "in a variable until the launch");
                return this->bind_all(on_error, values...);
            },
            std::forward<Args>(args)...);
    }

    /// Sets argument `index` alone, with the same checks.
    template <class ArgRef>
    DynamicKernel& set_arg(cl_uint index, ArgRef&& arg, OnError on_error = {}) {
        static_assert(detail::outlives_the_call<ArgRef>,
                      "DynamicKernel::set_arg: a temporary buffer, image or sampler is released "
                      "when the statement ends, before the kernel runs: keep it in a variable "
                      "until the launch");
        return bind_one(index, std::as_const(arg), on_error);
    }

    /// A kernel of its own for another thread, as Kernel::clone(): on OpenCL 2.1+ platforms it
    /// keeps the argument values set so far, on older ones they must be set again.
    [[nodiscard]] DynamicKernel clone(OnError on_error = {}) const {
        bool kept = false;
        return clone_for_record(kept, on_error);
    }

    /// \private A clone with this kernel's argument values and their record (what a command
    /// graph records); `kept` is false where the values cannot come along (no clCloneKernel).
    [[nodiscard]] DynamicKernel clone_for_record(bool& kept, OnError on_error) const {
        kept = false;
        DynamicKernel copy(copy_of(kept, on_error), true);
        if (kept && copy && record_) {
            *copy.record_ = *record_;  // the argument values came along
            // PoCL 3.1's clone keeps a __local argument's size without storage of that size:
            // the sizes are set again (see Kernel::clone_for_record).
            for (std::size_t i = 0; i < record_->bound.size(); ++i) {
                const std::size_t bytes = record_->bound[i].local;
                if (bytes != 0 &&
                    !copy.set_raw(static_cast<cl_uint>(i), bytes, nullptr, on_error)) {
                    return DynamicKernel();
                }
            }
        }
        return copy;
    }

    /// The bytes of local memory the LocalMem arguments set so far ask for (Queue::enqueue
    /// compares them with the device's CL_DEVICE_LOCAL_MEM_SIZE before the driver sees them).
    std::size_t local_bytes() const noexcept { return record_ ? record_->local_total : 0; }
    /// The local memory a launch needs: local_bytes() plus the kernel's own __local memory
    /// (CL_KERNEL_LOCAL_MEM_SIZE of the kernel alone). Queue::enqueue compares it with the
    /// device's CL_DEVICE_LOCAL_MEM_SIZE.
    std::size_t local_needed() const noexcept {
        return record_ ? detail::saturating_add(record_->local_total, description().local_own) : 0;
    }

    /// \private The gate a launch holds while it enqueues (null for an empty kernel).
    detail::ArgumentGate* argument_gate() const noexcept {
        return record_ ? &record_->gate : nullptr;
    }

    /// False (after reporting which argument is not set yet) when a launch would find an unset
    /// argument (Queue::enqueue calls it; one compare). A kernel made with adopt or retain may
    /// have arguments set through the raw handle: its arguments count as set.
    bool check_arguments_set(OnError on_error) const {
        if (!record_ || record_->unset == 0) [[likely]] {
            return true;
        }
        cl_uint index = 0;
        while (record_->bound[index].set) {
            ++index;
        }
        return unset_argument(index, record_->bound.size(), on_error);
    }

    /// Fails with CL_INVALID_OPERATION (and returns false) if a buffer bound to this kernel is
    /// mapped in a way the kernel's use of it conflicts with (Queue::enqueue calls it; free
    /// when nothing is mapped).
    bool check_unmapped(OnError on_error = {}) const {
        if (detail::map_registry.any() && record_) [[unlikely]] {
            for (const Bound& bound : record_->bound) {
                if (bound.mem && !detail::map_registry.check(bound.mem.get(), bound.use,
                                                             "clEnqueueNDRangeKernel", on_error)) {
                    return false;
                }
            }
        }
        return true;
    }

  private:
    // A memory object bound to an argument (retained: a launch after the buffer object was
    // destroyed still finds the memory), and how the kernel uses it; LocalMem bytes.
    struct Bound {
        detail::Handle<cl_mem> mem;
        detail::Use use = detail::Use::read;
        std::size_t local = 0;
        bool set = false;  // set through this kernel (or its copies) at least once
    };
    // What this kernel's (and its copies') arguments are set to.
    struct Record {
        std::vector<Bound> bound;
        std::size_t local_total = 0;
        std::size_t unset = 0;  // arguments not set yet
        // Held by a thread setting arguments or by launches: see detail::ArgumentGate.
        detail::ArgumentGate gate;

        Record(std::size_t count, bool fresh) : bound(count), unset(fresh ? count : 0) {
            for (Bound& each : bound) {
                each.set = !fresh;
            }
        }
        Record(const Record&) = delete;
        // The argument record, not the gate.
        Record& operator=(const Record& other) {
            bound = other.bound;
            local_total = other.local_total;
            unset = other.unset;
            return *this;
        }
    };

    // `fresh`: made here, so no argument is set yet (a raw kernel may have them set already).
    DynamicKernel(detail::MadeKernel made, bool fresh) : KernelBase(std::move(made)) {
        if (get() != nullptr) {
            // Sized once: set_args allocates nothing.
            record_ = std::make_shared<Record>(description().arg_count, fresh);
        }
    }

    template <class... Args>
    DynamicKernel& bind_all(OnError on_error, const Args&... args) {
        static_assert((detail::DynamicArgument<Args> && ...),
                      "DynamicKernel::set_args: pass buffers, LocalMem<T>{count}, svm(p) or "
                      "trivially copyable values (not pointers, arrays or bool)");
        if (get() == nullptr) [[unlikely]] {
            refuse_empty("clSetKernelArg", on_error);
            return *this;
        }
        if (sizeof...(Args) != record_->bound.size()) [[unlikely]] {
            wrong_count(sizeof...(Args), on_error);
            return *this;
        }
        if (description().arg_info) {
            cl_uint index = 0;
            if (!(check_argument<Args>(index++, on_error) && ...)) {
                return *this;
            }
        }
        Record& record = *record_;
        const detail::SettingArguments setting(record.gate);
        if (!setting) [[unlikely]] {
            (void)shared_between_threads(on_error);
            return *this;
        }
        cl_uint index = 0;
        (void)(set_one(record, index++, args, on_error) && ...);
        return *this;
    }

    template <class Arg>
    DynamicKernel& bind_one(cl_uint index, const Arg& arg, OnError on_error) {
        static_assert(detail::DynamicArgument<Arg>,
                      "DynamicKernel::set_arg: pass a buffer, LocalMem<T>{count}, svm(p) or a "
                      "trivially copyable value (not a pointer, array or bool)");
        if (get() == nullptr) [[unlikely]] {
            refuse_empty("clSetKernelArg", on_error);
            return *this;
        }
        if (index >= record_->bound.size()) [[unlikely]] {
            index_past_end(index, on_error);
            return *this;
        }
        if (description().arg_info && !check_argument<Arg>(index, on_error)) {
            return *this;
        }
        Record& record = *record_;
        const detail::SettingArguments setting(record.gate);
        if (!setting) [[unlikely]] {
            (void)shared_between_threads(on_error);
            return *this;
        }
        set_one(record, index, arg, on_error);
        return *this;
    }

    template <class Arg>
    bool check_argument(cl_uint index, OnError on_error) const {
        static constexpr detail::HostArg host = detail::host_arg<Arg>();
        cl_int code = CL_SUCCESS;
        std::string reason = detail::argument_mismatch(host, description().args[index], code);
        if (!reason.empty()) [[unlikely]] {
            return argument_failed(index, host, code, reason, on_error);
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
    bool set_one(Record& record, cl_uint index, const Arg& arg, OnError on_error) {
        using Traits = detail::ArgumentTraits<Arg>;
        bool ok = false;
        detail::Use use = detail::Use::read;
        if constexpr (Traits::form == detail::ArgForm::memory) {
            use = use_of(index, Traits::kernel_writes);
        }
        const cl_mem set = set_common(index, arg, use, ok, on_error);
        Bound& bound = record.bound[index];
        if (ok && !bound.set) {
            bound.set = true;
            --record.unset;
        }
        if (set == nullptr) {
            bound.mem.reset();
        } else if (bound.mem.get() != set) {  // the same buffer again is held already
            bound.mem = detail::Handle<cl_mem>::retain(set, on_error);
        }
        bound.use = use;
        std::size_t local = 0;
        if constexpr (Traits::form == detail::ArgForm::local) {
            local = ok ? Traits::count(arg) * sizeof(typename Traits::element_type)
                       : 0;  // checked by set_local
        }
        if (local != bound.local) {
            bound.local = local;
            std::size_t total = 0;  // saturates: any sum past size_t exceeds every device
            for (const Bound& each : record.bound) {
                total = detail::saturating_add(total, each.local);
            }
            record.local_total = total;
        }
        return ok;
    }

    [[gnu::cold]] void wrong_count(std::size_t given, OnError on_error) const;
    [[gnu::cold]] void index_past_end(cl_uint index, OnError on_error) const;
    [[gnu::cold]] bool argument_failed(cl_uint index, const detail::HostArg& host, cl_int code,
                                       const std::string& reason, OnError on_error) const;

    // Shared by copies (they share the cl_kernel and its argument values).
    std::shared_ptr<Record> record_;
};

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/dynamic_kernel.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
