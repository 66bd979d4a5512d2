// Must not compile: a pointer to ptrdiff_t.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void offsets(__global const ptrdiff_t* deltas) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "offsets">();
}
