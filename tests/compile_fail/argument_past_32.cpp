// Must not compile: a ReadOnly buffer as argument 33 (an Out<float>) of a 34-parameter kernel;
// the report names the index through argument_index<33>.
#include "common.hpp"

using Wide =
    openclaw::Kernel<cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int,
                     cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int,
                     cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int,
                     cl_int, cl_int, cl_int, openclaw::Out<float>>;

void snippet(Wide& wide, cf::Args& a) {
    wide.set_args(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, a.in);
}
