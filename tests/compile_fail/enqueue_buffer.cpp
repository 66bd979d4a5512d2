// Must not compile: enqueue given a buffer instead of a kernel.
#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    q.enqueue(a.both, cf::NDRange{16});
}
