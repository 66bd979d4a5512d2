// Must not compile: a write through a read-only mapped view.
#include "common.hpp"

void snippet(cf::Args& a, cf::Queue& q) {
    auto view = a.in.map_read(q);
    view[0] = 1.0f;
}
