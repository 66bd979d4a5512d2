// Must not compile: a buffer passed to a Local<float> parameter.
#include "common.hpp"

void snippet(cf::Reduce& reduce, cf::Args& a) {
    reduce.set_args(a.in, a.out, a.both, a.n);
}
