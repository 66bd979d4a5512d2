// Must not compile: an intptr_t kernel parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void address(intptr_t where) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "address">();
}
