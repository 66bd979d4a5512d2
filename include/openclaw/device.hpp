// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Device: a compute device of a platform, with typed queries of what users choose a device by
// (objects layer). Root devices are not reference counted by drivers; sub-devices are, and Handle
// covers both. Also Platform::devices(), which needs both classes.

#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/platform.hpp>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

namespace detail {
/// The OpenCL C versions openclaw knows, oldest first (bit i of a language mask is entry i).
inline constexpr std::array<Version, 5> language_versions{
    {Version{1, 0}, Version{1, 1}, Version{1, 2}, Version{2, 0}, Version{3, 0}}};
/// The OpenCL C versions `device`'s compiler accepts, as bits of language_versions.
unsigned language_mask(const Device& device, OnError on_error);
/// A device as messages name it: `"<name>"` for a root device, `sub-device "<name>" (<n> compute
/// units) of "<parent's name>"` for a sub-device (whose name is its parent's).
std::string device_label(const Device& device, OnError on_error);
/// The parent of a sub-device (null for a root device or when the query fails).
cl_device_id parent_of(const Device& device) noexcept;
}  // namespace detail

/// An OpenCL device (cl_device_id): its properties, typed, and sub-devices. Root devices are not
/// reference counted; sub-devices are, and copies share them (clRetainDevice).
class Device {
  public:
    Device() = default;

    /// Takes ownership of a reference to `id` (e.g. a sub-device from clCreateSubDevices).
    [[nodiscard]] static Device adopt(cl_device_id id) noexcept {
        return Device(detail::Handle<cl_device_id>::adopt(id));
    }
    /// Shares `id`: retains it, the caller keeps its own reference.
    [[nodiscard]] static Device retain(cl_device_id id, OnError on_error = {}) {
        return Device(detail::Handle<cl_device_id>::retain(id, on_error));
    }

    /// CL_DEVICE_NAME, e.g. "NVIDIA H200".
    std::string name(OnError on_error = {}) const { return info<CL_DEVICE_NAME>(on_error); }
    /// CL_DEVICE_VENDOR.
    std::string vendor(OnError on_error = {}) const { return info<CL_DEVICE_VENDOR>(on_error); }
    /// CL_DRIVER_VERSION.
    std::string driver_version(OnError on_error = {}) const {
        return info<CL_DRIVER_VERSION>(on_error);
    }
    /// The device's kind; the CL_DEVICE_TYPE_DEFAULT bit a driver may add is dropped.
    DeviceType type(OnError on_error = {}) const {
        return static_cast<DeviceType>(info<CL_DEVICE_TYPE>(on_error) &
                                       ~cl_device_type{CL_DEVICE_TYPE_DEFAULT});
    }
    /// True if CL_DEVICE_TYPE has the GPU bit.
    bool is_gpu(OnError on_error = {}) const {
        return (info<CL_DEVICE_TYPE>(on_error) & CL_DEVICE_TYPE_GPU) != 0;
    }
    /// True if CL_DEVICE_TYPE has the CPU bit.
    bool is_cpu(OnError on_error = {}) const {
        return (info<CL_DEVICE_TYPE>(on_error) & CL_DEVICE_TYPE_CPU) != 0;
    }
    /// True if CL_DEVICE_TYPE has the accelerator bit.
    bool is_accelerator(OnError on_error = {}) const {
        return (info<CL_DEVICE_TYPE>(on_error) & CL_DEVICE_TYPE_ACCELERATOR) != 0;
    }
    /// CL_DEVICE_AVAILABLE.
    bool is_available(OnError on_error = {}) const { return info<CL_DEVICE_AVAILABLE>(on_error); }

    /// The OpenCL version of the device (from CL_DEVICE_VERSION).
    Version version(OnError on_error = {}) const {
        return detail::parse_version(info<CL_DEVICE_VERSION>(on_error));
    }
    /// The highest OpenCL C version its compiler accepts (from CL_DEVICE_OPENCL_C_VERSION).
    Version opencl_c_version(OnError on_error = {}) const {
        return detail::parse_version(info<CL_DEVICE_OPENCL_C_VERSION>(on_error));
    }

    /// Every OpenCL C version its compiler accepts, oldest first. OpenCL 3.0 devices list them
    /// (CL_DEVICE_OPENCL_C_ALL_VERSIONS: a 3.0 device may accept OpenCL C 3.0 but report 1.2 as
    /// its CL_DEVICE_OPENCL_C_VERSION); older ones accept every version up to the one they report.
    std::vector<Version> opencl_c_versions(OnError on_error = {}) const;

    /// The intermediate languages clCreateProgramWithIL accepts, e.g. "SPIR-V_1.0 SPIR-V_1.1";
    /// empty when there are none, always on platforms or devices older than OpenCL 2.1 (the
    /// query is not made there).
    std::string il_version(OnError on_error = {}) const {
#if CL_TARGET_OPENCL_VERSION >= 210
        if (version(on_error) >= Version{2, 1} &&
            platform(on_error).version(on_error) >= Version{2, 1}) {
            return info<CL_DEVICE_IL_VERSION>(on_error);
        }
#else
        (void)on_error;
#endif
        return {};
    }

