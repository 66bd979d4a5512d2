// Must not compile: writing floats over an RGBA8 image (its pixels are cl_uchar4).
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Images& i) {
    const std::vector<float> host(64);
    q.write(i.both, host);
}
