// Must not compile: an event's profile read in a unit that includes only the main header, which
// leaves Profile (and <chrono>) to <openclaw/profile.hpp>.
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Event& event) {
    (void)event.duration();
}
