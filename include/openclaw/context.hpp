// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Context: the devices that share memory objects and programs (objects layer). Created
// explicitly from one or more devices of one platform; openclaw never makes a default context
// behind the user's back.

#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/device.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// Receives what a driver reports about a context through clCreateContext's notification
/// callback (NVIDIA's describes out-of-resources and launch failures there, in more words than
/// the error code). Called on whichever thread the driver calls from; must not throw or block.
using ContextReportHandler = void (*)(cl_context context, const char* report) noexcept;

/// Installs `handler` for the reports of every context openclaw makes and returns the previous
/// one. nullptr restores the default: each report is kept (the last 16 of all contexts) and
/// appended to the message of the next failure on that context's objects (an Error, a Status, or
/// what the failure handler gets), which names the context; marked as from another thread when
/// the driver reported on a thread other than the failing call's.
ContextReportHandler set_context_report_handler(ContextReportHandler handler) noexcept;

namespace detail {

/// The reports of contexts, between the driver's callback and the next error. Never destroyed: a
/// driver may report during the process's exit.
struct ContextReports {
    struct Report {
        const void* thread = nullptr;  // the reporting thread's token
        cl_context context = nullptr;  // what it is about (null: a context openclaw does not know)
        std::string text;
    };
    static constexpr std::size_t kept = 16;

    std::mutex mutex;
    std::atomic<ContextReportHandler> handler{nullptr};
    std::uintptr_t next_id = 1;
    std::vector<std::pair<std::uintptr_t, cl_context>> contexts;  // registered ids
    std::vector<Report> pending;
    std::size_t dropped = 0;  // reports pushed out of `pending` before an error took them
};

ContextReports& context_reports();
/// A token that tells the calling thread from others (its address).
inline thread_local const char report_thread_token = 0;

/// A new id for the callback's user data of a context about to be made.
std::uintptr_t register_context(OnError on_error);
/// The context made for `id` (or nullptr: it was not made, or is gone).
void bind_context(std::uintptr_t id, cl_context context) noexcept;
void CL_CALLBACK context_notify(const char* report, const void* private_info, std::size_t size,
                                void* user_data);
/// clSetContextDestructorCallback's callback: forgets the id in `user_data`.
void CL_CALLBACK context_destroyed(cl_context context, void* user_data);
/// The reports about `context` not yet carried by an error, worded for one (and forgotten).
std::string take_context_reports(cl_context context);

/// Forgets a context's id when the last openclaw Context made with it goes (on platforms without
/// clSetContextDestructorCallback, whose callback forgets it when the driver destroys it).
struct ContextRegistration {
    std::uintptr_t id = 0;
    ContextRegistration() = default;
    ContextRegistration(const ContextRegistration&) = delete;
    ContextRegistration& operator=(const ContextRegistration&) = delete;
    ~ContextRegistration() { bind_context(id, nullptr); }
};

}  // namespace detail

/// An OpenCL context (cl_context): one or more devices of one platform, the scope of buffers,
/// programs and queues. Copying shares it (clRetainContext), destruction releases it.
class Context {
  public:
    Context() = default;

    /// A context over one device.
    explicit Context(const Device& device, OnError on_error = {})
        : Context(std::span<const Device>(&device, 1), on_error) {}

    /// A context over several devices, which must belong to one platform.
    explicit Context(std::span<const Device> devices, OnError on_error = {})
        : handle_(create(devices, registration_, on_error)),
          devices_(handle_
                       ? std::make_shared<const std::vector<Device>>(devices.begin(), devices.end())
                       : nullptr) {}
    /// `Context{device_a, device_b}`: as the span constructor.
    explicit Context(std::initializer_list<Device> devices, OnError on_error = {})
        : Context(std::span<const Device>(devices.begin(), devices.size()), on_error) {}

    /// Takes ownership of `raw` (no retain; released by the destructor).
    [[nodiscard]] static Context adopt(cl_context raw) noexcept {
        return Context(detail::Handle<cl_context>::adopt(raw));
    }
    /// Shares `raw`: retains it (clRetainContext), the caller keeps its own reference.
    [[nodiscard]] static Context retain(cl_context raw, OnError on_error = {}) {
        return Context(detail::Handle<cl_context>::retain(raw, on_error));
    }

    /// The context's devices, in the order they were given. (For a context made here these are
    /// the devices it was made of: PoCL reports the root device for a context of its sub-devices.)
    std::vector<Device> devices(OnError on_error = {}) const {
        if (devices_) {
            return *devices_;
        }
        return devices_of(get(), on_error);
    }

    /// Any clGetContextInfo parameter, with its C++ type from openclaw's info table.
    template <cl_context_info Param>
    detail::info_t<cl_context, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_context, Param>(on_error, get());
    }

    /// The raw cl_context (not retained; null when empty).
    cl_context get() const noexcept { return handle_.get(); }
    /// True when the object holds a context.
    explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
    friend bool operator==(const Context& a, const Context& b) noexcept {
        return a.handle_ == b.handle_;
    }

  private:
    explicit Context(detail::Handle<cl_context> handle) noexcept : handle_(std::move(handle)) {}

    static detail::Handle<cl_context> create(
        std::span<const Device> devices,
        std::shared_ptr<const detail::ContextRegistration>& registration, OnError on_error);
    static std::vector<Device> devices_of(cl_context raw, OnError on_error);

    // Declared first, so that it is made before handle_ and goes after it.
    std::shared_ptr<const detail::ContextRegistration> registration_;
    detail::Handle<cl_context> handle_;
    std::shared_ptr<const std::vector<Device>> devices_;  // as made; absent for adopted handles
};

namespace detail {
/// Refuses a device list naming an empty device, a device outside `context` or one twice
/// (CL_INVALID_DEVICE). An empty list is refused with `when_empty` (CL_INVALID_VALUE), or accepted
/// where `when_empty` is null (it stands for all the context's devices there).
bool check_context_devices(const Context& context, const std::vector<Device>& devices,
                           const char* call, OnError on_error, const char* when_empty = nullptr);
}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/context.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
