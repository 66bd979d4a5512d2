// Must not compile: an image passed to a scalar parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    shift.set_args(i.in, i.sampler, i.out, i.in);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
