// Must not compile: a raw pointer passed to DynamicKernel::set_args.
#include "common.hpp"

void snippet(cf::Program& program, cf::Args& a) {
    auto dynamic = program.kernel("vector_add");
    const float* host = nullptr;
    dynamic.set_args(a.in, host, a.out, a.n);
}
