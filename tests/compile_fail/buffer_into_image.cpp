// Must not compile: a buffer passed to an image parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.in, a.out);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
