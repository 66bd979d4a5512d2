// SPDX-License-Identifier: Apache-2.0
#pragma once
// Context: the devices that share memory objects and programs (objects layer). Created
// explicitly from one or more devices of one platform; openclaw never makes a default context
// behind the user's back.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
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
/// one. nullptr restores the default: each report is kept (the last 16) and appended to the
/// message of the next openclaw::Error raised (or given to the failure handler), marked as from
/// another thread when the driver reported on a thread other than the failing call's.
ContextReportHandler set_context_report_handler(ContextReportHandler handler) noexcept;

namespace detail {

/// The reports of contexts, between the driver's callback and the next error. Never destroyed: a
/// driver may report during the process's exit.
struct ContextReports {
    struct Report {
        const void* thread = nullptr;  // the reporting thread's token
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
/// The reports not yet carried by an error, worded for one (and forgotten).
std::string take_context_reports();

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

#if OPENCLAW_OUT_OF_LINE_DEFINITIONS
OPENCLAW_INLINE std::vector<Device> Context::devices_of(cl_context raw, OnError on_error) {
    detail::Relay step(on_error);
    std::vector<Device> devices;
    for (cl_device_id id : detail::get_info<cl_context, CL_CONTEXT_DEVICES>(step, raw)) {
        devices.push_back(Device::retain(id, step));
    }
    return step.failed() ? std::vector<Device>() : devices;
}

OPENCLAW_INLINE detail::Handle<cl_context> Context::create(
    std::span<const Device> devices,
    std::shared_ptr<const detail::ContextRegistration>& registration, OnError on_error) {
    if (devices.empty()) {
        detail::fail(on_error, CL_INVALID_VALUE, "clCreateContext", "no devices given");
        return {};
    }
    std::vector<cl_device_id> ids;
    ids.reserve(devices.size());
    detail::Relay step(on_error);
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (!devices[i]) {
            detail::fail(
                on_error, CL_INVALID_DEVICE, "clCreateContext",
                detail::concat("device ", i, " is empty (default-constructed or moved-from)"));
            return {};
        }
    }
    const Platform platform = devices.front().platform(step);
    for (std::size_t i = 0; i < devices.size() && !step.failed(); ++i) {
        if (devices[i].platform(step) != platform && !step.failed()) {
            detail::fail(on_error, CL_INVALID_DEVICE, "clCreateContext",
                         detail::describe_safely([&](OnError quiet) {
                             return detail::concat("device ", i, " (\"", devices[i].name(quiet),
                                                   "\") belongs to platform \"",
                                                   devices[i].platform(quiet).name(quiet),
                                                   "\", device 0 to \"", platform.name(quiet),
                                                   "\"; a context spans one platform");
                         }));
            return {};
        }
        ids.push_back(devices[i].get());
    }
    if (step.failed()) {
        return {};
    }
#if CL_TARGET_OPENCL_VERSION >= 300
    const bool destructor_callback = platform.version(step) >= Version{3, 0};
    if (step.failed()) {
        return {};
    }
#endif
    const std::uintptr_t id = detail::register_context(on_error);
    if (id == 0) {
        return {};
    }
    cl_int code = CL_SUCCESS;
    cl_context raw = clCreateContext(nullptr, static_cast<cl_uint>(ids.size()), ids.data(),
                                     &detail::context_notify, reinterpret_cast<void*>(id), &code);
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, "clCreateContext", on_error, [&](OnError quiet) {
            return detail::concat(ids.size(), " device(s), first \"", devices.front().name(quiet),
                                  "\"");
        })) {
        detail::bind_context(id, nullptr);
        return {};
    }
    detail::bind_context(id, raw);
    auto handle = detail::Handle<cl_context>::adopt(raw);
    bool forgets_itself = false;
#if CL_TARGET_OPENCL_VERSION >= 300
    // The driver says when it destroys the context (buffers and queues keep it past the last
    // Context): the id is forgotten then.
    if (destructor_callback) {
        if (!detail::check(clSetContextDestructorCallback(raw, &detail::context_destroyed,
                                                          reinterpret_cast<void*>(id)),
                           "clSetContextDestructorCallback", on_error)) {
            detail::bind_context(id, nullptr);
            return {};  // releases the context
        }
        forgets_itself = true;
    }
#endif
    if (!forgets_itself) {
        auto made = std::make_shared<detail::ContextRegistration>();
        made->id = id;
        registration = std::move(made);
    }
    return handle;
}

