// Must not compile: a raw cl_event in after() (it must be wrapped, saying who owns it).
#include "common.hpp"

void snippet(cl_event raw) {
    (void)cf::after(raw);
}
