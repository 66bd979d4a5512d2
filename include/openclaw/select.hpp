// SPDX-License-Identifier: Apache-2.0
#pragma once
// Choosing a device: select_device() honours the OPENCLAW_DEVICE environment variable and
// otherwise prefers a GPU, then an accelerator, then a CPU. When nothing matches, the error lists
// what exists; when no OpenCL driver is installed at all, it says how to install one. Code that
// picks devices itself filters with ordinary predicates over Device.
//
// OPENCLAW_DEVICE (or the `spec` argument) is `platform[:type[:index]]`, each part optional:
//   platform  a case-insensitive substring of the platform's name or vendor ("nvidia", "pocl");
//   type      gpu, cpu, accelerator, custom or all;
//   index     which of the matching devices (0 = the first), in platform and device order.
// Examples: "nvidia", ":gpu", "portable:cpu", "::1", "intel:gpu:0".

#include <openclaw/device.hpp>
#include <openclaw/error.hpp>
#include <openclaw/platform.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace openclaw {

/// A parsed device specification (see the top of this header for the syntax).
struct DeviceSpec {
    std::string platform;              ///< substring of the platform name or vendor; empty: any
    std::optional<DeviceType> type;    ///< empty: any
    std::optional<std::size_t> index;  ///< among the matching devices; empty: by preference

    /// Parses "platform[:type[:index]]"; throws CL_INVALID_VALUE naming the bad part.
    static DeviceSpec parse(std::string_view text, OnError = {}) {
        DeviceSpec spec;
        const std::size_t first = text.find(':');
        spec.platform = std::string(text.substr(0, first));
        if (first == std::string_view::npos) {
            return spec;
        }
        const std::string_view rest = text.substr(first + 1);
        const std::size_t second = rest.find(':');
        const std::string type = lower(rest.substr(0, second));
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
                detail::fail(CL_INVALID_VALUE, "DeviceSpec::parse",
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
                    if (c < '0' || c > '9') {
                        detail::fail(CL_INVALID_VALUE, "DeviceSpec::parse",
                                     detail::concat("index \"", index, "\" in \"", text,
                                                    "\" is not a number"));
                        return {};
                    }
                    value = value * 10 + static_cast<std::size_t>(c - '0');
                }
                spec.index = value;
            }
        }
        return spec;
    }

    /// True if `device` (of `platform`) fits the platform and type parts.
    bool matches(const Platform& platform, const Device& device) const {
        if (!this->platform.empty()) {
            const std::string wanted = lower(this->platform);
            if (lower(platform.name()).find(wanted) == std::string::npos &&
                lower(platform.vendor()).find(wanted) == std::string::npos) {
                return false;
            }
        }
        return !type || (static_cast<cl_device_type>(device.type()) &
                         static_cast<cl_device_type>(*type)) != 0;
    }

  private:
    static std::string lower(std::string_view text) {
        std::string out(text);
        std::transform(out.begin(), out.end(), out.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return out;
    }
};

/// The device chosen and why.
struct DeviceChoice {
    /// The device chosen.
    Device device;
    /// Why it was chosen, e.g. that OPENCLAW_DEVICE named it or that it was the first GPU.
    std::string reason;
};

