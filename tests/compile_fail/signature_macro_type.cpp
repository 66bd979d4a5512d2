// Must not compile: a type macro in the signature (macros are not expanded).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
#define REAL float
__kernel void scale(__global REAL* values, const REAL factor) {}
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "scale">();
}
