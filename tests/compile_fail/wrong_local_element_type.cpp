// Must not compile: LocalMem<int> passed to Local<float>.
#include "common.hpp"

void snippet(cf::Reduce& reduce, cf::Args& a) {
    reduce.set_args(a.in, a.out, cf::LocalMem<int>{64}, a.n);
}
