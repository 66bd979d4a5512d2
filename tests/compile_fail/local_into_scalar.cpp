// Must not compile: LocalMem passed to a scalar (cl_uint) parameter.
#include "common.hpp"

void snippet(cf::Reduce& reduce, cf::Args& a) {
    reduce.set_args(a.in, a.out, cf::LocalMem<float>{64}, cf::LocalMem<float>{64});
}
