// Must not compile: import_buffer() called in a unit that includes only the main header; the
// first error must name <openclaw/external.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Context& context, int fd) {
    auto buffer = openclaw::import_buffer<float>(context, fd);
    (void)buffer;
}