namespace detail {

/// Lower is preferred: GPU, accelerator, CPU, anything else.
inline int preference(const Device& device) {
    switch (device.type()) {
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

inline std::string describe(const Platform& platform, const Device& device) {
    return concat("\"", device.name(), "\" (", to_string(device.type()), ", platform \"",
                  platform.name(), "\")");
}

inline void no_platform() {
    fail(-1001 /* CL_PLATFORM_NOT_FOUND_KHR */, "select_device",
         "no OpenCL platform is installed: install a driver (ICD), e.g. `sudo apt-get install "
         "pocl-opencl-icd` for the CPU, or your GPU vendor's OpenCL driver");
}

}  // namespace detail

/// Every device of every platform for which `predicate(device)` is true, in platform order.
template <class Predicate>
std::vector<Device> find_devices(Predicate predicate) {
    std::vector<Device> found;
    for (const Platform& platform : Platform::list()) {
        for (Device& device : platform.devices()) {
            if (predicate(device)) {
                found.push_back(std::move(device));
            }
        }
    }
    return found;
}

/// Chooses a device by `spec` (see the top of this header) among those `predicate` accepts;
/// without an index, the most preferred type (GPU, accelerator, CPU) wins, then platform order.
template <class Predicate>
DeviceChoice choose_device(const DeviceSpec& spec, Predicate predicate,
                           const std::string& spec_text = {}, OnError = {}) {
    const detail::FailureWatch watch;
    const auto platforms = Platform::list();
    if (watch.failed()) {
        return {};
    }
    if (platforms.empty()) {
        detail::no_platform();
        return {};
    }
    std::vector<std::pair<Platform, Device>> matching;
    std::string available;
    for (const Platform& platform : platforms) {
        for (Device& device : platform.devices()) {
            available += detail::concat("\n  ", detail::describe(platform, device));
            if (spec.matches(platform, device) && predicate(device)) {
                matching.emplace_back(platform, std::move(device));
            }
        }
    }
    const std::string asked = spec_text.empty() ? std::string("the device filter")
                                                : detail::concat("\"", spec_text, "\"");
    if (watch.failed()) {
        return {};
    }
    if (matching.empty() || (spec.index && *spec.index >= matching.size())) {
        detail::fail(
            CL_DEVICE_NOT_FOUND, "select_device",
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
        return {device, detail::concat(detail::describe(platform, device), ": device ", *spec.index,
                                       " matching ", asked)};
    }
    const auto best = std::min_element(matching.begin(), matching.end(), [](auto& a, auto& b) {
        return detail::preference(a.second) < detail::preference(b.second);
    });
    const char* why = detail::preference(best->second) == 0   ? "the first GPU"
                      : detail::preference(best->second) == 1 ? "no GPU; the first accelerator"
                      : detail::preference(best->second) == 2
                          ? "no GPU or accelerator; the first CPU"
                          : "the first device";
    return {best->second, detail::concat(detail::describe(best->first, best->second), ": ", why,
                                         spec_text.empty() ? std::string{}
                                                           : detail::concat(" matching ", asked))};
}

/// The device OPENCLAW_DEVICE names, or else the preferred one (GPU, accelerator, CPU), with the
/// reason for the choice.
inline DeviceChoice choose_device(OnError = {}) {
    const char* env = std::getenv("OPENCLAW_DEVICE");
    const std::string text = env != nullptr ? std::string(env) : std::string{};
    const detail::FailureWatch watch;
    const DeviceSpec spec = DeviceSpec::parse(text);
    if (watch.failed()) {
        return {};
    }
    return choose_device(
        spec, [](const Device&) { return true; },
        text.empty() ? std::string{} : "OPENCLAW_DEVICE=" + text);
}

/// The device OPENCLAW_DEVICE names, or else the preferred one: a GPU, then an accelerator,
/// then a CPU. Throws with the list of devices when nothing matches, and with installation advice
/// when no OpenCL platform exists.
inline Device select_device(OnError = {}) {
    return choose_device().device;
}

/// The device `spec` names ("nvidia:gpu", ":cpu", ...).
inline Device select_device(std::string_view spec, OnError = {}) {
    const detail::FailureWatch watch;
    const DeviceSpec parsed = DeviceSpec::parse(spec);
    if (watch.failed()) {
        return {};
    }
    return choose_device(
               parsed, [](const Device&) { return true; }, std::string(spec))
        .device;
}

/// The preferred device among those `predicate` accepts, e.g.
/// `select_device([](const Device& d) { return d.supports_extension("cl_khr_fp64"); })`.
template <class Predicate>
requires std::is_invocable_r_v<bool, Predicate&, const Device&> Device
select_device(Predicate predicate, OnError = {}) {
    return choose_device(DeviceSpec{}, predicate).device;
}

}  // namespace openclaw
