// Must not compile: a WriteOnly buffer for a non-const pointer the kernel both reads and writes
// (`y[i] = a * x[i] + y[i]`): the parameter is Global<float>, which only a ReadWrite buffer fits.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void saxpy(const float alpha, __global float* x, __global float* y, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        y[i] = alpha * x[i] + y[i];
    }
}
)CLC";
}  // namespace

void snippet(cf::Program& program, cf::Args& a) {
    auto saxpy = program.kernel<source, "saxpy">();
    saxpy.set_args(2.0f, a.in, a.out, a.n);
}
