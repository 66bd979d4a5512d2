// Must not compile: an image1d_t parameter (openclaw has 2D, 3D and 2D-array images only).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void sample(__global float4* out, read_only image1d_t line) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "sample">();
}
