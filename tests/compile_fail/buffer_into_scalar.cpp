// Must not compile: a buffer passed to a scalar parameter.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.in, a.out, a.in);
}
