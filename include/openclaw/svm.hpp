// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Shared virtual memory (OpenCL 2.0+, optional on 3.0; a side header of the memory wing): what a
// device supports, SvmAllocator<T> for std::vector and friends, SvmMapping<T> (the map/unmap
// guard coarse-grain SVM needs before the host touches it), and svm(ptr), which marks a pointer
// as an SVM kernel argument.

#include <openclaw/context.hpp>
#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/memory/memory.hpp>
#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/params.hpp>
#include <openclaw/queue.hpp>

#include <cstddef>
#include <limits>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
// SVM is declared here: the stubs of fwd.hpp step aside.
template <class... A>
inline constexpr bool side_header_included<svm_header, A...> = true;
}  // namespace detail

/// A readable name of the level, e.g. "coarse-grain buffer".
constexpr std::string_view to_string(SvmLevel level) noexcept {
    switch (level) {
        case SvmLevel::none:
            return "none";
        case SvmLevel::coarse_grain:
            return "coarse-grain buffer";
        case SvmLevel::fine_grain_buffer:
            return "fine-grain buffer";
        case SvmLevel::fine_grain_system:
            return "fine-grain system";
    }
    return "unknown";
}

/// A pointer marked as shared virtual memory, for an `In/Out/InOut/Constant<T>` kernel parameter.
/// A pointer to const fits only parameters the kernel reads.
template <class T>
requires detail::side_header_included<detail::svm_header, T>
struct SvmPointer<T> {
    /// The shared pointer passed to clSetKernelArgSVMPointer.
    T* pointer = nullptr;
};

/// Marks `pointer` (from SvmAllocator or clSVMAlloc) as an SVM kernel argument.
template <class T>
constexpr SvmPointer<T> svm(T* pointer) noexcept {
    return {pointer};
}

/// A span of shared virtual memory, what the queue's SVM commands take: `queue.copy(svm(a),
/// svm(b))`, `queue.fill(svm(v), x)`, `queue.map_read(svm(v))`, `queue.migrate(svm(v))`. A
/// std::span's type cannot say that its memory is SVM; this one's does. A view, like std::span:
/// the memory stays its owner's.
template <class T>
requires detail::side_header_included<detail::svm_header, T>
class SvmSpan<T> {
  public:
    /// The element type.
    using element_type = T;

    /// An empty span.
    constexpr SvmSpan() noexcept = default;
    /// `memory`, which must be SVM (from SvmAllocator or clSVMAlloc).
    constexpr explicit SvmSpan(std::span<T> memory) noexcept : span_(memory) {}
    /// A span of non-const elements as one of const elements.
    template <class U>
    requires std::is_same_v<const U, T>
    constexpr SvmSpan(SvmSpan<U> other) noexcept : span_(other.span()) {}  // NOLINT: implicit

    /// The memory as a std::span.
    constexpr std::span<T> span() const noexcept { return span_; }
    /// The first element.
    constexpr T* data() const noexcept { return span_.data(); }
    /// The number of elements.
    constexpr std::size_t size() const noexcept { return span_.size(); }
    /// The size in bytes.
    constexpr std::size_t size_bytes() const noexcept { return span_.size_bytes(); }

  private:
    std::span<T> span_;
};

/// Marks `memory` as SVM for the queue's commands: a span of it.
template <class T, std::size_t Extent>
constexpr SvmSpan<T> svm(std::span<T, Extent> memory) noexcept {
    return SvmSpan<T>(memory);
}
/// Marks a container's memory (a std::vector with an SvmAllocator, say) as SVM for the queue's
/// commands: a span of all its elements.
template <class Container>
requires(std::is_class_v<Container>&& requires(Container& memory) {
    std::data(memory);
    std::size(memory);
}) constexpr auto svm(Container& memory) noexcept {
    using T = std::remove_pointer_t<decltype(std::data(memory))>;
    return SvmSpan<T>(std::span<T>(std::data(memory), std::size(memory)));
}

