// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

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

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// A parsed device specification (see the top of this header for the syntax).
struct DeviceSpec {
    std::string platform;              ///< substring of the platform name or vendor; empty: any
    std::optional<DeviceType> type;    ///< empty: any
    std::optional<std::size_t> index;  ///< among the matching devices; empty: by preference

    /// Parses "platform[:type[:index]]"; fails with CL_INVALID_VALUE naming the bad part.
    static DeviceSpec parse(std::string_view text, OnError on_error = {});

    /// True if `device` (of `of_platform`) fits the platform and type parts.
    bool matches(const Platform& of_platform, const Device& device, OnError on_error = {}) const;
};

/// The device chosen and why.
struct DeviceChoice {
    /// The device chosen.
    Device device;
    /// Why it was chosen, e.g. that OPENCLAW_DEVICE named it or that it was the first GPU.
    std::string reason;
};

namespace detail {
/// choose_device's body for any predicate: `accepts(predicate, device)` calls it.
DeviceChoice choose_device(const DeviceSpec& spec, bool (*accepts)(void*, const Device&),
                           void* predicate, const std::string& spec_text, OnError on_error);
}  // namespace detail

/// Every device of every platform for which `predicate(device)` is true, in platform order.
template <class Predicate>
std::vector<Device> find_devices(Predicate predicate, OnError on_error = {}) {
    std::vector<Device> found;
    for (const Platform& platform : Platform::list(on_error)) {
        for (Device& device : platform.devices(DeviceType::all, on_error)) {
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
                           const std::string& spec_text = {}, OnError on_error = {}) {
    return detail::choose_device(
        spec,
        [](void* p, const Device& device) -> bool { return (*static_cast<Predicate*>(p))(device); },
        &predicate, spec_text, on_error);
}

/// The device OPENCLAW_DEVICE names, or else the preferred one (GPU, accelerator, CPU), with the
/// reason for the choice.
DeviceChoice choose_device(OnError on_error = {});

/// The device OPENCLAW_DEVICE names, or else the preferred one: a GPU, then an accelerator,
/// then a CPU. Throws with the list of devices when nothing matches, and with installation advice
/// when no OpenCL platform exists.
Device select_device(OnError on_error = {});

/// The device `spec` names ("nvidia:gpu", ":cpu", ...).
Device select_device(std::string_view spec, OnError on_error = {});

/// The preferred device among those `predicate` accepts, e.g.
/// `select_device([](const Device& d) { return d.supports_extension("cl_khr_fp64"); })`.
template <class Predicate>
requires std::is_invocable_r_v<bool, Predicate&, const Device&> Device
select_device(Predicate predicate, OnError on_error = {}) {
    return choose_device(DeviceSpec{}, predicate, {}, on_error).device;
}

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/select.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
