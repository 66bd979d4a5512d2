// <openclaw/src.hpp> in a build that did not define OPENCLAW_SEPARATE_COMPILATION: its definitions
// would clash with the inline ones of the header-only units.
#include <openclaw/src.hpp>
