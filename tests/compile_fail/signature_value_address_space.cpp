// Must not compile: a __local by-value parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void tile(__global float* out, __local float scratch) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "tile">();
}
