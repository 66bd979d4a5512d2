// Must not compile: a source that ends inside the parameter list.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void cut(__global float* a,
                  __global float* b
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "cut">();
}
