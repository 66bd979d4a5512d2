// Conan's test_package: the package compiles, links against the ICD loader and runs. Build
// machines have no OpenCL driver, so having no platform is a pass; the kernel's signature is
// still checked at compile time.
#include <openclaw/openclaw.hpp>

#include <cstdio>
#include <type_traits>
#include <utility>

#include "scale.cl.hpp"

using Scale = decltype(std::declval<openclaw::Program&>().kernel<kernels::scale, "scale">());
// A non-const __global pointer reads as Out<T> (docs/signatures.md).
static_assert(std::is_same_v<Scale, openclaw::Kernel<openclaw::Out<float>, float>>);

int main() {
    const auto platforms = openclaw::Platform::list();
    std::printf("openclaw %d.%d.%d: %zu OpenCL platform(s)\n", OPENCLAW_VERSION_MAJOR,
                OPENCLAW_VERSION_MINOR, OPENCLAW_VERSION_PATCH, platforms.size());
    return 0;
}
