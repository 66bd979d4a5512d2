// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-template bodies declared in <openclaw/device.hpp>: compiled once into the openclaw
// library (src/), or included by that header itself when openclaw is header-only.

#include <openclaw/device.hpp>

OPENCLAW_BEGIN_NAMESPACE

OPENCLAW_INLINE std::vector<Device> Device::partition_equally(cl_uint compute_units,
                                                              OnError on_error) const {
    const cl_device_partition_property properties[] = {
        CL_DEVICE_PARTITION_EQUALLY, static_cast<cl_device_partition_property>(compute_units), 0};
    return partition(properties, detail::concat("equally, ", compute_units, " compute units each"),
                     on_error);
}

OPENCLAW_INLINE std::vector<Device> Device::partition_by_counts(std::span<const cl_uint> counts,
                                                                OnError on_error) const {
    std::vector<cl_device_partition_property> properties{CL_DEVICE_PARTITION_BY_COUNTS};
    std::string text = "by counts";
    for (cl_uint count : counts) {
        properties.push_back(static_cast<cl_device_partition_property>(count));
        text += detail::concat(" ", count);
    }
    properties.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    properties.push_back(0);
    return partition(properties.data(), text, on_error);
}

OPENCLAW_INLINE std::vector<Version> Device::opencl_c_versions(OnError on_error) const {
    std::vector<Version> versions;
    const unsigned mask = detail::language_mask(*this, on_error);
    for (unsigned i = 0; i < detail::language_versions.size(); ++i) {
        if ((mask & (1u << i)) != 0) {
            versions.push_back(detail::language_versions[i]);
        }
    }
    return versions;
}

namespace detail {
OPENCLAW_INLINE unsigned language_mask(const Device& device, OnError on_error) {
    unsigned mask = 0;
    const auto bit_of = [](Version v) {
        for (unsigned i = 0; i < language_versions.size(); ++i) {
            if (language_versions[i] == v) {
                return 1u << i;
            }
        }
        return 0u;
    };
#if CL_TARGET_OPENCL_VERSION >= 300
    if (device.version(on_error) >= Version{3, 0}) {
        for (const cl_name_version& entry :
             device.info<CL_DEVICE_OPENCL_C_ALL_VERSIONS>(on_error)) {
            mask |= bit_of({static_cast<int>(CL_VERSION_MAJOR(entry.version)),
                            static_cast<int>(CL_VERSION_MINOR(entry.version))});
        }
        if (mask != 0) {
            return mask;
        }
    }
#endif
    const Version highest = device.opencl_c_version(on_error);
    for (const Version v : {Version{1, 0}, Version{1, 1}, Version{1, 2}, Version{2, 0}}) {
        if (v <= highest) {
            mask |= bit_of(v);
        }
    }
    return mask;
}
OPENCLAW_INLINE cl_device_id parent_of(const Device& device) noexcept {
    cl_device_id parent = nullptr;
    if (device.get() == nullptr || clGetDeviceInfo(device.get(), CL_DEVICE_PARENT_DEVICE,
                                                   sizeof parent, &parent, nullptr) != CL_SUCCESS) {
        return nullptr;
    }
    return parent;
}

OPENCLAW_INLINE std::string device_label(const Device& device, OnError on_error) {
    const cl_device_id parent = parent_of(device);
    if (parent == nullptr) {
        return concat("\"", device.name(on_error), "\"");
    }
    return concat("sub-device \"", device.name(on_error), "\" (",
                  device.max_compute_units(on_error), " compute units) of \"",
                  Device::retain(parent, on_error).name(on_error), "\"");
}
}  // namespace detail

OPENCLAW_INLINE std::vector<Device> Device::partition(
    const cl_device_partition_property* properties, const std::string& how,
    OnError on_error) const {
    const auto describe = [&](OnError quiet) {
        std::string text =
            detail::concat("partitioning \"", name(quiet), "\" ", how, "; it supports");
        const auto supported = info<CL_DEVICE_PARTITION_PROPERTIES>(quiet);
        if (supported.empty() || supported.front() == 0) {
            text += " no partitioning";
        }
        for (cl_device_partition_property p : supported) {
            text += p == CL_DEVICE_PARTITION_EQUALLY              ? " EQUALLY"
                    : p == CL_DEVICE_PARTITION_BY_COUNTS          ? " BY_COUNTS"
                    : p == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ? " BY_AFFINITY_DOMAIN"
                                                                  : "";
        }
        return detail::concat(text, ", at most ", info<CL_DEVICE_PARTITION_MAX_SUB_DEVICES>(quiet),
                              " sub-devices, ", max_compute_units(quiet), " compute units");
    };
    if (!*this) {
        detail::refuse_empty(on_error, CL_INVALID_DEVICE, "clCreateSubDevices", "device");
        return {};
    }
    cl_uint count = 0;
    if (!detail::check(clCreateSubDevices(get(), properties, 0, nullptr, &count),
                       "clCreateSubDevices", on_error, describe)) {
        return {};
    }
    std::vector<cl_device_id> ids(count);  // null until the driver fills them in
    const cl_int code = clCreateSubDevices(get(), properties, count, ids.data(), nullptr);
    if (code != CL_SUCCESS) {
        for (const cl_device_id id : ids) {
            (void)detail::created_or_null(id, code);  // sub-devices returned with the error
        }
        (void)detail::check(code, "clCreateSubDevices", on_error, describe);
        return {};
    }
    std::vector<Device> devices;
    devices.reserve(count);
    for (cl_device_id id : ids) {
        devices.push_back(Device::adopt(id));
    }
    return devices;
}

OPENCLAW_INLINE std::vector<Device> Platform::devices(DeviceType type, OnError on_error) const {
    if (get() == nullptr) {
        detail::refuse_empty(on_error, CL_INVALID_PLATFORM, "clGetDeviceIDs", "platform");
        return {};
    }
    cl_uint count = 0;
    const auto type_bits = static_cast<cl_device_type>(type);
    const cl_int code = clGetDeviceIDs(get(), type_bits, 0, nullptr, &count);
    if (code == CL_DEVICE_NOT_FOUND || (code == CL_SUCCESS && count == 0)) {
        return {};
    }
    const auto describe = [&] { return detail::concat("device type ", to_string(type)); };
    std::vector<cl_device_id> ids(count);
    if (!detail::check(code, "clGetDeviceIDs", on_error, describe) ||
        !detail::check(clGetDeviceIDs(get(), type_bits, count, ids.data(), &count),
                       "clGetDeviceIDs", on_error, describe)) {
        return {};
    }
    std::vector<Device> devices;
    devices.reserve(count);
    for (cl_uint i = 0; i < count; ++i) {
        // clGetDeviceIDs hands out root devices without a reference to own; share them.
        devices.push_back(Device::retain(ids[i], on_error));
    }
    return devices;
}

OPENCLAW_END_NAMESPACE
