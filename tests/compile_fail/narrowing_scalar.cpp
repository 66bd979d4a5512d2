// Must not compile: a size_t passed to a cl_uint parameter.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.in, a.out, a.size);
}
