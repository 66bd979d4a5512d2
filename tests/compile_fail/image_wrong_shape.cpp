// Must not compile: an Image3D passed to an image2d_t parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.volume, i.out);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
