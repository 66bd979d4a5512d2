// Must not compile: set_arg<4> on a four-parameter kernel.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_arg<4>(a.n);
}
