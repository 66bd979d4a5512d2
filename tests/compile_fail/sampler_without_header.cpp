// Must not compile: a sampler made in a unit that includes only the main header (its modes are
// declared there, so the first error is the sampler's, naming <openclaw/sampler.hpp>).
#include <openclaw/openclaw.hpp>

void snippet(const openclaw::Context& context) {
    openclaw::Sampler sampler(context, false, openclaw::AddressMode::clamp_to_edge,
                              openclaw::FilterMode::nearest);
    (void)sampler;
}
