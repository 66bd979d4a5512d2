// device_info: every OpenCL platform and device on this machine, with the properties people
// choose a device by. Also a tour of openclaw's typed queries (device.info<CL_DEVICE_...>()).
#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string mib(cl_ulong bytes) {
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

std::string list(const std::vector<std::size_t>& sizes) {
    std::string text;
    for (std::size_t size : sizes) {
        text += (text.empty() ? "" : " x ") + std::to_string(size);
    }
    return text;
}

void print_device(const openclaw::Device& device, std::size_t index) {
    const openclaw::Version c_version = device.opencl_c_version();
    std::printf("  device %zu: %s\n", index, device.name().c_str());
    std::printf("    type                 %s\n", std::string(to_string(device.type())).c_str());
    std::printf("    vendor               %s\n", device.vendor().c_str());
    std::printf("    version              %s (OpenCL C %d.%d)\n",
                device.info<CL_DEVICE_VERSION>().c_str(), c_version.major, c_version.minor);
    std::printf("    driver               %s\n", device.driver_version().c_str());
    std::printf("    available            %s\n", device.is_available() ? "yes" : "no");
    std::printf("    compute units        %u at %u MHz\n", device.max_compute_units(),
                device.max_clock_frequency());
    std::printf("    global memory        %s (largest allocation %s)\n",
                mib(device.global_mem_size()).c_str(), mib(device.max_mem_alloc_size()).c_str());
    std::printf("    local memory         %llu KiB\n",
                static_cast<unsigned long long>(device.local_mem_size() / 1024));
    std::printf("    max work-group size  %zu (per dimension %s)\n", device.max_work_group_size(),
                list(device.max_work_item_sizes()).c_str());
    std::printf("    sub-buffer alignment %zu bytes\n", device.mem_base_addr_align());
    std::printf("    double precision     %s\n",
                device.supports_extension("cl_khr_fp64") ? "yes" : "no");
    std::printf("    extensions           %zu\n", device.extensions().size());
}

}  // namespace

int main() try {
    const auto platforms = openclaw::Platform::list();
    if (platforms.empty()) {
        std::printf(
            "No OpenCL platform is installed. Install a driver (ICD), e.g. "
            "`sudo apt-get install pocl-opencl-icd` for the CPU.\n");
        return EXIT_FAILURE;
    }
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        const auto& platform = platforms[p];
        std::printf("platform %zu: %s\n", p, platform.name().c_str());
        std::printf("  vendor  %s\n  version %s\n", platform.vendor().c_str(),
                    platform.version_string().c_str());
        const auto devices = platform.devices();
        if (devices.empty()) {
            std::printf("  (no devices)\n");
        }
        for (std::size_t d = 0; d < devices.size(); ++d) {
            print_device(devices[d], d);
        }
    }
    // What openclaw::select_device() would pick here (OPENCLAW_DEVICE steers it), and why.
    const openclaw::DeviceChoice choice = openclaw::choose_device();
    std::printf("\nselect_device() picks %s\n", choice.reason.c_str());
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "device_info: %s\n", error.what());
    return EXIT_FAILURE;
}
