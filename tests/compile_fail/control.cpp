// Must compile: every correct use the compile-fail snippets get wrong.
#include "common.hpp"

void control(cf::VectorAdd& add, cf::Reduce& reduce, cf::Scale& scale, cf::Lookup& lookup,
             cf::Many& many, cf::Args& a) {
    add.set_args(a.in, a.in, a.out, a.n);
    add.set_args(a.both, a.in, a.both, static_cast<cl_uint>(a.size));  // ReadWrite fits In, Out
    add.set_args(a.in, a.in, a.out, 16u);
    reduce.set_args(a.in, a.out, cf::LocalMem<float>{64}, a.n);
    scale.set_args(a.both, cf::Pair{2.0f, 1}, a.weights);
    lookup.set_args(a.ints, a.ints, a.int_out);
    many.set_args(a.in, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, a.out);
    add.set_arg<2>(a.both).set_arg<3>(cl_uint{3});
    cf::Device device;
    (void)device.info<CL_DEVICE_NAME>();
}
