// Must not compile: reading into const host memory.
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    const std::vector<float> host(16);
    q.read(a.both, host);
}
