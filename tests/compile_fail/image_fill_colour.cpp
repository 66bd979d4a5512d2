// Must not compile: an RGBA8 (normalized) image filled with an unsigned integer colour.
#include "common.hpp"

void snippet(const openclaw::Queue& queue, cf::Images& images) {
    queue.fill(images.both, openclaw::ImageRegion::rect(0, 0, 4, 4), cl_uint4{{1, 2, 3, 4}});
}
