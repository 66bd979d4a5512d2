// Must not compile: long long, which OpenCL C does not have.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void wide(long long x) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "wide">();
}
