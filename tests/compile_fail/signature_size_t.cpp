// Must not compile: a size_t kernel parameter (its size differs between host and device).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void scale(__global float* data,
                    const size_t n) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "scale">();
}
