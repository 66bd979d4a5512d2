// Must not compile: an image parameter: openclaw has no image types yet.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void blur(read_only image2d_t input, __global float4* out) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "blur">();
}
