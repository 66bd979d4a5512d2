// Must not compile: an array parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void weights(__global float* out, float w[4]) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "weights">();
}
