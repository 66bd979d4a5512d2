// Must not compile: a Buffer<cl_int> passed to In<float>.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.ints, a.out, a.n);
}
