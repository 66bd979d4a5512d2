// Must not compile: a floating-point launch size (it would be truncated silently).
#include "common.hpp"

void snippet(double n) {
    const cf::NDRange range{n};
    (void)range;
}
