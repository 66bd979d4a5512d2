// Must not compile: a graph kernel's argument update that narrows (size_t to cl_uint), checked as
// Kernel::set_args checks it.
#include <openclaw/graph.hpp>

#include "common.hpp"

void snippet(cf::GraphKernel<cf::VectorAdd>& step, cf::Args& a) {
    step.set_args(a.in, a.in, a.out, a.size);
}
