// Must not compile: a kernel name that the source does not declare.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void vector_add(__global const float* a, __global float* b) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "vectoradd">();
}
