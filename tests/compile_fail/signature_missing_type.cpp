// Must not compile: a parameter with qualifiers but no type.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void odd(__global float* a, const) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "odd">();
}