namespace detail {

/// The kernel-argument rule of an SVM pointer (params.hpp): set with clSetKernelArgSVMPointer
/// for a __global or __constant pointer to T; a pointer to const only where the kernel reads.
template <class T>
struct ArgumentTraits<SvmPointer<T>> {
    static_assert(CL_TARGET_OPENCL_VERSION >= 200 || sizeof(T) == 0,
                  "SVM kernel arguments need CL_TARGET_OPENCL_VERSION >= 200");
    static constexpr ArgForm form = ArgForm::svm;
    static constexpr const char* name = "SVM pointer";
    using element_type = T;
    static constexpr bool kernel_reads = true;
    static constexpr bool kernel_writes = !std::is_const_v<T>;
    static constexpr const char* access_name = "";
    static constexpr bool dynamic = true;
    static const void* pointer(const SvmPointer<T>& svm) noexcept { return svm.pointer; }

    template <class P>
    static consteval Verdict verdict() {
        constexpr ParamKind kind = ParamTraits<P>::kind;
        if constexpr (pointer_verdict<P, std::remove_const_t<T>>() != Verdict::ok) {
            return pointer_verdict<P, std::remove_const_t<T>>();
        } else if constexpr (std::is_const_v<T> &&
                             (kind == ParamKind::out || kind == ParamKind::in_out ||
                              kind == ParamKind::global)) {
            return Verdict::needs_mutable_pointer;
        } else {
            return Verdict::ok;
        }
    }
};

}  // namespace detail

#if CL_TARGET_OPENCL_VERSION >= 200

