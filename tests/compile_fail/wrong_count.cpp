// Must not compile: two arguments for a four-parameter kernel.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_args(a.in, a.in);
}
