// Must not compile: a WriteOnly buffer passed to In<float>.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.out, a.in, a.out, a.n);
}
