// Must not compile: a uintptr_t kernel parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void address(__global int* out, uintptr_t where) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "address">();
}
