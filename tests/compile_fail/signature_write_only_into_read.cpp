// Must not compile: a WriteOnly buffer for a non-const pointer the kernel's body reads (`a[i]`).
// Without const, the declaration allows both; the body shows the kernel reads it, so the
// parameter is In<float> and a buffer kernels may not read is refused.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void vector_add(__global float* a, __global float* b, __global float* c, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
)CLC";
}  // namespace

void snippet(cf::Program& program, cf::Args& a) {
    auto add = program.kernel<source, "vector_add">();
    add.set_args(a.out, a.in, a.out, a.n);
}
