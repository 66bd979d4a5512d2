// Must not compile: an image made in a unit that includes only the main header; the first error
// must name <openclaw/image.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Context& context) {
    openclaw::Image2D<openclaw::pixel::rgba8, openclaw::ReadOnly> image(context, 64, 64);
    (void)image;
}
