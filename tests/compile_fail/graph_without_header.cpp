// Must not compile: a command graph made in a unit that includes only the main header; the first
// error must name <openclaw/graph.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Queue& queue) {
    openclaw::CommandGraph graph(queue, {.command_buffer = false});
    graph.finalize();
}
