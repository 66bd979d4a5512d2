// Must not compile: reading a float buffer into host memory of ints.
#include <vector>

#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    std::vector<cl_int> host(16);
    q.read(a.both, host);
}
