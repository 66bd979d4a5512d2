// Must not compile: a sampler parameter.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void sample(__global float4* out, const sampler_t smp) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "sample">();
}