    /// True when the device can run a last, smaller work-group (a global size that is not a
    /// multiple of the local size): OpenCL 2.x devices, and 3.0 devices that report
    /// CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT. Programs must also be OpenCL C 2.0 or later.
    bool non_uniform_work_groups(OnError on_error = {}) const {
        const Version v = version(on_error);
#if CL_TARGET_OPENCL_VERSION >= 300
        if (v >= Version{3, 0}) {
            return info<CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT>(on_error);
        }
#endif
        return v >= Version{2, 0};
    }

    /// CL_DEVICE_MAX_COMPUTE_UNITS (what split() shares a range by).
    cl_uint max_compute_units(OnError on_error = {}) const {
        return info<CL_DEVICE_MAX_COMPUTE_UNITS>(on_error);
    }
    /// Clock in MHz.
    cl_uint max_clock_frequency(OnError on_error = {}) const {
        return info<CL_DEVICE_MAX_CLOCK_FREQUENCY>(on_error);
    }
    /// CL_DEVICE_MAX_WORK_GROUP_SIZE: the most work-items in one work-group (a kernel may allow
    /// fewer: KernelBase::work_group_size).
    std::size_t max_work_group_size(OnError on_error = {}) const {
        return info<CL_DEVICE_MAX_WORK_GROUP_SIZE>(on_error);
    }
    /// CL_DEVICE_MAX_WORK_ITEM_SIZES: the largest work-group size in each dimension.
    std::vector<std::size_t> max_work_item_sizes(OnError on_error = {}) const {
        return info<CL_DEVICE_MAX_WORK_ITEM_SIZES>(on_error);
    }
    /// Bytes.
    cl_ulong global_mem_size(OnError on_error = {}) const {
        return info<CL_DEVICE_GLOBAL_MEM_SIZE>(on_error);
    }
    /// Bytes.
    cl_ulong local_mem_size(OnError on_error = {}) const {
        return info<CL_DEVICE_LOCAL_MEM_SIZE>(on_error);
    }
    /// The largest single allocation, in bytes.
    cl_ulong max_mem_alloc_size(OnError on_error = {}) const {
        return info<CL_DEVICE_MAX_MEM_ALLOC_SIZE>(on_error);
    }
    /// The alignment of sub-buffer offsets in BYTES (the driver reports it in bits).
    std::size_t mem_base_addr_align(OnError on_error = {}) const {
        return info<CL_DEVICE_MEM_BASE_ADDR_ALIGN>(on_error) / 8;
    }

    /// The extension names, e.g. "cl_khr_fp64".
    std::vector<std::string> extensions(OnError on_error = {}) const {
        std::vector<std::string> names;
        const std::string all = info<CL_DEVICE_EXTENSIONS>(on_error);
        std::size_t start = 0;
        while (start < all.size()) {
            std::size_t end = all.find(' ', start);
            end = end == std::string::npos ? all.size() : end;
            if (end > start) {
                names.emplace_back(all, start, end - start);
            }
            start = end + 1;
        }
        return names;
    }
    /// True if `name` (e.g. "cl_khr_fp64") is one of extensions().
    bool supports_extension(std::string_view name, OnError on_error = {}) const {
        for (const std::string& extension : extensions(on_error)) {
            if (extension == name) {
                return true;
            }
        }
        return false;
    }

    /// The platform the device belongs to (CL_DEVICE_PLATFORM).
    Platform platform(OnError on_error = {}) const {
        return Platform(info<CL_DEVICE_PLATFORM>(on_error));
    }

    /// Splits the device into sub-devices of `compute_units` each (clCreateSubDevices with
    /// CL_DEVICE_PARTITION_EQUALLY), e.g. to run a multi-device context on one CPU.
    std::vector<Device> partition_equally(cl_uint compute_units, OnError on_error = {}) const;
    /// Splits the device into sub-devices with the given numbers of compute units
    /// (CL_DEVICE_PARTITION_BY_COUNTS): `device.partition_by_counts({2, 2})`, or any contiguous
    /// range of cl_uint (a std::vector, an array).
    std::vector<Device> partition_by_counts(std::span<const cl_uint> counts,
                                            OnError on_error = {}) const;
    /// partition_by_counts for a braced list of counts.
    std::vector<Device> partition_by_counts(std::initializer_list<cl_uint> counts,
                                            OnError on_error = {}) const {
        return partition_by_counts(std::span<const cl_uint>(counts.begin(), counts.size()),
                                   on_error);
    }

    /// Typed clGetDeviceInfo: info<CL_DEVICE_NAME>(on_error) is a std::string.
    template <cl_device_info Param>
    detail::info_t<cl_device_id, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_device_id, Param>(on_error, get());
    }

    /// The raw cl_device_id (not retained; null when empty).
    cl_device_id get() const noexcept {
        return handle_.get();
    }
    /// True when the object holds a device.
    explicit operator bool() const noexcept {
        return static_cast<bool>(handle_);
    }
    friend bool operator==(const Device&, const Device&) = default;

  private:
    explicit Device(detail::Handle<cl_device_id> handle) noexcept : handle_(std::move(handle)) {}

    std::vector<Device> partition(const cl_device_partition_property* properties,
                                  const std::string& how, OnError on_error) const;

    detail::Handle<cl_device_id> handle_;
};

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/device.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
