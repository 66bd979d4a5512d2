// Must not compile: events awaited in a unit that includes only the main header; the first error
// must name <openclaw/async.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Event& a, const openclaw::Event& b) {
    auto both = openclaw::when_all(a, b);
    (void)both;
}