/// What `device` supports; never calls a query its platform is too old to know.
inline SvmLevel svm_level(const Device& device, OnError on_error = {}) {
    detail::Relay step(on_error);
    if (device.platform(step).version(step) < Version{2, 0} ||
        device.version(step) < Version{2, 0} || step.failed()) {
        return SvmLevel::none;
    }
    const cl_device_svm_capabilities caps = device.info<CL_DEVICE_SVM_CAPABILITIES>(on_error);
    if ((caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0) {
        return SvmLevel::fine_grain_system;
    }
    if ((caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0) {
        return SvmLevel::fine_grain_buffer;
    }
    if ((caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0) {
        return SvmLevel::coarse_grain;
    }
    return SvmLevel::none;
}

/// An allocator of SVM in one context, usable with std::vector. Elements it default-constructs
/// are left uninitialized (no host write), so a coarse-grain vector can be sized before it is
/// mapped; fill it inside an SvmMapping, or on the device.
template <class T>
requires detail::side_header_included<detail::svm_header, T>
class SvmAllocator<T> {
  public:
    /// The element type.
    using value_type = T;

    /// `fine_grain` asks for memory the host may touch without mapping (CL_MEM_SVM_FINE_GRAIN_
    /// BUFFER). Throws CL_INVALID_OPERATION if no device of the context supports what is asked.
    /// An allocator that failed (see OnError) refuses every allocation.
    explicit SvmAllocator(const Context& context, bool fine_grain = false, OnError on_error = {})
        : context_(context),
          flags_(CL_MEM_READ_WRITE | (fine_grain ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0)) {
        const SvmLevel needed = fine_grain ? SvmLevel::fine_grain_buffer : SvmLevel::coarse_grain;
        detail::Relay step(on_error);
        if (!context) {
            detail::refuse_empty(step, CL_INVALID_CONTEXT, "clSVMAlloc", "context");
        }
        for (const Device& device : context.devices(step)) {
            const SvmLevel level = svm_level(device, step);
            if (level < needed && !step.failed()) {
                detail::fail(
                    step, CL_INVALID_OPERATION, "clSVMAlloc",
                    detail::concat("device \"", device.name(step), "\" supports ", to_string(level),
                                   " SVM, this allocator needs ", to_string(needed)));
            }
        }
        if (step.failed()) {
            context_ = Context();
        }
    }
    /// Rebinding copy: the same context and flags for another element type.
    template <class U>
    SvmAllocator(const SvmAllocator<U>& other) noexcept  // NOLINT: rebinding is implicit
        : context_(other.context()), flags_(other.flags()) {}

    /// Containers cannot take a null result, so a failure here always throws (or, without
    /// exceptions, goes to the failure handler).
    [[nodiscard]] T* allocate(std::size_t n) {
        if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
            detail::throw_error(CL_INVALID_BUFFER_SIZE, "clSVMAlloc",
                                detail::concat(n, " elements of ", sizeof(T), " bytes"));
        }
        if (!context_) {
            detail::throw_error(CL_INVALID_CONTEXT, "clSVMAlloc",
                                "the allocator has no context (its construction failed)");
        }
        void* p = clSVMAlloc(context_.get(), flags_, n * sizeof(T),
                             static_cast<cl_uint>(alignof(T) < 16 ? 16 : alignof(T)));
        if (p == nullptr) {
            detail::throw_error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clSVMAlloc",
                                detail::concat(n, " elements (", n * sizeof(T), " bytes)"));
        }
        return static_cast<T*>(p);
    }
    /// Frees `p` (clSVMFree).
    void deallocate(T* p, std::size_t) noexcept { clSVMFree(context_.get(), p); }

    /// Default construction leaves trivially constructible elements uninitialized.
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    /// Constructs a U from `args` at `p`.
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    /// The context the memory is allocated in.
    const Context& context() const noexcept { return context_; }
    /// The clSVMAlloc flags.
    cl_svm_mem_flags flags() const noexcept { return flags_; }

    template <class U>
    friend bool operator==(const SvmAllocator& a, const SvmAllocator<U>& b) noexcept {
        return a.context().get() == b.context().get() && a.flags() == b.flags();
    }

  private:
    Context context_;
    cl_svm_mem_flags flags_;
};

/// Host access to a region of coarse-grain SVM, made by queue.map_read(svm(region)) (map_write,
/// map_discard, map_read_write; blocking) and unmapped when destroyed or by unmap().
/// Movable, not copyable. Errors of the destructor's unmap reach the error hook.
template <class T>
requires detail::side_header_included<detail::svm_header, T>
class SvmMapping<T> {
  public:
    /// An empty view (nothing mapped).
    SvmMapping() = default;
    /// Takes the mapping; `other` is left empty.
    SvmMapping(SvmMapping&& other) noexcept
        : queue_(std::move(other.queue_)),
          region_(std::exchange(other.region_, {})),
          mapped_(std::exchange(other.mapped_, false)) {}
    /// Unmaps what this view holds, then takes `other`'s mapping.
    SvmMapping& operator=(SvmMapping&& other) noexcept {
        if (this != &other) {
            unmap_quietly();
            queue_ = std::move(other.queue_);
            region_ = std::exchange(other.region_, {});
            mapped_ = std::exchange(other.mapped_, false);
        }
        return *this;
    }
    SvmMapping(const SvmMapping&) = delete;
    SvmMapping& operator=(const SvmMapping&) = delete;
    ~SvmMapping() { unmap_quietly(); }

    /// Unmaps now, reporting a failure (see OnError); the view is empty afterwards.
    void unmap(OnError on_error = {}) {
        if (mapped_) {
            (void)detail::check(release(), "clEnqueueSVMUnmap", on_error);
        }
    }
    /// As unmap(), and returns the unmap command's Event (empty when nothing was mapped or the
    /// unmap failed).
    [[nodiscard]] Event unmap(WithEvent, OnError on_error = {}) {
        cl_event raw = nullptr;
        if (mapped_) {
            (void)detail::check(release(&raw), "clEnqueueSVMUnmap", on_error);
        }
        return Event::adopt(raw);
    }

    /// The mapped region as a std::span.
    std::span<T> span() const noexcept { return region_; }
    /// The first mapped element.
    T* data() const noexcept { return region_.data(); }
    /// The number of mapped elements.
    std::size_t size() const noexcept { return region_.size(); }
    /// True for an empty (default-constructed, moved-from, failed or unmapped) view.
    bool empty() const noexcept { return region_.empty(); }
    /// True while the view holds a mapping.
    explicit operator bool() const noexcept { return mapped_; }
    /// Element `i` (unchecked).
    T& operator[](std::size_t i) const noexcept { return region_[i]; }
    /// Iterator to the first element.
    T* begin() const noexcept { return region_.data(); }
    /// Iterator past the last element.
    T* end() const noexcept { return region_.data() + region_.size(); }

  private:
    template <class, class>
    friend struct detail::CommandTraits;

    SvmMapping(const Queue& queue, std::span<T> region, cl_map_flags flags, const WaitList& wait,
               cl_event* event, OnError on_error)
        : region_(region) {
        constexpr const char* call = "clEnqueueSVMMap";
        if (!queue) {
            detail::refuse_empty(on_error, CL_INVALID_COMMAND_QUEUE, call, "queue");
            region_ = {};
            return;
        }
        if (region_.data() == nullptr && !region_.empty()) {
            detail::fail(on_error, CL_INVALID_VALUE, call, "the region is a null pointer");
            region_ = {};
            return;
        }
        if (!wait.check(call, queue.context_handle(), on_error)) {
            region_ = {};
            return;
        }
        // The rule of every command, buffer maps included: nothing to map is an empty view, the
        // wait list still waited for when an event is asked for.
        if (region_.empty()) {
            detail::nothing_to_do(queue, wait, event, on_error);
            region_ = {};
            return;
        }
        queue_ = detail::Handle<cl_command_queue>::retain(queue.get(), on_error);
        mapped_ = queue_ &&
                  detail::check(detail::enqueued(clEnqueueSVMMap(queue.get(), CL_TRUE, flags,
                                                                 pointer(), region_.size_bytes(),
                                                                 wait.size(), wait.data(), event),
                                                 event),
                                call, on_error,
                                [&] { return detail::concat(region_.size(), " elements of SVM"); });
        if (!mapped_) {
            region_ = {};
        }
    }

    void unmap_quietly() noexcept {
        if (mapped_) {
            if (const cl_int code = release(); code != CL_SUCCESS) {
                detail::report_cleanup_failure("clEnqueueSVMUnmap", code);
            }
        }
    }
    void* pointer() const noexcept { return const_cast<std::remove_const_t<T>*>(region_.data()); }
    cl_int release(cl_event* event = nullptr) noexcept {
        mapped_ = false;
        const cl_int code =
            detail::enqueued(clEnqueueSVMUnmap(queue_.get(), pointer(), 0, nullptr, event), event);
        region_ = {};
        return code;
    }

    detail::Handle<cl_command_queue> queue_;
    std::span<T> region_;
    bool mapped_ = false;
};

namespace detail {
/// clEnqueueSVMMemcpy of `bytes` (blocking).
void svm_copy(const Queue& queue, void* dst, const void* src, std::size_t dst_bytes,
              std::size_t bytes, const WaitList& wait, cl_event* event, OnError on_error);
/// clEnqueueSVMMemFill of `bytes` with the `pattern_size` bytes at `pattern`.
void svm_fill(const Queue& queue, void* dst, std::size_t bytes, const void* pattern,
              std::size_t pattern_size, const WaitList& wait, cl_event* event, OnError on_error);
/// clEnqueueSVMMigrateMem of one range.
void svm_migrate(const Queue& queue, const void* memory, std::size_t bytes, MigrateOptions options,
                 const WaitList& wait, cl_event* event, OnError on_error);

}  // namespace detail

namespace detail {
template <class T>
inline constexpr bool is_svm_span = false;
template <class T>
inline constexpr bool is_svm_span<SvmSpan<T>> = true;

/// The queue's SVM commands (queue.hpp's open commands), on spans marked with svm(...). Options
/// as the buffer commands'.
template <class T, class Verb>
struct CommandTraits<SvmSpan<T>, Verb> {
    /// What a map returns: the view, with `with_event` the map command's Event beside it.
    template <class U, class... O>
    using MapOf =
        std::conditional_t<asks_event<O...>, std::pair<SvmMapping<U>, Event>, SvmMapping<U>>;

    /// queue.copy(src, dst): the whole of `src` to the start of `dst`, which must hold it
    /// (clEnqueueSVMMemcpy; blocking, since either side may be host memory: one of them is an
    /// SvmSpan, the other an SvmSpan or host memory of the same element type).
    template <class Source, class Destination, CommandOption... O>
    static EventIfAsked<O...> command(verb::Copy, const Queue& queue, const Source& src,
                                      Destination&& dst, O&&... options) {
        const auto from = svm_side<true>(src);
        const auto to = svm_side<false>(std::forward<Destination>(dst));
        static_assert(!std::is_const_v<typename decltype(to)::element_type>,
                      "queue.copy(src, svm(dst)): the destination must be writable");
        static_assert(std::is_same_v<std::remove_const_t<typename decltype(from)::element_type>,
                                     typename decltype(to)::element_type>,
                      "queue.copy with SVM: the source and destination must have the same "
                      "element type");
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                svm_copy(queue, to.data(), from.data(), to.size_bytes(), from.size_bytes(), wait,
                         event, on_error);
            },
            options...);
    }
    /// queue.fill(svm(dst), value): every element set to `value` (clEnqueueSVMMemFill; enqueued:
    /// the pattern is copied at once). T's size must be a power of two up to 128 bytes.
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Fill, const Queue& queue, const SvmSpan<T>& dst,
                                      const std::type_identity_t<std::remove_const_t<T>>& value,
                                      O&&... options) {
        static_assert(!std::is_const_v<T>, "queue.fill(svm(dst), value): dst must be writable");
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                svm_fill(queue, dst.data(), dst.size_bytes(), &value, sizeof(T), wait, event,
                         on_error);
            },
            options...);
    }
    /// queue.migrate(svm(memory), [how]): to this queue's device, or the host with
    /// `{.to_host = true}` (clEnqueueSVMMigrateMem, OpenCL 2.1 platforms; enqueued).
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Migrate, const Queue& queue, const SvmSpan<T>& memory,
                                      O&&... options) {
        return command(verb::Migrate{}, queue, memory, MigrateOptions{},
                       std::forward<O>(options)...);
    }
    template <CommandOption... O>
    static EventIfAsked<O...> command(verb::Migrate, const Queue& queue, const SvmSpan<T>& memory,
                                      const MigrateOptions& how, O&&... options) {
        return run_command(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                svm_migrate(queue, memory.data(), memory.size_bytes(), how, wait, event, on_error);
            },
            options...);
    }
    /// queue.map_read(svm(region)) (clEnqueueSVMMap; blocking): a view of const T that unmaps
    /// itself; with `with_event` the view and the map command's Event. Coarse-grain SVM must be
    /// mapped for the host to touch it.
    template <CommandOption... O>
    static MapOf<const T, O...> command(verb::MapRead, const Queue& queue, const SvmSpan<T>& region,
                                        O&&... options) {
        return map<const T, false>(queue, region, CL_MAP_READ, options...);
    }
    /// queue.map_write(svm(region)): CL_MAP_WRITE (what the host leaves keeps its contents).
    template <CommandOption... O>
    static MapOf<T, O...> command(verb::MapWrite, const Queue& queue, const SvmSpan<T>& region,
                                  O&&... options) {
        return map<T, true>(queue, region, CL_MAP_WRITE, options...);
    }
    /// queue.map_discard(svm(region)): CL_MAP_WRITE_INVALIDATE_REGION (write every element).
    template <CommandOption... O>
    static MapOf<T, O...> command(verb::MapDiscard, const Queue& queue, const SvmSpan<T>& region,
                                  O&&... options) {
        return map<T, true>(queue, region, CL_MAP_WRITE_INVALIDATE_REGION, options...);
    }
    /// queue.map_read_write(svm(region)).
    template <CommandOption... O>
    static MapOf<T, O...> command(verb::MapReadWrite, const Queue& queue, const SvmSpan<T>& region,
                                  O&&... options) {
        return map<T, true>(queue, region, CL_MAP_READ | CL_MAP_WRITE, options...);
    }

  private:
    // `Writes`: the map lets the host write (the view's elements are T), so T must not be const.
    template <class U, bool Writes, class... O>
    static MapOf<U, O...> map(const Queue& queue, const SvmSpan<T>& region, cl_map_flags flags,
                              O&... options) {
        static_assert(!Writes || !std::is_const_v<T>,
                      "queue.map_write / map_discard / map_read_write(svm(region)): the region "
                      "must be writable (an SvmSpan of const elements maps for reading only)");
        return run_map(
            [&](const WaitList& wait, cl_event* event, OnError on_error) {
                return SvmMapping<U>(queue, std::span<U>(region.span()), flags, wait, event,
                                     on_error);
            },
            options...);
    }

    // One side of a copy as a span: an SvmSpan's, or host memory's (const for the source).
    template <bool Source, class Side>
    static auto svm_side(Side&& side) noexcept {
        using Plain = std::remove_cvref_t<Side>;
        if constexpr (is_svm_span<Plain>) {
            return side.span();
        } else if constexpr (Source) {
            return std::span(std::as_const(side));
        } else {
            return std::span(side);
        }
    }
};
}  // namespace detail

#endif  // CL_TARGET_OPENCL_VERSION >= 200

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/svm.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
