// Must not compile: a ReadOnly buffer as the twelfth argument, an Out<float>.
#include "common.hpp"

void snippet(cf::Many& many, cf::Args& a) {
    many.set_args(a.in, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, a.in);
}
