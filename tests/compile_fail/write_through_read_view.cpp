// Must not compile: a write through a read-only mapped view.
#include "common.hpp"

void snippet(cf::Args& a, cf::Queue& q) {
    auto view = q.map_read(a.in);
    view[0] = 1.0f;
}
