// Platforms and devices: listing, typed info queries from the one table, version parsing and
// the properties users pick a device by.
#include <openclaw/all.hpp>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using openclaw_test::env;

TEST_CASE("Platform::list finds the installed platforms and their devices") {
    const auto platforms = openclaw::Platform::list();
    REQUIRE_FALSE(platforms.empty());
    std::size_t devices = 0;
    for (const auto& platform : platforms) {
        CHECK_FALSE(platform.name().empty());
        CHECK(platform.version() >= openclaw::Version{1, 2});
        CHECK_THAT(platform.version_string(), openclaw_test::has("OpenCL "));
        for (const auto& device : platform.devices()) {
            CHECK(device.platform() == platform);
            ++devices;
        }
    }
    CHECK(devices > 0);
    // The test device is among them.
    const auto mine = env().device.platform().devices();
    CHECK(std::find(mine.begin(), mine.end(), env().device) != mine.end());
}

TEST_CASE("devices are filtered by type and an absent type gives an empty list") {
    const openclaw::Platform platform = env().device.platform();
    const openclaw::DeviceType type = env().device.type();
    const auto same = platform.devices(type);
    CHECK(std::find(same.begin(), same.end(), env().device) != same.end());
    for (const auto& device : same) {
        CHECK(device.type() == type);
    }
    // PoCL has no GPU and NVIDIA no CPU device: one of these lists is empty, not an error.
    const auto gpus = platform.devices(openclaw::DeviceType::gpu);
    const auto cpus = platform.devices(openclaw::DeviceType::cpu);
    CHECK((gpus.empty() || cpus.empty() || gpus != cpus));
    for (const auto& gpu : gpus) {
        CHECK(gpu.is_gpu());
    }
    for (const auto& cpu : cpus) {
        CHECK(cpu.is_cpu());
    }
}

TEST_CASE("info queries return the table's C++ types") {
    const openclaw::Device& device = env().device;
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_NAME>()), std::string>);
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_MAX_COMPUTE_UNITS>()), cl_uint>);
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_MAX_WORK_GROUP_SIZE>()), size_t>);
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_MAX_WORK_ITEM_SIZES>()),
                                 std::vector<size_t>>);
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_AVAILABLE>()), bool>);
    static_assert(std::is_same_v<decltype(device.info<CL_DEVICE_PLATFORM>()), cl_platform_id>);

    // Compare with the raw C API.
    char name[1024] = {};
    REQUIRE(clGetDeviceInfo(device.get(), CL_DEVICE_NAME, sizeof(name), name, nullptr) ==
            CL_SUCCESS);
    CHECK(device.name() == std::string(name));
    CHECK(device.info<CL_DEVICE_NAME>().size() == std::string(name).size());  // no trailing NUL
    cl_uint units = 0;
    REQUIRE(clGetDeviceInfo(device.get(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units,
                            nullptr) == CL_SUCCESS);
    CHECK(device.max_compute_units() == units);
    cl_uint align_bits = 0;
    REQUIRE(clGetDeviceInfo(device.get(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits),
                            &align_bits, nullptr) == CL_SUCCESS);
    CHECK(device.mem_base_addr_align() * 8 == align_bits);  // bytes, not the driver's bits

    const auto items = device.max_work_item_sizes();
    CHECK(items.size() == device.info<CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS>());
    CHECK(device.max_work_group_size() >= 1);
    CHECK(device.global_mem_size() >= device.max_mem_alloc_size());
    CHECK(device.local_mem_size() > 0);
    CHECK(device.is_available());
    CHECK(device.version() >= openclaw::Version{1, 2});
    CHECK(device.opencl_c_version() >= openclaw::Version{1, 2});
}

TEST_CASE("extensions are split into names") {
    const openclaw::Device& device = env().device;
    const auto names = device.extensions();
    REQUIRE_FALSE(names.empty());  // every 1.2+ device reports some
    for (const auto& name : names) {
        CHECK_FALSE(name.empty());
        CHECK(name.find(' ') == std::string::npos);
        CHECK(device.supports_extension(name));
    }
    CHECK_FALSE(device.supports_extension("cl_openclaw_no_such_extension"));
    CHECK_FALSE(device.supports_extension(""));
}

TEST_CASE("version strings are parsed as the drivers write them") {
    using openclaw::Version;
    using openclaw::detail::parse_version;
    static_assert(parse_version("OpenCL 3.0 CUDA 12.8.90") == Version{3, 0});
    static_assert(parse_version("OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts") ==
                  Version{3, 0});
    static_assert(parse_version("OpenCL C 1.2 ") == Version{1, 2});
    static_assert(parse_version("OpenCL 1.2") == Version{1, 2});
    static_assert(parse_version("OpenCL 2.10 x") == Version{2, 10});
    static_assert(parse_version("no version here") == Version{0, 0});
    static_assert(Version{1, 2} < Version{2, 0});
    static_assert(Version{3, 0} > Version{2, 2});
    CHECK(parse_version("OpenCL 3.0 CUDA") == Version{3, 0});
}

TEST_CASE("device types have names") {
    CHECK(openclaw::to_string(openclaw::DeviceType::gpu) == "GPU");
    CHECK(openclaw::to_string(openclaw::DeviceType::cpu) == "CPU");
    CHECK(openclaw::to_string(openclaw::DeviceType::accelerator) == "accelerator");
    const auto type = env().device.type();
    CHECK((type == openclaw::DeviceType::gpu || type == openclaw::DeviceType::cpu ||
           type == openclaw::DeviceType::accelerator || type == openclaw::DeviceType::custom));
}