namespace detail {

// Refuses a device list naming an empty device, a device outside `context` or one twice
// (CL_INVALID_DEVICE). An empty list is refused with `when_empty` (CL_INVALID_VALUE), or accepted
// where `when_empty` is null (it stands for all the context's devices there).
inline bool check_context_devices(const Context& context, const std::vector<Device>& devices,
                                  const char* call, OnError on_error,
                                  const char* when_empty = nullptr) {
    if (devices.empty()) {
        if (when_empty == nullptr) {
            return true;
        }
        fail(on_error, CL_INVALID_VALUE, call, when_empty);
        return false;
    }
    Relay step(on_error);
    const std::vector<Device> members = context.devices(step);
    if (step.failed()) {
        return false;
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        bool member = false;
        for (const Device& candidate : members) {
            member = member || candidate == devices[i];
        }
        bool repeated = false;
        for (std::size_t j = 0; j < i; ++j) {
            repeated = repeated || devices[j] == devices[i];
        }
        if (!devices[i]) {
            fail(on_error, CL_INVALID_DEVICE, call,
                 concat("device ", i, " is empty (default-constructed or moved-from)"));
            return false;
        }
        if (!member || repeated) {
            fail(on_error, CL_INVALID_DEVICE, call, describe_safely([&](OnError quiet) {
                     std::string names;
                     for (const Device& candidate : members) {
                         names +=
                             concat(names.empty() ? "" : ", ", "\"", candidate.name(quiet), "\"");
                     }
                     return concat(
                         "device ", i, " (\"", devices[i].name(quiet), "\") ",
                         repeated ? "is listed twice" : "is not one of the context's devices", " (",
                         names, ")");
                 }));
            return false;
        }
    }
    return true;
}

OPENCLAW_INLINE ContextReports& context_reports() {
    static ContextReports* const reports = new ContextReports();  // never destroyed (see above)
    return *reports;
}

OPENCLAW_INLINE std::uintptr_t register_context(OnError on_error) {
    ContextReports& reports = context_reports();
    const std::lock_guard lock(reports.mutex);
    if (reports.contexts.size() >= reports.contexts.max_size() / 2) {
        fail(on_error, CL_OUT_OF_HOST_MEMORY, "clCreateContext", "too many contexts alive");
        return 0;
    }
    const std::uintptr_t id = reports.next_id++;
    reports.contexts.emplace_back(id, nullptr);
    return id;
}

OPENCLAW_INLINE void bind_context(std::uintptr_t id, cl_context context) noexcept {
    if (id == 0) {
        return;
    }
    ContextReports& reports = context_reports();
    const std::lock_guard lock(reports.mutex);
    for (std::size_t i = 0; i < reports.contexts.size(); ++i) {
        if (reports.contexts[i].first == id) {
            if (context != nullptr) {
                reports.contexts[i].second = context;
            } else {
                reports.contexts[i] = reports.contexts.back();
                reports.contexts.pop_back();
            }
            return;
        }
    }
}

OPENCLAW_INLINE void CL_CALLBACK context_notify(const char* report, const void*, std::size_t,
                                                void* user_data) {
    ContextReports& reports = context_reports();
    const auto id = reinterpret_cast<std::uintptr_t>(user_data);
    const char* text = report != nullptr ? report : "(no text)";
    cl_context context = nullptr;
    {
        const std::lock_guard lock(reports.mutex);
        for (const auto& [known, made] : reports.contexts) {
            if (known == id) {
                context = made;
            }
        }
    }
    if (const ContextReportHandler handler = reports.handler.load(std::memory_order_acquire)) {
        handler(context, text);
        return;
    }
    const auto keep = [&] {
        const std::lock_guard lock(reports.mutex);
        if (reports.pending.size() == ContextReports::kept) {
            reports.pending.erase(reports.pending.begin());
            ++reports.dropped;
        }
        reports.pending.push_back({&report_thread_token, text});
        pending_context_reports.store(&take_context_reports, std::memory_order_release);
    };
#if defined(__cpp_exceptions)
    try {
        keep();
    } catch (...) {
        // Out of memory in a driver's callback: the report is lost, the driver must not unwind.
    }
#else
    keep();  // without exceptions, running out of memory here ends the process as anywhere else
#endif
}

OPENCLAW_INLINE void CL_CALLBACK context_destroyed(cl_context, void* user_data) {
    bind_context(reinterpret_cast<std::uintptr_t>(user_data), nullptr);
}

OPENCLAW_INLINE std::string take_context_reports() {
    ContextReports& reports = context_reports();
    std::vector<ContextReports::Report> taken;
    std::size_t dropped = 0;
    {
        const std::lock_guard lock(reports.mutex);
        taken.swap(reports.pending);
        dropped = std::exchange(reports.dropped, 0);
    }
    std::string text;
    for (const ContextReports::Report& each : taken) {
        text += each.thread == &report_thread_token
                    ? "; the driver reported: \""
                    : "; the driver reported (on another thread): \"";
        text += each.text;
        text += '"';
    }
    if (dropped != 0) {
        text += concat(" (and ", dropped, " earlier report(s), dropped)");
    }
    return text;
}

}  // namespace detail

OPENCLAW_INLINE ContextReportHandler
set_context_report_handler(ContextReportHandler handler) noexcept {
    return detail::context_reports().handler.exchange(handler, std::memory_order_acq_rel);
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

OPENCLAW_END_NAMESPACE
