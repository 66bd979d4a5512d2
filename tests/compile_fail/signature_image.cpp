// Must not compile: a read_write image parameter has no descriptor (OpenCL C 1.2 has no
// read_write images, and openclaw's descriptors are read_only or write_only).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void blur(read_write image2d_t input, __global float4* out) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "blur">();
}
