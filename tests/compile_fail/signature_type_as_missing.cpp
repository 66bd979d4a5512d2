// Must not compile: a type name the build defines (-D T=float), typed without a type_as for it.
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
__kernel void scale_by(__global T* data, const T factor) { data[0] *= factor; }
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "scale_by", openclaw::type_as<"U", cl_float>>();
}
