// The unit of consumer_separate that defines openclaw's out-of-line functions
// (OPENCLAW_SEPARATE_COMPILATION).
#include <openclaw/src.hpp>
