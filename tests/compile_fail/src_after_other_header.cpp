// <openclaw/src.hpp> after another openclaw header: that header already left its out-of-line
// functions undefined, so src.hpp could no longer define them.
#define OPENCLAW_SEPARATE_COMPILATION 1
#include <openclaw/buffer.hpp>
#include <openclaw/src.hpp>
