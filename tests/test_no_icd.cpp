// Run with OCL_ICD_VENDORS pointing at an empty directory (see tests/CMakeLists.txt): with no
// OpenCL driver installed, Platform::list() is an empty vector, not an exception, and
// select_device() explains how to install one.
#include <openclaw/all.hpp>

#include "support/catch.hpp"

TEST_CASE("Platform::list is empty when no OpenCL driver is installed") {
    const auto platforms = openclaw::Platform::list();
    CHECK(platforms.empty());
}

TEST_CASE("select_device says how to install a driver when there is none") {
    try {
        (void)openclaw::select_device();
        FAIL("select_device found a device without a driver");
    } catch (const openclaw::Error& error) {
        CHECK(error.cl_code() == -1001);  // CL_PLATFORM_NOT_FOUND_KHR
        CHECK_THAT(error.what(), openclaw_test::has("sudo apt-get install pocl-opencl-icd"));
    }
}
