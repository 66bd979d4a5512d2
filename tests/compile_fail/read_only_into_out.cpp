// Must not compile: a ReadOnly buffer passed to Out<float>.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.in, a.in, a.n);
}
