// Must not compile: a BinaryCache made in a unit that includes only the main header; the first
// error must name <openclaw/cache.hpp>.
#include <openclaw/openclaw.hpp>

openclaw::BuildOptions snippet() {
    openclaw::BuildOptions options;
    options.cache(openclaw::BinaryCache("/tmp/kernels"));
    return options;
}
