// Must not compile: a slice of a temporary buffer, which dangles once the statement ends.
#include "common.hpp"

void snippet(const openclaw::Context& context) {
    const auto slice = openclaw::ReadWriteBuffer<float>{context, 16}.slice(0, 8);
    (void)slice;
}
