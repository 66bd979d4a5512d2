// SPDX-License-Identifier: Apache-2.0
#pragma once
// Context: the devices that share memory objects and programs (objects layer). Created
// explicitly from one or more devices of one platform; openclaw never makes a default context
// behind the user's back.

#include <openclaw/detail/handle.hpp>
#include <openclaw/detail/info.hpp>
#include <openclaw/device.hpp>

#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

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
        : handle_(create(devices, on_error)),
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

    static detail::Handle<cl_context> create(std::span<const Device> devices, OnError on_error);
    static std::vector<Device> devices_of(cl_context raw, OnError on_error);

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

OPENCLAW_INLINE detail::Handle<cl_context> Context::create(std::span<const Device> devices,
                                                           OnError on_error) {
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
    cl_int code = CL_SUCCESS;
    cl_context raw = clCreateContext(nullptr, static_cast<cl_uint>(ids.size()), ids.data(), nullptr,
                                     nullptr, &code);
    if (!detail::check(code, "clCreateContext", on_error, [&](OnError quiet) {
            return detail::concat(ids.size(), " device(s), first \"", devices.front().name(quiet),
                                  "\"");
        })) {
        return {};
    }
    return detail::Handle<cl_context>::adopt(raw);
}
#endif  // OPENCLAW_OUT_OF_LINE_DEFINITIONS

OPENCLAW_END_NAMESPACE
