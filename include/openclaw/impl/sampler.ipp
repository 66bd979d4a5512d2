// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/sampler.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/sampler.hpp>

#include <string>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

OPENCLAW_INLINE std::vector<Device> image_devices(cl_context context, const char* call,
                                                  OnError on_error) {
    Relay step(on_error);
    std::vector<Device> devices;
    std::string names;
    for (cl_device_id id : get_info<cl_context, CL_CONTEXT_DEVICES>(step, context)) {
        Device device = Device::retain(id, step);
        if (device.info<CL_DEVICE_IMAGE_SUPPORT>(step)) {
            devices.push_back(std::move(device));
        } else {
            names += concat(names.empty() ? "\"" : ", \"", device.name(step), "\"");
        }
    }
    if (step.failed()) {
        return {};
    }
    if (devices.empty()) {
        fail(on_error, CL_INVALID_OPERATION, call,
             concat("no device of the context supports images (CL_DEVICE_IMAGE_SUPPORT is "
                    "false for ",
                    names, ")"));
    }
    return devices;
}

}  // namespace detail

OPENCLAW_INLINE Sampler::BasicSampler(detail::Handle<cl_sampler> handle, OnError on_error)
    : handle_(std::move(handle)) {
    if (handle_) {
        detail::Relay step(on_error);
        context_ = detail::get_info<cl_sampler, CL_SAMPLER_CONTEXT>(step, handle_.get());
        if (step.failed()) {
            *this = Sampler();
        }
    }
}

OPENCLAW_INLINE detail::Handle<cl_sampler> Sampler::create(const Context& context, bool normalized,
                                                           AddressMode addressing,
                                                           FilterMode filter, OnError on_error) {
    const char* call = "clCreateSampler";
    if (!context) {
        detail::refuse_empty(on_error, CL_INVALID_CONTEXT, call, "context");
        return {};
    }
    if (!normalized &&
        (addressing == AddressMode::repeat || addressing == AddressMode::mirrored_repeat)) {
        detail::fail(
            on_error, CL_INVALID_VALUE, call,
            detail::concat(addressing == AddressMode::repeat ? "CL_ADDRESS_REPEAT"
                                                             : "CL_ADDRESS_MIRRORED_REPEAT",
                           " needs normalized coordinates (normalized_coords = "
                           "false given)"));
        return {};
    }
    detail::Relay step(on_error);
    const std::vector<Device> devices = detail::image_devices(context.get(), call, step);
    if (devices.empty() || step.failed()) {
        return {};
    }
    const cl_bool norm = normalized ? CL_TRUE : CL_FALSE;
    const auto mode = static_cast<cl_addressing_mode>(addressing);
    const auto filtering = static_cast<cl_filter_mode>(filter);
    cl_int code = CL_SUCCESS;
    cl_sampler raw = nullptr;
#if CL_TARGET_OPENCL_VERSION >= 200
    if (devices.front().platform(step).version(step) >= Version{2, 0} && !step.failed()) {
        const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                    norm,
                                                    CL_SAMPLER_ADDRESSING_MODE,
                                                    mode,
                                                    CL_SAMPLER_FILTER_MODE,
                                                    filtering,
                                                    0};
        call = "clCreateSamplerWithProperties";
        raw = clCreateSamplerWithProperties(context.get(), properties, &code);
    } else {
        // The platform predates clCreateSamplerWithProperties: use the 1.x entry point.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
        raw = clCreateSampler(context.get(), norm, mode, filtering, &code);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    }
#else
    raw = clCreateSampler(context.get(), norm, mode, filtering, &code);
#endif
    raw = detail::created_or_null(raw, code);
    if (!detail::check(code, call, on_error, [&] {
            return detail::concat("normalized_coords = ", normalized ? "true" : "false",
                                  ", addressing mode ", mode, ", filter mode ", filtering);
        })) {
        return {};
    }
    return detail::Handle<cl_sampler>::adopt(raw);
}

OPENCLAW_END_NAMESPACE
