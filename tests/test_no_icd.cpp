// Run with OCL_ICD_VENDORS pointing at an empty directory (see tests/CMakeLists.txt): with no
// OpenCL driver installed, Platform::list() is an empty vector, not an exception.
#include <openclaw/openclaw.hpp>

#include "support/catch.hpp"

TEST_CASE("Platform::list is empty when no OpenCL driver is installed") {
    const auto platforms = openclaw::Platform::list();
    CHECK(platforms.empty());
}
