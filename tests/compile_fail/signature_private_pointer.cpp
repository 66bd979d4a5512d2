// Must not compile: a pointer parameter without an address space.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void fill(float* out) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "fill">();
}
