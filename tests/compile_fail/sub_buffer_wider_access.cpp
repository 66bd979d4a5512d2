// Must not compile: a ReadWrite sub-buffer of a ReadOnly buffer.
#include "common.hpp"

void snippet(cf::Args& a) {
    (void)a.in.sub<cf::ReadWrite>(0, 4);
}
