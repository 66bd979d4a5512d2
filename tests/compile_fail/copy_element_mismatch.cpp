// Must not compile: a copy between regions of different element types.
#include "common.hpp"

void snippet(cf::Queue& q, cf::Args& a) {
    q.copy(a.in, a.int_out);
}
