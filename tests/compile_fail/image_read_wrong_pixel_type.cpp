// Must not compile: reading an RGBA8 image into floats (its pixels are cl_uchar4).
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Images& i) {
    std::vector<float> host(64);
    q.read(i.in, host);
}
