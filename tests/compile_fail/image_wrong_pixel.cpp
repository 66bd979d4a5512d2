// Must not compile: an r_f32 image passed to an rgba8 image parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.gray, i.out);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
