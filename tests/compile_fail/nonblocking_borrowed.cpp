// Must not compile: a nonblocking read into memory the queue does not own (a vector the caller
// keeps): nothing would stop the caller from freeing it under the command.
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    std::vector<float> host(16);
    q.read(a.both, host, cf::nonblocking);
}
