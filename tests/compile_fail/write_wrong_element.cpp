// Must not compile: writing host doubles into a float buffer.
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    const std::vector<double> host(16);
    q.write(a.both, host);
}
