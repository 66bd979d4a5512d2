// Must not compile: a bool kernel parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void select(__global int* out, bool flag) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "select">();
}
