// Must not compile: two declarations of one kernel with different parameters (#ifdef is not
// evaluated).
#include "common.hpp"

namespace {
constexpr char source[] = R"CLC(
#ifdef USE_DOUBLE
__kernel void sum(__global double* data, uint n) {}
#else
__kernel void sum(__global float* data, uint n) {}
#endif
)CLC";
}  // namespace

void snippet(cf::Program& program) {
    (void)program.kernel<source, "sum">();
}
