// Must not compile: a pointer to a pointer.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void rows(__global float** rows) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "rows">();
}
