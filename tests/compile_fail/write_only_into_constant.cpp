// Must not compile: a WriteOnly buffer passed to Constant<cl_int>.
#include "common.hpp"

void snippet(cf::Lookup& lookup, cf::Args& a) {
    lookup.set_args(a.int_out, a.ints, a.int_out);
}
