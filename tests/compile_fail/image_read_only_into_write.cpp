// Must not compile: a ReadOnly image passed to a write_only image parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.in, i.in);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
