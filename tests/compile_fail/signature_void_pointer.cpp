// Must not compile: a void pointer (no element type).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void raw(__global void* bytes) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "raw">();
}
