// Must not compile: a WriteOnly image passed to a read_only image parameter.
#include "common.hpp"

void snippet(cf::Invert& invert, cf::Shift& shift, cf::Images& i, cf::Args& a) {
    invert.set_args(i.out, i.out);
    (void)invert;
    (void)shift;
    (void)i;
    (void)a;
}
