// Must not compile: nonblocking given to a copy between buffers, which never blocks.
#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    q.copy(a.in, a.both, cf::nonblocking);
}
