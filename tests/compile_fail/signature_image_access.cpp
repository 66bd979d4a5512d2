// Must not compile: a WriteOnly image for an image the source declares read_only: the kernel's
// type comes from its declaration, and set_args checks against it.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void blur(read_only image2d_t in, sampler_t s, write_only image2d_t out) {}
)CLC";
}  // namespace

void snippet(cf::Program& program, cf::Images& i) {
    auto blur = program.kernel<source, "blur">();
    blur.set_args(i.out, i.sampler, i.out);
}
