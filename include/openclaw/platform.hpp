// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <openclaw/detail/base/macros_push.hpp>

// Platform: one installed OpenCL implementation (an ICD), e.g. NVIDIA CUDA or PoCL (objects
// layer). Platforms have no reference count; a Platform is a plain value. Platform::devices() is
// defined in device.hpp, which completes Device.

#include <openclaw/detail/base/handle.hpp>
#include <openclaw/detail/base/info.hpp>
#include <openclaw/error.hpp>
#include <openclaw/fwd.hpp>

#include <compare>
#include <cstddef>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

OPENCLAW_BEGIN_NAMESPACE

/// Kinds of device, as clGetDeviceIDs filters them.
enum class DeviceType : cl_device_type {
    default_device = CL_DEVICE_TYPE_DEFAULT,
    cpu = CL_DEVICE_TYPE_CPU,
    gpu = CL_DEVICE_TYPE_GPU,
    accelerator = CL_DEVICE_TYPE_ACCELERATOR,
    custom = CL_DEVICE_TYPE_CUSTOM,
    all = CL_DEVICE_TYPE_ALL,
};

/// A name for a DeviceType: "GPU", "CPU", "accelerator", "custom", "default", "all".
constexpr std::string_view to_string(DeviceType type) noexcept {
    switch (type) {
        case DeviceType::default_device:
            return "default";
        case DeviceType::cpu:
            return "CPU";
        case DeviceType::gpu:
            return "GPU";
        case DeviceType::accelerator:
            return "accelerator";
        case DeviceType::custom:
            return "custom";
        case DeviceType::all:
            return "all";
    }
    return "unknown";
}

/// An OpenCL version, e.g. {3, 0}; ordered, so `device.version() >= Version{2, 0}` reads well.
struct Version {
    /// Major version.
    int major = 0;
    /// Minor version.
    int minor = 0;
    friend constexpr auto operator<=>(const Version&, const Version&) = default;
};

namespace detail {

/// Parses the "X.Y" after the first space-separated word that starts with a digit, as in
/// "OpenCL 3.0 CUDA 12.8" or "OpenCL C 1.2 "; {0, 0} if there is none.
constexpr Version parse_version(std::string_view text) noexcept {
    std::size_t i = 0;
    while (i < text.size() &&
           !(text[i] >= '0' && text[i] <= '9' && (i == 0 || text[i - 1] == ' '))) {
        ++i;
    }
    Version version;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        version.major = version.major * 10 + (text[i++] - '0');
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            version.minor = version.minor * 10 + (text[i++] - '0');
        }
    }
    return version;
}

}  // namespace detail

/// An OpenCL platform (cl_platform_id): one installed driver (ICD), e.g. PoCL or NVIDIA CUDA.
class Platform {
  public:
    Platform() = default;
    /// Wraps a raw platform id (platforms are not reference counted).
    explicit Platform(cl_platform_id id) noexcept
        : handle_(detail::Handle<cl_platform_id>::adopt(id)) {}

    /// Every installed platform; empty (not an error) when no OpenCL driver (ICD) is installed.
    static std::vector<Platform> list(OnError on_error = {});

    /// The platform's devices of `type`; empty when it has none of that type (device.hpp).
    std::vector<Device> devices(DeviceType type = DeviceType::all, OnError on_error = {}) const;

    /// CL_PLATFORM_NAME, e.g. "Portable Computing Language".
    std::string name(OnError on_error = {}) const { return info<CL_PLATFORM_NAME>(on_error); }
    /// CL_PLATFORM_VENDOR.
    std::string vendor(OnError on_error = {}) const { return info<CL_PLATFORM_VENDOR>(on_error); }
    /// The full version string, e.g. "OpenCL 3.0 CUDA 12.8.90".
    std::string version_string(OnError on_error = {}) const {
        return info<CL_PLATFORM_VERSION>(on_error);
    }
    /// The OpenCL version the platform implements, parsed from version_string().
    Version version(OnError on_error = {}) const {
        return detail::parse_version(version_string(on_error));
    }

    /// Typed clGetPlatformInfo: info<CL_PLATFORM_NAME>() is a std::string.
    template <cl_platform_info Param>
    detail::info_t<cl_platform_id, Param> info(OnError on_error = {}) const {
        return detail::get_info<cl_platform_id, Param>(on_error, get());
    }

    /// The raw cl_platform_id (null when empty).
    cl_platform_id get() const noexcept { return handle_.get(); }
    friend bool operator==(const Platform&, const Platform&) = default;

  private:
    detail::Handle<cl_platform_id> handle_;
};

namespace detail {

/// The process's one store of extension entry points (clGetExtensionFunctionAddressForPlatform):
/// the table of kind `kind` (`bytes` bytes) for `platform`, made and filled by `load` the first
/// time it is asked for and kept, unchanged, for the rest of the process (objects hold pointers
/// into it). Any number of platforms; never null.
const void* extension_table(const void* kind, cl_platform_id platform, std::size_t bytes,
                            void (*load)(cl_platform_id, void*));

/// One entry point of an extension table: `slot` set to `name` of `platform`, or null (what every
/// extension wing's Load does for each of its functions).
template <class Function>
void load_entry(cl_platform_id platform, Function*& slot, const char* name) {
    slot = reinterpret_cast<Function*>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

template <class Api>
inline constexpr char extension_kind = 0;  // its address tells one kind of table from another

/// The table of entry points `Api` for `platform`, filled once by `Load` (found entry points set,
/// the others left null); every extension wing (external memory, command buffers) keeps its
/// entry points here.
template <class Api, void (*Load)(cl_platform_id, Api&)>
const Api& extension_table(const Platform& platform) {
    static_assert(std::is_trivially_copyable_v<Api> && alignof(Api) <= alignof(std::max_align_t),
                  "an extension table is a plain struct of function pointers");
    return *static_cast<const Api*>(
        extension_table(&extension_kind<Api>, platform.get(), sizeof(Api),
                        [](cl_platform_id id, void* table) { Load(id, *::new (table) Api{}); }));
}

}  // namespace detail

OPENCLAW_END_NAMESPACE

#if OPENCLAW_HEADER_ONLY
#include <openclaw/impl/platform.ipp>
#endif

#include <openclaw/detail/base/macros_pop.hpp>
