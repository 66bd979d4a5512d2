// Must not compile: a sub-buffer made in a graph kernel's argument update is released when the
// statement ends, while the graph may replay.
#include <openclaw/graph.hpp>

#include "common.hpp"

void snippet(cf::GraphKernel<cf::VectorAdd>& step, cf::Args& a) {
    step.set_args(a.in, a.in.sub(0, 16), a.out, a.n);
}
