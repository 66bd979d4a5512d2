// Must not compile: a nonblocking write from a span of memory the caller keeps.
#include <span>
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    const std::vector<float> host(16);
    q.write(a.both, std::span<const float>(host), cf::nonblocking);
}
