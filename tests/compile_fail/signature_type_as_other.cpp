// Must not compile: a binding after the kernel's name that is not an openclaw::type_as.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void scale_by(__global T* data, const T factor) { data[0] *= factor; }
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "scale_by", cl_float>();
}
