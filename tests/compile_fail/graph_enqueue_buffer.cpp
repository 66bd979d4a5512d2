// Must not compile: a graph given a buffer where it records a kernel.
#include <openclaw/graph.hpp>

#include "common.hpp"

void snippet(cf::CommandGraph& graph, cf::Args& a) {
    graph.enqueue(a.both, cf::NDRange{16});
}
