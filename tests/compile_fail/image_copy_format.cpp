// Must not compile: an RGBA8 image copied into an R32F image.
#include "common.hpp"

void snippet(const openclaw::Queue& queue, cf::Images& images) {
    queue.copy(images.in, openclaw::ImageRegion::rect(0, 0, 4, 4), images.gray, {0, 0, 0});
}
