// Must not compile: an image passed to a sampler_t parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    shift.set_args(i.in, i.in, i.out, cl_int{1});
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
