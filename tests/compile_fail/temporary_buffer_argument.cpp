// Must not compile: a sub-buffer made in the call is released before the kernel runs.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.in.sub(0, 16), a.out, a.n);
}
