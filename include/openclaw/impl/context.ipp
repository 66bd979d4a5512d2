// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/context.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/context.hpp>

#include <cstdio>

OPENCLAW_BEGIN_NAMESPACE

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

OPENCLAW_INLINE bool check_context_devices(const Context& context,
                                           const std::vector<Device>& devices, const char* call,
                                           OnError on_error, const char* when_empty) {
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
                         names += concat(names.empty() ? "" : ", ", device_label(candidate, quiet));
                     }
                     return concat(
                         "device ", i, " (", device_label(devices[i], quiet), ") ",
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
        reports.pending.push_back({&report_thread_token, context, text});
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

OPENCLAW_INLINE std::string take_context_reports(cl_context context) {
    ContextReports& reports = context_reports();
    std::vector<ContextReports::Report> taken;
    std::size_t dropped = 0;
    {
        const std::lock_guard lock(reports.mutex);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < reports.pending.size(); ++i) {
            if (reports.pending[i].context == context) {
                taken.push_back(std::move(reports.pending[i]));
            } else if (kept++ != i) {
                reports.pending[kept - 1] = std::move(reports.pending[i]);
            }
        }
        reports.pending.resize(kept);
        if (!taken.empty()) {
            dropped = std::exchange(reports.dropped, 0);
        }
    }
    char handle[2 * sizeof(void*) + 8];
    std::snprintf(handle, sizeof handle, "%p", static_cast<void*>(context));
    std::string text;
    for (const ContextReports::Report& each : taken) {
        text += concat("; the driver reported about this context (cl_context ", handle,
                       each.thread == &report_thread_token ? "" : ", on another thread", "): \"",
                       each.text, '"');
    }
    if (dropped != 0) {
        text += concat(" (and ", dropped, " earlier report(s) of any context, dropped)");
    }
    return text;
}

}  // namespace detail

OPENCLAW_INLINE ContextReportHandler
set_context_report_handler(ContextReportHandler handler) noexcept {
    return detail::context_reports().handler.exchange(handler, std::memory_order_acq_rel);
}

OPENCLAW_END_NAMESPACE
