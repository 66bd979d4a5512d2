// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Handle<cl_xxx>: the one owner of an OpenCL reference count (detail core layer). Copy retains,
// move steals and nulls the source, the destructor releases and never throws. Every openclaw
// object holds one, so retain/release appear nowhere else in the library.

#include <openclaw/error.hpp>

#include <utility>

OPENCLAW_BEGIN_NAMESPACE
namespace detail {

/// Retain/release entry points of each OpenCL object type (counted = false: no reference count).
template <class T>
struct HandleTraits;

#define OPENCLAW_HANDLE_TRAITS(type, retain_fn, release_fn)              \
    template <>                                                          \
    struct HandleTraits<type> {                                          \
        static constexpr bool counted = true;                            \
        static cl_int retain(type h) noexcept { return retain_fn(h); }   \
        static cl_int release(type h) noexcept { return release_fn(h); } \
        static constexpr const char* retain_name = #retain_fn;           \
        static constexpr const char* release_name = #release_fn;         \
    }

OPENCLAW_HANDLE_TRAITS(cl_device_id, clRetainDevice, clReleaseDevice);
OPENCLAW_HANDLE_TRAITS(cl_context, clRetainContext, clReleaseContext);
OPENCLAW_HANDLE_TRAITS(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue);
OPENCLAW_HANDLE_TRAITS(cl_mem, clRetainMemObject, clReleaseMemObject);
OPENCLAW_HANDLE_TRAITS(cl_program, clRetainProgram, clReleaseProgram);
OPENCLAW_HANDLE_TRAITS(cl_kernel, clRetainKernel, clReleaseKernel);
OPENCLAW_HANDLE_TRAITS(cl_event, clRetainEvent, clReleaseEvent);
OPENCLAW_HANDLE_TRAITS(cl_sampler, clRetainSampler, clReleaseSampler);

#undef OPENCLAW_HANDLE_TRAITS

template <>
struct HandleTraits<cl_platform_id> {
    static constexpr bool counted = false;
};

/// What a create call returned with `code`: `raw` on success; null on an error, after releasing
/// `raw` if the driver returned an object all the same. The specification says a failing call
/// returns null, but NVIDIA 580 returns an object with the error of a failed import
/// (clCreateBufferWithProperties): every create goes through here, so no error path can leak one.
template <class T>
[[nodiscard]] T created_or_null(T raw, cl_int code) noexcept {
    if (code != CL_SUCCESS && raw != nullptr) {
        (void)HandleTraits<T>::release(raw);  // an object the driver says it did not make
        return nullptr;
    }
    return raw;
}

/// What an enqueue call returned: `code`, after releasing the event the driver returned in
/// `*event` with an error, so that `*event` is null after every failure (the caller adopts it only
/// on success, and an exception leaves nothing behind). `event` may be null (no event asked
/// for); the caller nulls `*event` before the call. created_or_null's rule, for commands.
[[nodiscard]] inline cl_int enqueued(cl_int code, cl_event* event) noexcept {
    if (code != CL_SUCCESS && event != nullptr && *event != nullptr) [[unlikely]] {
        (void)clReleaseEvent(*event);  // an event of a command the driver says it did not enqueue
        *event = nullptr;
    }
    return code;
}

template <class T>
class Handle {
    using Traits = HandleTraits<T>;

  public:
    using raw_type = T;

    Handle() noexcept = default;

    /// Takes ownership of one reference the caller holds (e.g. fresh from clCreateXxx).
    [[nodiscard]] static Handle adopt(T raw) noexcept { return Handle(raw); }

    /// Shares `raw`: retains it, so the caller keeps its own reference. Empty if the retain
    /// failed (reported to `sink`).
    [[nodiscard]] static Handle retain(T raw, OnError sink = {}) {
        return Handle(acquire(raw, sink));
    }

    /// Shares `other`'s object (a failed retain throws: a copy has no OnError to report to).
    Handle(const Handle& other) : raw_(acquire(other.raw_, OnError{})) {}

    Handle(Handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}

    Handle& operator=(const Handle& other) {
        if (raw_ != other.raw_) {
            T raw = acquire(other.raw_, OnError{});
            reset();
            raw_ = raw;
        }
        return *this;
    }

    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            reset();
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }

    ~Handle() { reset(); }

    /// Drops this reference (reporting a failed release to the error hook) and becomes empty.
    void reset() noexcept {
        if constexpr (Traits::counted) {
            if (T raw = std::exchange(raw_, nullptr)) {
                if (const cl_int code = Traits::release(raw); code != CL_SUCCESS) {
                    report_cleanup_failure(Traits::release_name, code);
                }
            }
        } else {
            raw_ = nullptr;
        }
    }

    /// Gives up ownership without releasing; the caller now owns the reference.
    [[nodiscard]] T detach() noexcept { return std::exchange(raw_, nullptr); }

    T get() const noexcept { return raw_; }
    explicit operator bool() const noexcept { return raw_ != nullptr; }
    friend bool operator==(const Handle& a, const Handle& b) noexcept { return a.raw_ == b.raw_; }

  private:
    explicit Handle(T raw) noexcept : raw_(raw) {}

    // `raw`, retained; nullptr when the retain failed.
    static T acquire(T raw, OnError sink) {
        if constexpr (Traits::counted) {
            if (raw != nullptr && !check(Traits::retain(raw), Traits::retain_name, sink)) {
                return nullptr;
            }
        }
        return raw;
    }

    T raw_ = nullptr;
};

/// A plain value kept beside a Handle (the raw context an object belongs to, a buffer's size)
/// that a move resets as it resets the handle, so that a moved-from object is empty in every
/// respect and openclaw's own checks, not the driver, refuse it.
template <class T>
class ResetOnMove {
  public:
    ResetOnMove() = default;
    ResetOnMove(T value) noexcept : value_(value) {}  // NOLINT(google-explicit-constructor)
    ResetOnMove(const ResetOnMove&) = default;
    ResetOnMove& operator=(const ResetOnMove&) = default;
    ResetOnMove(ResetOnMove&& other) noexcept : value_(std::exchange(other.value_, T{})) {}
    ResetOnMove& operator=(ResetOnMove&& other) noexcept {
        value_ = std::exchange(other.value_, T{});  // self-move: takes T{}, then the old value
        return *this;
    }
    ~ResetOnMove() = default;

    operator T() const noexcept { return value_; }  // NOLINT(google-explicit-constructor)

  private:
    T value_{};
};

}  // namespace detail
OPENCLAW_END_NAMESPACE

#include <openclaw/detail/base/macros_pop.hpp>
