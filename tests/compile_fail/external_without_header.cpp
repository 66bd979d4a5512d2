// Must not compile: interop used in a unit that includes only the main header; the first error
// must name <openclaw/external.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Context& context, const openclaw::Device& device) {
    if (openclaw::external_capabilities(device).semaphores) {
        openclaw::Semaphore semaphore(context);
        (void)semaphore;
    }
}
