// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/select.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/detail/base/checked.hpp>
#include <openclaw/select.hpp>

#include <cstdlib>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {

/// ASCII lower case (platform names and the spec compare case-insensitively).
OPENCLAW_INLINE std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
}

/// Lower is preferred: GPU, accelerator, CPU, anything else.
OPENCLAW_INLINE int preference(const Device& device, OnError on_error) {
    switch (device.type(on_error)) {
        case DeviceType::gpu:
            return 0;
        case DeviceType::accelerator:
            return 1;
        case DeviceType::cpu:
            return 2;
        default:
            return 3;
    }
}

OPENCLAW_INLINE std::string describe(const Platform& platform, const Device& device,
                                     OnError on_error) {
    return concat("\"", device.name(on_error), "\" (", to_string(device.type(on_error)),
                  ", platform \"", platform.name(on_error), "\")");
}

OPENCLAW_INLINE void no_platform(OnError on_error) {
    fail(on_error, -1001 /* CL_PLATFORM_NOT_FOUND_KHR */, "select_device",
         "no OpenCL platform is installed: install a driver (ICD), e.g. `sudo apt-get install "
         "pocl-opencl-icd` for the CPU, or your GPU vendor's OpenCL driver");
}

OPENCLAW_INLINE DeviceChoice choose_device(const DeviceSpec& spec,
                                           bool (*accepts)(void*, const Device&), void* predicate,
                                           const std::string& spec_text, OnError on_error) {
    detail::Relay step(on_error);
    const auto platforms = Platform::list(step);
    if (step.failed()) {
        return {};
    }
    if (platforms.empty()) {
        detail::no_platform(on_error);
        return {};
    }
    std::vector<std::pair<Platform, Device>> matching;
    std::string available;
    for (const Platform& platform : platforms) {
        for (Device& device : platform.devices(DeviceType::all, step)) {
            available += detail::concat("\n  ", detail::describe(platform, device, step));
            if (spec.matches(platform, device, step) && accepts(predicate, device)) {
                matching.emplace_back(platform, std::move(device));
            }
        }
    }
    const std::string asked = spec_text.empty() ? std::string("the device filter")
                                                : detail::concat("\"", spec_text, "\"");
    if (step.failed()) {
        return {};
    }
    if (matching.empty() || (spec.index && *spec.index >= matching.size())) {
        detail::fail(
            on_error, CL_DEVICE_NOT_FOUND, "select_device",
            detail::concat(asked, " matches ",
                           matching.empty() ? std::string("no device")
                                            : detail::concat("only ", matching.size(),
                                                             " device(s), no index ", *spec.index),
                           "; the devices here are:",
                           available.empty() ? std::string("\n  (none)") : available));
        return {};
    }
    if (spec.index) {
        auto& [platform, device] = matching[*spec.index];
        return {device, detail::concat(detail::describe(platform, device, step), ": device ",
                                       *spec.index, " matching ", asked)};
    }
    std::size_t best = 0;
    int best_preference = detail::preference(matching.front().second, step);
    for (std::size_t i = 1; i < matching.size(); ++i) {
        const int preference = detail::preference(matching[i].second, step);
        if (preference < best_preference) {
            best = i;
            best_preference = preference;
        }
    }
    const char* why = best_preference == 0   ? "the first GPU"
                      : best_preference == 1 ? "no GPU; the first accelerator"
                      : best_preference == 2 ? "no GPU or accelerator; the first CPU"
                                             : "the first device";
    const auto& [platform, device] = matching[best];
    return {device, detail::concat(
                        detail::describe(platform, device, step), ": ", why,
                        spec_text.empty() ? std::string{} : detail::concat(" matching ", asked))};
}

}  // namespace detail

OPENCLAW_INLINE DeviceSpec DeviceSpec::parse(std::string_view text, OnError on_error) {
    DeviceSpec spec;
    const std::size_t first = text.find(':');
    spec.platform = std::string(text.substr(0, first));
    if (first == std::string_view::npos) {
        return spec;
    }
    const std::string_view rest = text.substr(first + 1);
    const std::size_t second = rest.find(':');
    const std::string type = detail::lower(rest.substr(0, second));
    if (!type.empty()) {
        if (type == "gpu") {
            spec.type = DeviceType::gpu;
        } else if (type == "cpu") {
            spec.type = DeviceType::cpu;
        } else if (type == "accelerator") {
            spec.type = DeviceType::accelerator;
        } else if (type == "custom") {
            spec.type = DeviceType::custom;
        } else if (type != "all") {
            detail::fail(on_error, CL_INVALID_VALUE, "DeviceSpec::parse",
                         detail::concat("device type \"", type, "\" in \"", text,
                                        "\" is not gpu, cpu, accelerator, custom or all"));
            return {};
        }
    }
    if (second != std::string_view::npos) {
        const std::string_view index = rest.substr(second + 1);
        if (!index.empty()) {
            std::size_t value = 0;
            for (char c : index) {
                const bool digit = c >= '0' && c <= '9';
                if (!digit || !detail::checked_mul(value, 10, value) ||
                    !detail::checked_add(value, static_cast<std::size_t>(c - '0'), value)) {
                    detail::fail(on_error, CL_INVALID_VALUE, "DeviceSpec::parse",
                                 detail::concat("index \"", index, "\" in \"", text,
                                                digit ? "\" is too large" : "\" is not a number"));
                    return {};
                }
            }
            spec.index = value;
        }
    }
    return spec;
}

OPENCLAW_INLINE bool DeviceSpec::matches(const Platform& of_platform, const Device& device,
                                         OnError on_error) const {
    if (!this->platform.empty()) {
        const std::string wanted = detail::lower(this->platform);
        if (detail::lower(of_platform.name(on_error)).find(wanted) == std::string::npos &&
            detail::lower(of_platform.vendor(on_error)).find(wanted) == std::string::npos) {
            return false;
        }
    }
    return !type || (static_cast<cl_device_type>(device.type(on_error)) &
                     static_cast<cl_device_type>(*type)) != 0;
}

OPENCLAW_INLINE DeviceChoice choose_device(OnError on_error) {
    const char* env = std::getenv("OPENCLAW_DEVICE");
    const std::string text = env != nullptr ? std::string(env) : std::string{};
    detail::Relay step(on_error);
    const DeviceSpec spec = DeviceSpec::parse(text, step);
    if (step.failed()) {
        return {};
    }
    return choose_device(
        spec, [](const Device&) { return true; },
        text.empty() ? std::string{} : "OPENCLAW_DEVICE=" + text, on_error);
}

OPENCLAW_INLINE Device select_device(OnError on_error) {
    return choose_device(on_error).device;
}

OPENCLAW_INLINE Device select_device(std::string_view spec, OnError on_error) {
    detail::Relay step(on_error);
    const DeviceSpec parsed = DeviceSpec::parse(spec, step);
    if (step.failed()) {
        return {};
    }
    return choose_device(
               parsed, [](const Device&) { return true; }, std::string(spec), on_error)
        .device;
}

OPENCLAW_END_NAMESPACE
