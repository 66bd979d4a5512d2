// Must not compile: a std::size_t for a parameter the source declares `uint`.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c, const uint n) {
    const size_t i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
)CLC";
}  // namespace

void snippet(cf::Program& program, cf::Args& a) {
    auto add = program.kernel<source, "vector_add">();
    add.set_args(a.in, a.in, a.out, a.size);
}
