// Must not compile: split() called in a unit that includes only the main header; the first error
// must name <openclaw/split.hpp>.
#include <openclaw/openclaw.hpp>

#include <vector>

std::size_t snippet(const std::vector<openclaw::Device>& devices) {
    const auto slices = openclaw::split(1000, devices);
    return slices.size();
}
