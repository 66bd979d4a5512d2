// Must not compile: a scalar passed to an In<float> parameter.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, 1.0f, a.out, a.n);
}
