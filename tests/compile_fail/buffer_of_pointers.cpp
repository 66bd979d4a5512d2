// Must not compile: a buffer of host pointers (meaningless on the device).
#include "common.hpp"

void snippet(cf::Context& context) {
    const cf::ReadWriteBuffer<float*> pointers{context, 16};
    (void)pointers;
}
