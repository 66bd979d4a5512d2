// Must not compile: set_arg<2> with a ReadOnly buffer for Out<float>.
#include "common.hpp"

void snippet(cf::VectorAdd& add, cf::Args& a) {
    add.set_arg<2>(a.in);
}
