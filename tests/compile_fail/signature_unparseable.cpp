// Must not compile: a function-like macro in the parameter list.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
#define POINTER(T) __global T*
__kernel void copy(__global const float* in,
                   POINTER(float) out) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "copy">();
}
