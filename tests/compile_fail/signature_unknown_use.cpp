// Must not compile: a ReadOnly buffer for a non-const pointer the kernel's body passes on to a
// function (which may write through it): the body does not show that the kernel only reads it,
// so the parameter is Global<float> and only a ReadWrite buffer fits.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
void twice(__global float* p, size_t i) { p[i] *= 2.0f; }
__kernel void scale(__global float* data, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        twice(data, i);
    }
}
)CLC";
}  // namespace

void snippet(cf::Program& program, cf::Args& a) {
    auto scale = program.kernel<source, "scale">();
    scale.set_args(a.in, a.n);
}
