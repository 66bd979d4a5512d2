// Must not compile: Profile named in a unit that includes only the main header; the first error
// must say which header declares it (not that the type is incomplete).
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Event& event) {
    const openclaw::Profile profile = event.profile();
    (void)profile;
}
